"""Board-a-match, total points, Patton and the 3-team triplicate through the services
(C03 l.163-167, l.185-195, l.211-236)."""

import datetime
from fractions import Fraction

import pytest

from tests.tournaments.teams.test_teams import enter
from tournaments.models import (
    EventType,
    RankingScope,
    ScoringMethod,
    StoredRanking,
    TeamMatch,
)
from tournaments.services.classification import classify as classification
from tournaments.services.entries import registration
from tournaments.services.errors import TournamentError
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.teams import (
    team_events,
    team_matches,
    team_schedule,
    triplicate,
    triplicate_scores,
)

pytestmark = pytest.mark.django_db


def make_event(members, count, **settings):
    tournament = setup.create_tournament(
        name="Equipos",
        date=datetime.date(2025, 5, 6),
        event_type=EventType.TEAMS,
        scoring_method=ScoringMethod.VPS,
    )
    team_events.configure(
        tournament, **({"format": "round_robin", "boards_per_match": 4} | settings)
    )
    for i in range(count):
        registration.register_entry(tournament, members[4 * i : 4 * i + 4], name=f"Equipo {i + 1}")
    return tournament


def play_match(session, director, match, rooms):
    """``rooms``: (open NS, closed NS) per board of the match's round, in board order."""
    section = session.sections.get()
    first = (match.round - 1) * session.boards_per_round + 1
    for b, (open_ns, closed_ns) in enumerate(rooms, start=first):
        enter(section, director, match.round, match.open_table, b, open_ns)
        enter(section, director, match.round, match.closed_table, b, closed_ns)


def legal_pair(net: int) -> tuple[int, int]:
    """Open- and closed-room NS scores that bridge can make (Law 77) and differ by ``net``."""
    from tournaments.scoring import LEGAL_NS_SCORES

    return next(
        (a, a - net) for a in sorted(LEGAL_NS_SCORES, key=abs) if a - net in LEGAL_NS_SCORES
    )


def event_points(tournament):
    return {
        r.entry_id: r.points
        for r in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT)
    }


# Nets for the home team on four boards: 0 (tie), +10, +50, −620. The Patton table (C03
# l.189-193): 0-10 → 4-4, 20-110 → 5-3, 760+ → 8-0, 320-750 → 7-1.
FOUR_BOARDS = ((420, 420), (430, 420), (170, 120), (-200, 420))


@pytest.mark.parametrize(
    ("scoring", "home", "away"),
    [
        ("bam", 1 + 2 + 2 + 0, 1 + 0 + 0 + 2),  # C03 l.163: 2 win, 1 tie, 0 loss
        ("total", 0 + 10 + 50 - 620, 620 - 60),  # the sum of the nets
        ("patton", 4 + 4 + 5 + 1, 4 + 4 + 3 + 7),  # C03 l.189-193
        ("imps", 0 + 0 + 2 - 12, 12 - 2),  # unchanged: the IMP margin
    ],
)
def test_match_points_in_each_scoring(members, director, scoring, home, away):
    tournament = make_event(members, 2, scoring=scoring)
    session = team_events.start_teams(tournament)
    match = TeamMatch.objects.get(session=session)
    play_match(session, director, match, FOUR_BOARDS)
    classification.ensure_current(session)
    match.refresh_from_db()
    points = event_points(tournament)
    assert (points[match.home_id], points[match.away_id]) == (home, away)
    if scoring == "imps":
        assert match.home_points is None and match.home_vp is None
    else:
        assert (match.home_points, match.away_points) == (home, away)
        assert (match.home_won, match.home_lost) == (2, 12)  # IMPs kept for the tie-breaks
    lines = team_matches.match_boards(match)
    if scoring == "patton":
        assert [(b.home_points, b.away_points) for b in lines] == [(4, 4), (4, 4), (5, 3), (1, 7)]


def test_patton_points_follow_the_courses_table_at_each_threshold(members, director):
    """C03 l.189-193 at its band edges: 10 → 4-4, 20 → 5-3, 110 → 5-3, 120 → 6-2, 310 → 6-2,
    320 → 7-1, 750 → 7-1, 760 → 8-0."""
    tournament = make_event(members, 2, format="patton", boards_per_match=8)
    session = team_events.start_teams(tournament)
    match = TeamMatch.objects.get(session=session)
    nets = (10, 20, 110, 120, 310, 320, 750, 760)
    play_match(session, director, match, [legal_pair(n) for n in nets])
    classification.ensure_current(session)
    lines = team_matches.match_boards(match)
    assert [b.home_points for b in lines] == [4, 5, 5, 6, 6, 7, 7, 8]
    assert [b.away_points for b in lines] == [4, 3, 3, 2, 2, 1, 1, 0]
    match.refresh_from_db()
    assert (match.home_points, match.away_points) == (48, 16)  # 8 points a board: 64 in all


def test_a_split_score_gives_each_team_its_own_board_points(members, director):
    """C03 l.790-812's split board: A nets −280 and B +340, so in board-a-match A loses (0) and
    B wins (2); in Patton A gets 2 (−280 is in 120-310) and B 7 (340 in 320-750)."""
    for scoring, expected in (("bam", (0, 2)), ("patton", (2, 7)), ("total", (-280, 340))):
        tournament = make_event(members, 2, scoring=scoring, boards_per_match=3)
        session = team_events.start_teams(tournament)
        section = session.sections.get()
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
        classification.ensure_current(session)
        match = TeamMatch.objects.get(session=session)
        assert (match.home_points, match.away_points) == expected, scoring


def test_an_artificial_score_is_refused_by_board_points(members, director):
    """±3 IMPs (Law 12C2b) give no board, Patton or total-point value: the board is left out of
    those points and the match page flags it; the IMPs still count it."""
    tournament = make_event(members, 2, scoring="bam", boards_per_match=3)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    corrections.adjust_score(
        user=director,
        section=section,
        round=1,
        table=1,
        board=1,
        adjustment={"kind": "artificial", "ns": "A+", "ew": "A"},
        reason="Mano no jugable",
        law="12C2",
    )
    enter(section, director, 1, 2, 1, 140)
    enter(section, director, 1, 1, 2, 420)
    enter(section, director, 1, 2, 2, 400)
    classification.ensure_current(session)
    match = TeamMatch.objects.get(session=session)
    assert (match.home_points, match.away_points) == (2, 0)  # board 2 only: +20 for A
    assert match.home_won == 3 + 1
    assert [b.refused for b in team_matches.match_boards(match)] == [True, False, False]


def test_patton_evening_is_the_courses_round_robin_with_patton_points(members, director):
    tournament = make_event(members, 4, format="patton", boards_per_match=3)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    assert (session.rounds, section.tables, session.boards_per_round) == (3, 4, 3)
    met = {frozenset((m.home_id, m.away_id)) for m in TeamMatch.objects.filter(session=session)}
    assert len(met) == 6  # everyone meets everyone once
    rounds = triplicate.patton_rounds(4, 3, "roman")  # the event's default square
    stored = [
        [(t["ns"], t["ew"]) for t in r["tables"] if t["room"] == "open"]
        for r in section.movement["rounds"]
    ]
    assert stored == [pairs for _r, pairs, _bye in rounds]
    with pytest.raises(TournamentError):  # the movement is laid out
        team_events.configure(tournament, format="round_robin")


def test_patton_needs_three_to_eight_boards(members):
    tournament = make_event(members, 4)
    with pytest.raises(TournamentError):
        team_events.configure(tournament, format="patton", boards_per_match=2)


# --- triplicate -----------------------------------------------------------------------------


def test_triplicate_lays_out_the_courses_table(members):
    """C03 l.224-236: pairs 1-6, teams A = 1 & 2, B = 3 & 6, C = 4 & 5, four rounds."""
    tournament = make_event(members, 3, format="triplicate", boards_per_match=3)
    session = team_events.start_teams(tournament)
    movement = session.sections.get().movement
    assert [[(t["ns_pair"], t["ew_pair"]) for t in r["tables"]] for r in movement["rounds"]] == [
        [(1, 6), (5, 2), (3, 4)],
        [(1, 5), (4, 6), (3, 2)],
        [(1, 4), (5, 3), (6, 2)],
        [(1, 3), (4, 2), (6, 5)],
    ]
    # the seating numbers are the teams: A = 1, B = 2, C = 3
    assert [(t["ns"], t["ew"]) for t in movement["rounds"][0]["tables"]] == [(1, 2), (3, 1), (2, 3)]
    assert all(t["boards"] == [1, 2, 3] for t in movement["rounds"][0]["tables"])
    assert session.rounds == 4 and session.boards.count() == 12
    assert TeamMatch.objects.filter(session=session).count() == 12


def test_triplicate_needs_three_teams(members):
    for count in (2, 4):
        tournament = make_event(
            members, count, format="triplicate", boards_per_match=3, name=f"T{count}"
        )
        with pytest.raises(TournamentError):
            team_events.start_teams(tournament)


def test_triplicate_compares_the_tables_two_by_two(members, director):
    """C03 l.219: table 1 v 2, 1 v 3 and 2 v 3; the NS pair of one table and the EW pair of the
    other share each comparison. Board 1, round 1: NS +420 at table 1, +170 at 2, −50 at 3.
    1 v 2: 250 → 6 IMPs to pairs 1 (NS 1) and 2 (EW 2), −6 to 5 and 6.
    1 v 3: 470 → 10 to pairs 1 and 4, −10 to 3 and 6.
    2 v 3: 220 → 6 to pairs 5 and 4, −6 to 3 and 2.
    Pairs: 1 +16, 2 0, 3 −16, 4 +16, 5 0, 6 −16 → A (1, 2) +16, B (3, 6) −32, C (4, 5) +16."""
    tournament = make_event(members, 3, format="triplicate", boards_per_match=3)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    for table, score in ((1, 420), (2, 170), (3, -50)):
        enter(section, director, 1, table, 1, score)
    classification.ensure_current(session)
    assert triplicate_scores.pair_totals(session) == {1: 16, 2: 0, 3: -16, 4: 16, 5: 0, 6: -16}
    a, b, c = team_schedule.teams_of(tournament)
    assert event_points(tournament) == {a.pk: 16, b.pk: -32, c.pk: 16}
    table1 = TeamMatch.objects.get(session=session, round=1, number=1)
    lines = triplicate_scores.table_boards(table1)
    assert (lines[0].ns_imps, lines[0].ew_imps) == (16, -16) and not lines[1].compared
    progress = team_schedule.progress(session)[0]
    assert (progress.results, progress.expected) == (3, 9)


def test_triplicate_with_only_two_tables_in_compares_those(members, director):
    tournament = make_event(members, 3, format="triplicate", boards_per_match=3)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    enter(section, director, 1, 1, 1, 420)
    enter(section, director, 1, 3, 1, -50)
    classification.ensure_current(session)
    assert triplicate_scores.pair_totals(session) == {1: 10, 6: -10, 3: -10, 4: 10, 5: 0, 2: 0}


def test_compare_tables_is_zero_sum_and_symmetric():
    ns, ew = triplicate_scores.compare_tables({1: 420, 2: 170, 3: -50})
    assert sum(ns.values()) + sum(ew.values()) == 0
    assert ns == {1: Fraction(16), 2: Fraction(0), 3: Fraction(-16)}
    assert ew == {1: Fraction(-16), 2: Fraction(0), 3: Fraction(16)}
