"""Teams events through the services: schedules, the Swiss draw, match scoring and standings."""

import datetime
import random
import uuid
from decimal import Decimal
from fractions import Fraction

import pytest

from tournaments.models import (
    EntryStatus,
    EventType,
    RankingScope,
    Result,
    ScoringMethod,
    StoredRanking,
    TableCode,
    TeamMatch,
)
from tournaments.services.classification import classify as classification
from tournaments.services.entries import registration
from tournaments.services.errors import TournamentError
from tournaments.services.results import publish
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.table import entry
from tournaments.services.teams import team_events, team_matches, team_schedule, team_standings


def make_teams_event(
    members,
    count,
    *,
    fmt="swiss",
    method=ScoringMethod.VPS,
    boards=7,
    rounds=4,
    rr_method="roman",
    scale="wbf20",
    name="Equipos",
):
    tournament = setup.create_tournament(
        name=name, date=datetime.date(2025, 5, 6), event_type=EventType.TEAMS, scoring_method=method
    )
    team_events.configure(
        tournament,
        format=fmt,
        boards_per_match=boards,
        swiss_rounds=rounds,
        round_robin_method=rr_method,
        vp_scale=scale,
    )
    for i in range(count):
        registration.register_entry(tournament, members[4 * i : 4 * i + 4], name=f"Equipo {i + 1}")
    return tournament


def enter(section, director, rnd, table, board, ns_score):
    """A director's traveller line: the number prevails over the contract (AEB norm)."""
    return entry.submit_result(
        user=director,
        section=section,
        table=table,
        round=rnd,
        board=board,
        contract="3NT",
        declarer="N",
        tricks=9,
        ns_score=ns_score,
        idempotency_key=uuid.uuid4().hex,
    )


def play_round(session, director, rnd, scores):
    """``scores[match number] = (open room NS, closed room NS)`` on every board of the match."""
    section = session.sections.get()
    for match in TeamMatch.objects.filter(session=session, round=rnd).exclude(number=0):
        open_ns, closed_ns = scores.get(match.number, (420, 420))
        for b in range(
            (rnd - 1) * session.boards_per_round + 1, rnd * session.boards_per_round + 1
        ):
            enter(section, director, rnd, match.open_table, b, open_ns)
            enter(section, director, rnd, match.closed_table, b, closed_ns)


def schedule(session):
    numbers = team_schedule.numbers_of(session)
    out = {}
    for m in TeamMatch.objects.filter(session=session).order_by("round", "number"):
        out.setdefault(m.round, []).append(
            (numbers[m.home_id], numbers[m.away_id]) if m.away_id else ("bye", numbers[m.home_id])
        )
    return out


# --- schedules ------------------------------------------------------------------------------


def test_roman_square_for_six_teams_is_the_courses(members):
    """C03 l.238-253: 1ª 3-4 2-5 1-6; 2ª 4-5 3-1 2-6; 3ª 5-1 4-2 3-6; 4ª 1-2 5-3 4-6;
    5ª 2-3 1-4 5-6, the first team at home (NS in the open room)."""
    tournament = make_teams_event(members, 6, fmt="round_robin", boards=4)
    session = team_events.start_teams(tournament)
    assert schedule(session) == {
        1: [(3, 4), (2, 5), (1, 6)],
        2: [(4, 5), (3, 1), (2, 6)],
        3: [(5, 1), (4, 2), (3, 6)],
        4: [(1, 2), (5, 3), (4, 6)],
        5: [(2, 3), (1, 4), (5, 6)],
    }
    section = session.sections.get()
    assert (session.rounds, session.boards_per_round, section.tables) == (5, 4, 6)
    round2 = section.movement["rounds"][1]["tables"]
    # Match 2 of round 2 is 3 v 1: table 3 open room 3 NS / 1 EW, table 4 closed room 1 NS.
    assert [(t["table"], t["ns"], t["ew"], t["boards"]) for t in round2[2:4]] == [
        (3, 3, 1, [5, 6, 7, 8]),
        (4, 1, 3, [5, 6, 7, 8]),
    ]
    assert session.boards.count() == 20
    assert TableCode.objects.filter(section=section, active=True).count() == 6
    assert session.is_running


def test_round_robin_with_an_odd_count_gives_each_team_one_bye(members):
    tournament = make_teams_event(members, 5, fmt="round_robin", rr_method="inverse", boards=2)
    session = team_events.start_teams(tournament)
    byes = [m.home_id for m in TeamMatch.objects.filter(session=session, number=0)]
    assert session.rounds == 5 and sorted(byes) == sorted(
        e.pk for e in team_schedule.teams_of(tournament)
    )
    met = [
        frozenset((m.home_id, m.away_id))
        for m in TeamMatch.objects.filter(session=session).exclude(number=0)
    ]
    assert len(met) == len(set(met)) == 10  # everyone meets everyone once
    # the byes of rounds not yet played are not in the standings
    assert all(line.points == 0 and line.matches == 0 for line in team_standings.standings(session))


def test_teams_need_teams_and_team_scoring(members):
    tournament = make_teams_event(members, 1)
    with pytest.raises(TournamentError):
        team_events.start_teams(tournament)
    pairs = setup.create_tournament(name="Parejas", date=datetime.date(2025, 5, 6))
    with pytest.raises(TournamentError):
        team_events.start_teams(pairs)
    with pytest.raises(TournamentError, match="25 PV"):
        team_events.configure(tournament, vp_scale="course25", boards_per_match=7)


def test_register_team_needs_four_to_six_players(members):
    tournament = make_teams_event(members, 0)
    with pytest.raises(TournamentError):
        registration.register_entry(tournament, members[:3], name="Tres")
    team = registration.register_entry(tournament, members[:6], name="Seis")
    assert team.entry_players.count() == 6


# --- Swiss ----------------------------------------------------------------------------------


def test_swiss_draw_follows_the_standing_without_rematches(members, director):
    tournament = make_teams_event(members, 8, boards=7, rounds=4)
    session = team_events.start_teams(tournament)
    assert schedule(session) == {1: [(1, 2), (3, 4), (5, 6), (7, 8)]}
    assert len(session.sections.get().movement["rounds"]) == 1
    with pytest.raises(TournamentError, match="no ha terminado"):
        team_events.draw_next_round(tournament, user=director)
    assert not team_schedule.can_draw(session)
    # Match 1: home +470 on each of 7 boards (70 IMPs, 20-0); match 3: away wins as much;
    # matches 2 and 4: every board level (10-10).
    play_round(session, director, 1, {1: (420, -50), 2: (420, 420), 3: (-50, 420), 4: (0, 0)})
    session.refresh_from_db()
    assert team_schedule.can_draw(session)
    classification.classify_session(session)
    m1 = TeamMatch.objects.get(session=session, round=1, number=1)
    assert (m1.home_won, m1.home_lost, m1.home_vp, m1.away_vp, m1.boards_played) == (
        70,
        0,
        Decimal("20.00"),
        Decimal("0.00"),
        7,
    )
    assert TeamMatch.objects.get(session=session, round=1, number=2).home_vp == 10
    # Standing: 1 and 6 (20), 3 4 7 8 (10), 2 and 5 (0); 1 v 6, then 3 has met 4 so meets 7.
    assert team_events.draw_next_round(tournament, user=director) == 2
    assert schedule(session)[2] == [(1, 6), (3, 7), (4, 8), (2, 5)]
    section = session.sections.get()
    assert [t["boards"] for t in section.movement["rounds"][1]["tables"]][0] == list(range(8, 15))
    assert session.boards.count() == 14
    rng = random.Random(7)
    for rnd in (2, 3, 4):
        play_round(
            session,
            director,
            rnd,
            {m: (rng.choice([-100, 420, 620]), rng.choice([-100, 420, 620])) for m in range(1, 5)},
        )
        if rnd < 4:
            team_events.draw_next_round(tournament, user=director)
    met = [frozenset(p) for pairs in schedule(session).values() for p in pairs]
    assert len(met) == len(set(met)) == 16
    with pytest.raises(TournamentError, match="todas las rondas"):
        team_events.draw_next_round(tournament, user=director)


def test_swiss_byes_go_to_different_teams_and_score_the_bye_award(members, director):
    tournament = make_teams_event(members, 7, boards=2, rounds=3)
    session = team_events.start_teams(tournament)
    for rnd in (1, 2, 3):
        play_round(session, director, rnd, {})
        if rnd < 3:
            team_events.draw_next_round(tournament, user=director)
    byes = TeamMatch.objects.filter(session=session, number=0)
    assert byes.count() == 3 and len({m.home_id for m in byes}) == 3
    classification.classify_session(session)
    bye_team = byes.first().home_id
    line = StoredRanking.objects.get(session=session, entry_id=bye_team)
    # Every board was level: 10 VPs a match, plus the bye's 12 (the default award).
    assert line.points == Decimal("32.00")


def test_withdrawn_team_is_left_out_of_the_next_draw(members, director):
    tournament = make_teams_event(members, 6, boards=1, rounds=3)
    session = team_events.start_teams(tournament)
    play_round(session, director, 1, {})
    gone = TeamMatch.objects.get(session=session, round=1, number=3).away
    registration.withdraw_entry(gone, user=director, reason="Se marcha")
    team_events.draw_next_round(tournament, user=director)
    round2 = TeamMatch.objects.filter(session=session, round=2)
    assert gone.pk not in {m.home_id for m in round2} | {m.away_id for m in round2}
    assert round2.filter(number=0).count() == 1  # five teams left: one bye


# --- scoring: the course's worked example ---------------------------------------------------


@pytest.mark.parametrize(
    ("method", "points"), [(ScoringMethod.VPS, (19, 13)), (ScoringMethod.IMPS, (13, -9))]
)
def test_course_split_and_artificial_example_through_the_services(
    members, director, method, points
):
    """C03 l.790-833. Before the two adjusted boards A has 23 IMPs and B 6. Board 1: split
    score, A −140 in the open room, B +200; closed room −140 for A → A −7, B +8 (l.809-812).
    Board 2: artificial, A average plus, B average: +3 and 0, the other room ignored (l.814-818).
    Totals: A +23 −6 −7 +3 = +13, B −23 +6 +8 +0 = −9 (l.822-826). Each team then looks up its
    own margin (l.827): in the course's 12-board column +13 → 19 VPs, −9 → 13 VPs."""
    tournament = make_teams_event(
        members, 2, fmt="round_robin", method=method, boards=12, scale="course25"
    )
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    team_a = TeamMatch.objects.get(session=session).home  # NS in the open room (table 1)
    # The 23-6 before: A +620 net (12 IMPs) and +520 (11 IMPs); B +230 (6 IMPs).
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
    enter(section, director, 1, 2, 1, 140)  # closed room: −140 for A (EW), +140 for B (NS)
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
    enter(section, director, 1, 2, 2, 140)  # ignored (C03 l.818)
    classification.ensure_current(session)
    match = TeamMatch.objects.get(session=session)
    assert (match.home_won, match.home_lost) == (26, 13)  # 12+11+3 won, 6+7 lost
    assert (match.away_won, match.away_lost) == (14, 23)  # 6+8 won
    assert (match.home_margin, match.away_margin) == (13, -9)
    lines = match_lines(match)
    assert [(b.number, b.home_imps, b.away_imps) for b in lines if b.compared] == [
        (1, -7, 8),
        (2, 3, 0),
        (3, 12, -12),
        (4, 11, -11),
        (5, -6, 6),
    ]
    assert lines[4].home_net == -230 and lines[0].home_net is None
    ranking = {
        r.entry_id: r
        for r in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT)
    }
    assert ranking[team_a.pk].points == points[0] and ranking[team_a.pk].place == 1
    assert ranking[match.away_id].points == points[1]
    if method == ScoringMethod.VPS:
        assert (match.home_vp, match.away_vp) == (19, 13)  # sum ≠ 30 (C03 l.827)


def match_lines(match):
    return team_matches.match_boards(match)


def test_a_correction_changes_the_match_and_the_standings(members, director):
    tournament = make_teams_event(members, 2, fmt="round_robin", boards=2)
    session = team_events.start_teams(tournament)
    section = session.sections.get()
    for b in (1, 2):
        enter(section, director, 1, 1, b, 420)
        enter(section, director, 1, 2, b, 420)
    classification.ensure_current(session)
    assert TeamMatch.objects.get(session=session).home_vp == 10
    row = Result.objects.get(section=section, table=2, board__number=1)
    corrections.correct_result(
        row,
        user=director,
        contract="4S",
        declarer="N",
        tricks=10,
        ns_score=-100,
        reason="Error de anotación",
    )
    classification.ensure_current(session)
    match = TeamMatch.objects.get(session=session)
    assert match.home_won == 11 and match.home_vp > 10 and match.away_vp < 10
    setup.finish_session(session)
    publish.publish_final(tournament, user=director)
    tournament.refresh_from_db()
    assert tournament.published_at is not None
    assert (
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT, place=1)
        .get()
        .entry_id
        == match.home_id
    )
    # the results PDF of a teams event lists the teams
    from tournaments.documents import render_html

    html, _version = render_html(tournament)
    assert "Equipo 1" in html and "Equipo 2" in html


def test_table_code_writes_its_own_room_only(members, director):
    tournament = make_teams_event(members, 4, boards=2, rounds=2)
    session = team_events.start_teams(tournament)
    code = TableCode.objects.get(session=session, table=2, active=True)
    stored = entry.submit_result(
        table_code=code,
        round=1,
        board=1,
        contract="4S",
        declarer="N",
        tricks=10,
        idempotency_key="k1",
    )
    match = TeamMatch.objects.get(session=session, round=1, number=1)
    # Table 2 is match 1's closed room: the away team sits NS.
    assert (stored.result.ns_id, stored.result.ew_id) == (match.away_id, match.home_id)
    again = entry.submit_result(
        table_code=code,
        round=1,
        board=1,
        contract="4S",
        declarer="N",
        tricks=10,
        idempotency_key="k1",
    )
    assert again.outcome == "duplicate"


# --- standings ------------------------------------------------------------------------------


def line(entry_id, points, won=0, lost=0, against=None):
    t = team_standings.TeamLine(
        entry_id, entry_id, f"T{entry_id}", Fraction(points), Fraction(won), Fraction(lost)
    )
    t.against = {k: Fraction(v) for k, v in (against or {}).items()}
    return t


def test_tie_breaks_in_the_configured_order():
    a = line(1, 30, won=40, lost=30, against={2: 8})
    b = line(2, 30, won=50, lost=20, against={1: 12})
    c = line(3, 25)
    h2h = team_standings.rank_teams([a, b, c], ("head_to_head", "imp_difference"))
    assert [(t.entry_id, t.place, t.decided_by) for t in h2h] == [
        (2, 1, "head_to_head"),
        (1, 2, "head_to_head"),
        (3, 3, ""),
    ]
    a2, b2 = line(1, 30, won=40, lost=10), line(2, 30, won=50, lost=20)
    diff = team_standings.rank_teams([a2, b2], ("imp_difference", "imp_quotient"))
    assert [(t.entry_id, t.place, t.tied, t.decided_by) for t in diff] == [
        (1, 1, False, "imp_quotient"),
        (2, 2, False, "imp_quotient"),
    ]
    level = team_standings.rank_teams([line(1, 30), line(2, 30)], ())
    assert [(t.place, t.tied) for t in level] == [(1, True), (1, True)]


def test_standings_cost_a_constant_number_of_queries(
    members, director, django_assert_max_num_queries
):
    tournament = make_teams_event(members, 8, boards=2, rounds=2)
    session = team_events.start_teams(tournament)
    play_round(session, director, 1, {1: (420, -50)})
    classification.classify_session(session)
    with django_assert_max_num_queries(4):
        table = team_standings.standings(session)
    # 20 IMPs over 2 boards is short of the 15·√2 blitz: 19.73 VPs on the WBF scale.
    assert len(table) == 8 and table[0].points == Fraction("19.73")
    assert all(e.status == EntryStatus.ACTIVE for e in team_schedule.teams_of(tournament))
