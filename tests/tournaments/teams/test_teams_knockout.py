"""Knockout teams events and multi-leg round robins through the services."""

import pytest

from tests.tournaments.teams.test_teams import enter, make_teams_event, play_round, schedule
from tournaments.models import (
    AuditEntry,
    Board,
    EntryStatus,
    ScoringMethod,
    StoredRanking,
    TeamMatch,
)
from tournaments.services.classification import classify as classification
from tournaments.services.errors import TournamentError
from tournaments.services.running import corrections
from tournaments.services.teams import (
    knockout,
    knockout_bracket,
    team_events,
    team_schedule,
    team_standings,
)


def knockout_event(members, count, *, boards=2, tie="extra_boards", tie_boards=2, **settings):
    tournament = make_teams_event(
        members, count, fmt="knockout", method=ScoringMethod.IMPS, boards=boards
    )
    team_events.configure(tournament, knockout_tie=tie, tie_boards=tie_boards, **settings)
    return tournament


def stage(session, number):
    numbers = team_schedule.numbers_of(session)
    return [
        (numbers[m.home_id], numbers[m.away_id])
        for m in TeamMatch.objects.filter(session=session, round=number).order_by("number")
    ]


def match(session, rnd, number):
    return TeamMatch.objects.get(session=session, round=rnd, number=number)


def play_boards(session, director, m, scores):
    """``scores[board] = (open room NS, closed room NS)`` for one match."""
    section = session.sections.get()
    for board, (open_ns, closed_ns) in scores.items():
        enter(section, director, m.round, m.open_table, board, open_ns)
        enter(section, director, m.round, m.closed_table, board, closed_ns)
    classification.ensure_current(session)
    m.refresh_from_db()
    return m


def test_six_teams_byes_go_to_the_top_seeds_and_winners_advance(members, director):
    """8-place bracket 1-8, 4-5, 2-7, 3-6 (seeding_order): places 7 and 8 are byes, so seeds
    1 and 2 go straight to stage 2, where they meet the winners of 4-5 and 3-6."""
    tournament = knockout_event(members, 6)
    session = team_events.start_teams(tournament)
    assert session.rounds == 3
    assert stage(session, 1) == [(4, 5), (3, 6)]
    section = session.sections.get()
    assert section.movement["rounds"][0]["tables"][1] == {
        "table": 2,
        "ns": 5,
        "ew": 4,
        "boards": [1, 2],
        "match": 1,
        "room": "closed",
    }
    assert [[(m["a"], m["b"]) for m in s] for s in section.movement["bracket"]["stages"]] == [
        [(1, None), (4, 5), (2, None), (3, 6)],
        [(1, "W1-2"), (2, "W1-4")],
        [("W2-1", "W2-2")],
    ]
    assert not knockout.can_draw_stage(session)
    with pytest.raises(TournamentError):
        knockout.draw_next_stage(tournament)
    # 4 beats 5 (+250 → 6 IMPs a board); 6 beats 3 from the closed room.
    play_round(session, director, 1, {1: (420, 170), 2: (170, 420)})
    classification.ensure_current(session)
    assert knockout.can_draw_stage(session)
    m1, m2 = match(session, 1, 1), match(session, 1, 2)
    assert (m1.margin, m1.winner_id, m1.decided_by) == (12, m1.home_id, "imps")
    assert (m2.margin, m2.winner_id) == (-12, m2.away_id)
    assert knockout.draw_next_stage(tournament, user=director) == 2
    assert stage(session, 2) == [(1, 4), (2, 6)]
    section.refresh_from_db()
    assert section.movement["rounds"][1]["tables"][0]["boards"] == [3, 4]
    assert AuditEntry.objects.filter(session=session, reason__contains="2").exists()
    play_round(session, director, 2, {1: (170, 420), 2: (420, 170)})  # 4 and 2 go through
    knockout.draw_next_stage(tournament, user=director)
    assert stage(session, 3) == [(2, 4)]
    with pytest.raises(TournamentError):
        knockout.draw_next_stage(tournament)  # the final is not decided
    play_round(session, director, 3, {1: (420, 170)})
    classification.ensure_current(session)
    stages, champion = knockout_bracket.live_bracket(session)
    assert champion.number == 2 and champion.through
    assert [m.a.number for m in stages[0]] == [1, 4, 2, 3]
    assert [m.b.number for m in stages[0]] == [None, 5, None, 6]
    assert not knockout.can_draw_stage(session)
    with pytest.raises(TournamentError):
        knockout.draw_next_stage(tournament)  # every stage is drawn


def test_the_directors_seeds_number_the_teams(members):
    tournament = knockout_event(members, 4)
    entries = team_schedule.teams_of(tournament)
    knockout.set_seeds(tournament, [entries[2].pk, entries[0].pk, entries[3].pk, entries[1].pk])
    session = team_events.start_teams(tournament)
    numbers = team_schedule.numbers_of(session)
    assert [numbers[e.pk] for e in entries] == [2, 4, 1, 3]
    assert stage(session, 1) == [(1, 4), (2, 3)]
    with pytest.raises(TournamentError):
        knockout.set_seeds(tournament, [entries[0].pk])  # started


def test_seeds_must_name_registered_teams_once(members):
    tournament = knockout_event(members, 3)
    entries = team_schedule.teams_of(tournament)
    with pytest.raises(TournamentError):
        knockout.set_seeds(tournament, [entries[0].pk, entries[0].pk])


def test_carry_over_decides_the_match(members, director):
    """The home team wins the boards by 6 IMPs but the visitors bring 10: they go through."""
    tournament = knockout_event(members, 2)
    session = team_events.start_teams(tournament)
    m = match(session, 1, 1)
    knockout.set_carry_over(tournament, m.pk, home=0, away=10, user=director)
    m = play_boards(session, director, m, {1: (420, 170), 2: (420, 420)})
    assert (m.margin, m.winner_id, m.decided_by) == (-4, m.away_id, "imps")
    assert (m.home_won, m.home_lost) == (6, 0)  # the boards alone
    knockout.set_carry_over(tournament, m.pk, home=0, away=5, user=director)
    m.refresh_from_db()
    assert (m.margin, m.winner_id) == (1, m.home_id)  # by exactly 1 IMP (C03 l.177)
    with pytest.raises(TournamentError):
        knockout.set_carry_over(tournament, m.pk, home=-1, away=0)


def test_a_tie_plays_extra_boards_at_the_same_tables(members, director):
    tournament = knockout_event(members, 2, tie_boards=2)
    session = team_events.start_teams(tournament)
    m = match(session, 1, 1)
    with pytest.raises(TournamentError):
        knockout.add_tie_segment(tournament, m.pk)  # nothing played yet
    m = play_boards(session, director, m, {1: (420, 170), 2: (170, 420)})
    assert (m.margin, m.winner_id) == (0, None) and knockout_bracket.is_tied(m)
    assert not knockout.can_draw_stage(session)
    boards = knockout.add_tie_segment(tournament, m.pk, user=director)
    assert boards == [3, 4]
    section = session.sections.get()
    assert [t["boards"] for t in section.movement["rounds"][0]["tables"]] == [[1, 2, 3, 4]] * 2
    assert set(Board.objects.filter(session=session).values_list("number", flat=True)) == {
        1,
        2,
        3,
        4,
    }
    m.refresh_from_db()
    assert m.tie_segments == [[3, 4]] and m.winner_id is None and not knockout_bracket.is_tied(m)
    (stage_one,) = team_schedule.progress(session)  # the tie-break boards are counted as expected
    assert (stage_one.results, stage_one.expected, stage_one.complete) == (4, 8, False)
    m = play_boards(session, director, m, {3: (420, 450), 4: (420, 420)})  # −30: 1 IMP
    assert team_schedule.progress(session)[0].complete
    assert (m.margin, m.winner_id, m.decided_by) == (-1, m.away_id, "tie_boards")
    with pytest.raises(TournamentError):
        knockout.add_tie_segment(tournament, m.pk)  # decided


@pytest.mark.parametrize(
    ("rule", "boards", "winner", "decided_by"),
    [
        ("higher_seed", {1: (420, 170), 2: (170, 420)}, "home", "higher_seed"),
        # Two boards of 1 IMP to the visitors against one of 2 IMPs to the home team.
        ("most_boards", {1: (400, 420), 2: (400, 420), 3: (470, 420)}, "away", "most_boards"),
        ("most_boards", {1: (420, 170), 2: (170, 420), 3: (420, 420)}, "home", "higher_seed"),
    ],
)
def test_a_tie_decided_by_the_stated_rule(members, director, rule, boards, winner, decided_by):
    tournament = knockout_event(members, 2, boards=len(boards), tie=rule)
    session = team_events.start_teams(tournament)
    m = play_boards(session, director, match(session, 1, 1), boards)
    assert m.margin == 0
    assert (m.winner_id, m.decided_by) == (getattr(m, f"{winner}_id"), decided_by)
    with pytest.raises(TournamentError):
        knockout.add_tie_segment(tournament, m.pk)  # the rule decided it


def test_course_knockout_total_through_the_services(members, director):
    """C03 l.828-833: in a knockout each adjusted board gives both teams the average of their
    own IMPs: split board (−7 − 8)/2 = −7.5, artificial board (+3 + 0)/2 = +1.5, so A wins by
    23 − 6 − 7.5 + 1.5 = +11 (the services' round-robin test covers the +13/−9 totals)."""
    tournament = knockout_event(members, 2, boards=5)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    for board, open_ns, closed_ns in ((3, 620, 0), (4, 420, -100), (5, 170, 400)):
        enter(section, director, 1, 1, board, open_ns)
        enter(section, director, 1, 2, board, closed_ns)
    corrections.adjust_score(
        user=director,
        section=section,
        round=1,
        table=1,
        board=1,
        adjustment={"kind": "split", "ns_score": -140, "ew_score": -200},
        reason="Información no autorizada",
        law="16B",
    )
    enter(section, director, 1, 2, 1, 140)
    corrections.adjust_score(
        user=director,
        section=section,
        round=1,
        table=1,
        board=2,
        adjustment={"kind": "artificial", "ns": "A+", "ew": "A"},
        reason="Mano no jugable",
        law="12C2",
    )
    enter(section, director, 1, 2, 2, 140)
    classification.ensure_current(session)
    m = match(session, 1, 1)
    assert m.margin == 11
    assert (m.home_margin, m.away_margin) == (13, -9)  # each team's own IMPs, as stored
    assert (m.winner_id, m.decided_by) == (m.home_id, "imps")
    assert (m.home_vp, m.away_vp) == (None, None)


def test_knockout_settings_are_checked(members):
    tournament = knockout_event(members, 2)
    with pytest.raises(TournamentError):
        team_events.configure(tournament, tie_boards=0)
    team_events.start_teams(tournament)
    with pytest.raises(TournamentError):
        team_events.configure(tournament, knockout_seeding="draw")


# --- round robin in legs ----------------------------------------------------------------------


def test_double_round_robin_swaps_home_and_away_in_the_second_leg(members, director):
    """C03 l.253: "si el encuentro es a doble vuelta, en la segunda se invierten las
    posiciones de la primera": leg 2 is leg 1 with the home team visiting."""
    tournament = make_teams_event(members, 4, fmt="round_robin", boards=1)
    team_events.configure(tournament, legs=2)
    session = team_events.start_teams(tournament)
    table = schedule(session)
    assert session.rounds == 6 and sorted(table) == [1, 2, 3, 4, 5, 6]
    for r in (1, 2, 3):
        assert table[r + 3] == [(away, home) for home, away in table[r]]
    movement = session.sections.get().movement
    assert movement["rounds"][3]["tables"][0]["boards"] == [4]
    # The home team wins every match: each pair splits its two meetings, over both legs.
    for r in range(1, 7):
        play_round(session, director, r, {1: (420, 170), 2: (420, 170)})
    classification.ensure_current(session)
    lines = {line.number: line for line in team_standings.standings(session)}
    assert {n: line.matches for n, line in lines.items()} == {1: 6, 2: 6, 3: 6, 4: 6}
    assert all(line.won == line.lost == 18 for line in lines.values())  # 3 wins, 3 losses
    assert StoredRanking.objects.filter(tournament=tournament).count() == 8
    assert all(e.status == EntryStatus.ACTIVE for e in team_schedule.teams_of(tournament))


def test_legs_are_checked(members):
    tournament = make_teams_event(members, 4, fmt="round_robin")
    with pytest.raises(TournamentError):
        team_events.configure(tournament, legs=0)
    with pytest.raises(TournamentError):
        team_events.configure(tournament, legs=5)


def test_a_knockout_is_scored_in_imps_even_in_a_vp_tournament(members, director):
    tournament = make_teams_event(members, 2, fmt="knockout", method=ScoringMethod.VPS, boards=2)
    session = team_events.start_teams(tournament)
    m = play_boards(session, director, match(session, 1, 1), {1: (420, 170), 2: (420, 420)})
    assert (m.home_vp, m.away_vp, m.margin, m.winner_id) == (None, None, 6, m.home_id)
    assert [(line.number, line.points) for line in team_standings.standings(session)] == [
        (1, 6),
        (2, -6),
    ]
