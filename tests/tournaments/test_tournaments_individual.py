"""Individual events through the services: a 16-player individual played end to end.

The course's position table (C03 l.323-347) is written out here as data, so the test checks
the stored results against the printed table, not against the generator that produced it.
"""

import datetime
import random
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations

import pytest

from tournaments.demo import play_rounds
from tournaments.models import (
    EventType,
    RankingScope,
    Result,
    ResultStatus,
    Seating,
    StoredMark,
    StoredRanking,
    TableCode,
)
from tournaments.scoring import Standing, display_round, rank, score_board
from tournaments.services import classification, entry, plan, setup
from tournaments.services import individual as individual_service
from tournaments.services.errors import InvalidResult, NotAllowed, TournamentError

pytestmark = pytest.mark.django_db

# C03 l.330-344: per round, tables 1-4 as (N, S, E, W).
COURSE_16 = """
1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
1 3 4 2 5 7 8 6 9 11 12 10 13 15 16 14
1 4 2 3 5 8 6 7 9 12 10 11 13 16 14 15
1 6 15 12 5 2 11 16 9 14 7 4 13 10 3 8
1 15 12 6 5 11 16 2 9 7 4 14 13 3 8 10
1 12 6 15 5 16 2 11 9 4 14 7 13 8 10 3
1 10 7 16 5 14 3 12 9 2 15 8 13 6 11 4
1 7 16 10 5 3 12 14 9 15 8 2 13 11 4 6
1 16 10 7 5 12 14 3 9 8 2 15 13 4 6 11
1 14 11 8 5 10 15 4 9 6 3 16 13 2 7 12
1 11 8 14 5 15 4 10 9 3 16 6 13 7 12 2
1 8 14 11 5 4 10 15 9 16 6 3 13 12 2 7
1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 16
1 9 13 5 2 10 14 6 3 11 15 7 4 12 16 8
1 13 5 9 2 14 6 10 3 15 7 11 4 16 8 12
"""


def course_rows():
    rows = []
    for line in COURSE_16.strip().splitlines():
        numbers = [int(x) for x in line.split()]
        rows.append([tuple(numbers[4 * t:4 * t + 4]) for t in range(4)])
    return rows


@pytest.fixture
def individual_section(members):
    """A running 16-player individual (the course's position movement), players 1-16 in
    registration order."""
    tournament = setup.create_tournament(name="Individual", date=datetime.date(2025, 4, 1),
                                         event_type=EventType.INDIVIDUAL)
    session = tournament.sessions.get()
    section = setup.add_section(session)
    entries = [setup.register_entry(tournament, [m]) for m in members[:16]]
    setup.seat_section(section, individual_service.build_movement(16), entries)
    setup.start_session(session)
    return section


def number_of(section):
    return {s.entry_id: s.number for s in Seating.objects.filter(section=section)}


def play_all(section, seed=7):
    return play_rounds(section, random.Random(seed))


def test_an_individual_entry_is_one_player(members):
    tournament = setup.create_tournament(name="I", date=datetime.date(2025, 4, 1),
                                         event_type=EventType.INDIVIDUAL)
    with pytest.raises(TournamentError):
        setup.register_entry(tournament, members[:2])
    entry_ = setup.register_entry(tournament, [members[0]])
    assert entry_.display_name == members[0].full_name


def test_seating_gives_player_numbers_and_the_tables_their_codes(individual_section):
    seatings = Seating.objects.filter(section=individual_section).order_by("number")
    assert [s.number for s in seatings] == list(range(1, 17))
    assert {s.direction for s in seatings} == {""}
    assert individual_section.tables == 4
    assert TableCode.objects.filter(section=individual_section, active=True).count() == 4
    session = individual_section.session
    session.refresh_from_db()
    assert (session.rounds, session.boards_per_round) == (15, 2)


def test_the_whole_event_follows_the_course_table(individual_section):
    assert play_all(individual_section) == 15 * 4 * 2
    numbers = number_of(individual_section)
    rows = course_rows()
    partners = Counter()
    for r in Result.objects.filter(section=individual_section, status=ResultStatus.OK):
        seats = tuple(numbers[e] for e in (r.ns_id, r.south_id, r.ew_id, r.west_id))
        assert seats == rows[r.round - 1][r.table - 1]
        partners[frozenset(seats[:2])] += 1
        partners[frozenset(seats[2:])] += 1
    # each partnership plays one round of two boards: every two players partner exactly once
    assert set(partners) == {frozenset(p) for p in combinations(range(1, 17), 2)}
    assert set(partners.values()) == {2}


def test_partners_share_their_side_s_mark_on_every_board(individual_section):
    play_all(individual_section)
    classification.classify_session(individual_section.session)
    marks = {(m.result_id, m.entry_id): m for m in StoredMark.objects.filter(
        session=individual_section.session)}
    results = Result.objects.filter(section=individual_section, status=ResultStatus.OK)
    assert StoredMark.objects.filter(session=individual_section.session).count() == 16 * 30
    for r in results:
        n, s, e, w = (marks[(r.pk, x)] for x in (r.ns_id, r.south_id, r.ew_id, r.west_id))
        assert n.mark == s.mark and e.mark == w.mark
        assert (n.direction, s.direction, e.direction, w.direction) == ("NS", "NS", "EW", "EW")
        # four results per board, top 6 (C03 l.347): the two sides share the top
        assert n.mark + e.mark == 6


def direct_ranking(section):
    """The same data through the scoring core by hand: score_board per board, credit.
    Returns each player's percentage and number of tops (the ranking's third tie-break)."""
    lines = defaultdict(list)
    for r in Result.objects.filter(section=section, status=ResultStatus.OK):
        lines[r.board.number].append(r)
    points = defaultdict(Fraction)
    tops = defaultdict(int)
    for rows in lines.values():
        scored = score_board([r.ns_score for r in rows], 4)
        assert scored.top == 6
        for r, m in zip(rows, scored.lines, strict=True):
            for player in (r.ns_id, r.south_id):
                points[player] += m.ns
                tops[player] += m.ns == 6
            for player in (r.ew_id, r.west_id):
                points[player] += m.ew
                tops[player] += m.ew == 6
    return {p: v * 100 / (6 * 30) for p, v in points.items()}, tops


def test_ranking_equals_a_direct_computation_with_the_core(individual_section):
    play_all(individual_section, seed=11)
    classification.classify_session(individual_section.session)
    expected, tops = direct_ranking(individual_section)
    rows = list(StoredRanking.objects.filter(session=individual_section.session,
                                             scope=RankingScope.SECTION).order_by("place"))
    assert len(rows) == 16  # one ranking, one winner
    assert {r.direction for r in rows} == {""}
    for row in rows:
        assert row.percentage == display_round(expected[row.entry_id], 2)
        assert row.maximum == 180 and row.boards == 30
    # matchpoints are shared: every board hands out 4 x 6 per side, so the 16 percentages
    # average 50
    assert sum(expected.values()) == 16 * 50
    names = {r.entry_id: r.names for r in rows}
    ranked = rank([Standing(e, pct, tops=tops[e], name=names[e])
                   for e, pct in expected.items()])
    assert sorted((x.standing.pair, x.place) for x in ranked) == \
        sorted((r.entry_id, r.place) for r in rows)  # tied players share a place, any order


def test_a_table_device_writes_only_its_own_boards(individual_section):
    codes = {c.table: c for c in TableCode.objects.filter(section=individual_section)}
    movement = individual_section.movement
    slot = plan.slot_for(movement, 1, 2)
    with pytest.raises(NotAllowed):
        entry.submit_result(table_code=codes[1], round=1, board=slot.boards[0], contract="3NT",
                            declarer="N", tricks=9, idempotency_key="x1")
    # tables 3 and 4 hold the same boards, but each enters its own line
    shared = plan.slot_for(movement, 1, 3).boards[0]
    assert shared in plan.slot_for(movement, 1, 4).boards
    for table, key in ((3, "k3"), (4, "k4")):
        done = entry.submit_result(table_code=codes[table], round=1, board=shared,
                                   contract="4S", declarer="S", tricks=10, idempotency_key=key)
        assert done.outcome == "created"
    lines = Result.objects.filter(section=individual_section, board__number=shared)
    numbers = number_of(individual_section)
    assert sorted((numbers[r.ns_id], numbers[r.south_id], numbers[r.ew_id], numbers[r.west_id])
                  for r in lines) == sorted([course_rows()[0][2], course_rows()[0][3]])


def test_resending_is_idempotent_and_a_different_result_goes_to_the_director(
        individual_section):
    code = TableCode.objects.get(section=individual_section, table=1)
    board = plan.slot_for(individual_section.movement, 1, 1).boards[0]
    first = entry.submit_result(table_code=code, round=1, board=board, contract="3NT",
                                declarer="N", tricks=9, idempotency_key="a")
    again = entry.submit_result(table_code=code, round=1, board=board, contract="3NT",
                                declarer="N", tricks=9, idempotency_key="b")
    other = entry.submit_result(table_code=code, round=1, board=board, contract="3NT",
                                declarer="N", tricks=8, idempotency_key="c")
    assert (first.outcome, again.outcome, other.outcome) == ("created", "duplicate", "conflict")
    assert other.result.south_id == first.result.south_id is not None
    assert other.result.west_id == first.result.west_id is not None


def test_an_artificial_score_gives_each_player_their_side_s_percentage(individual_section,
                                                                      director):
    play_all(individual_section)
    row = Result.objects.filter(section=individual_section, round=1, table=1).first()
    entry.adjust_score(user=director, section=individual_section, round=1, table=1,
                       board=row.board.number, adjustment={"kind": "artificial", "ns": 60,
                                                           "ew": 40},
                       reason="Law 12C2", law="12C2")
    classification.classify_session(individual_section.session)
    marks = {m.entry_id: m for m in StoredMark.objects.filter(
        session=individual_section.session, board_number=row.board.number, result=row)}
    assert {marks[row.ns_id].percentage, marks[row.south_id].percentage} == {60}
    assert {marks[row.ew_id].percentage, marks[row.west_id].percentage} == {40}
    assert marks[row.ns_id].kind == "adjusted"


def test_a_director_correction_rescores_all_four_players(individual_section, director):
    play_all(individual_section)
    classification.classify_session(individual_section.session)
    row = Result.objects.filter(section=individual_section, round=2, table=3).first()
    entry.correct_result(row, user=director, contract="7NT", declarer="E", tricks=13,
                         reason="wrong entry")
    classification.classify_session(individual_section.session)
    marks = {m.entry_id: m.mark for m in StoredMark.objects.filter(
        session=individual_section.session, result=row)}
    others = Result.objects.filter(board=row.board, status=ResultStatus.OK).exclude(pk=row.pk)
    best_for_ew = all(o.ns_score > -2220 for o in others)
    assert best_for_ew
    assert marks[row.ew_id] == marks[row.west_id] == 6
    assert marks[row.ns_id] == marks[row.south_id] == 0
    expected, _tops = direct_ranking(individual_section)
    for r in StoredRanking.objects.filter(session=individual_section.session):
        assert r.percentage == display_round(expected[r.entry_id], 2)


def test_a_missing_player_stops_the_table_with_a_clear_message(individual_section, director):
    slot = plan.slot_for(individual_section.movement, 1, 1)
    west = Seating.objects.get(section=individual_section, number=slot.players[3]).entry
    setup.withdraw_entry(west, user=director, reason="ill")
    code = TableCode.objects.get(section=individual_section, table=1)
    with pytest.raises(InvalidResult):
        entry.submit_result(table_code=code, round=1, board=slot.boards[0], contract="PASS",
                            idempotency_key="w")
    assert not entry.table_round(code, 1).plays


def test_table_round_shows_four_seats_and_where_each_player_goes(individual_section):
    code = TableCode.objects.get(section=individual_section, table=2)
    tr = entry.table_round(code, 1)
    assert [(s.seat, s.number) for s in tr.seats] == list(zip("NSEW", (5, 6, 7, 8),
                                                              strict=True))
    assert tr.plays and tr.individual
    # round 2 at table 2 is 5 7 8 6: N stays, the others change seat (C03 l.331)
    assert [(m.number, m.table, m.new_seat) for m in tr.moves] == \
        [(5, 2, "N"), (6, 2, "W"), (7, 2, "S"), (8, 2, "E")]


def test_table_cards_show_the_four_seats_per_round(individual_section):
    cards = individual_service.table_cards(individual_section)
    assert [c.table for c in cards] == [1, 2, 3, 4]
    rows = course_rows()
    for card in cards:
        assert len(card.lines) == 15
        for line in card.lines:
            assert tuple(s.number for s in line.seats) == rows[line.round - 1][card.table - 1]
            assert all(s.entry is not None for s in line.seats)
    assert cards[2].lines[0].shares_with == (4,)


@pytest.mark.parametrize("players", [8, 12])
def test_smaller_individuals_play_through_the_services(members, players):
    tournament = setup.create_tournament(name=f"I{players}", date=datetime.date(2025, 4, 2),
                                         event_type=EventType.INDIVIDUAL)
    session = tournament.sessions.get()
    section = setup.add_section(session)
    entries = [setup.register_entry(tournament, [m]) for m in members[:players]]
    setup.seat_section(section, individual_service.build_movement(players, 2), entries)
    # every board is played equally often, so the pool's one top is each board's top
    assert len(set(plan.plays_per_board(section.movement).values())) == 1
    setup.start_session(session)
    played = play_all(section)
    assert played == (players - 1) * (players // 4) * 2
    classification.classify_session(session)
    rows = StoredRanking.objects.filter(session=session, scope=RankingScope.SECTION)
    assert rows.count() == players
    assert sum(r.percentage for r in rows) == pytest.approx(50 * players, abs=0.05 * players)


def test_the_movement_choice_refuses_other_player_counts():
    with pytest.raises(TournamentError):
        individual_service.build_movement(10)
    assert individual_service.SUPPORTED_PLAYERS == (8, 12, 16)
