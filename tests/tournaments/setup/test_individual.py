"""Individual events through the services: a 16-player individual played end to end.

The course's position table (C03 l.323-347) is written out as data (``support_course_tables``),
so the test checks the stored results against the printed table, not against the generator
that produced it.
"""

import datetime
import random
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations

import pytest

from tests.support_course_tables import course_16_rows as course_rows
from tournaments.demo import play_rounds
from tournaments.models import (
    EventType,
    RankingScope,
    Result,
    ResultStatus,
    ScoringMethod,
    Seating,
    StoredMark,
    StoredRanking,
    TableCode,
)
from tournaments.scoring import Standing, display_round, rank, score_board
from tournaments.services.classification import classify as classification
from tournaments.services.entries import registration
from tournaments.services.errors import InvalidResult, NotAllowed, TournamentError
from tournaments.services.running import corrections
from tournaments.services.setup import events as setup
from tournaments.services.setup import individual as individual_service
from tournaments.services.setup import plan
from tournaments.services.table import entry, table_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def individual_section(members):
    """A running 16-player individual (the course's position movement), players 1-16 in
    registration order."""
    tournament = setup.create_tournament(
        name="Individual", date=datetime.date(2025, 4, 1), event_type=EventType.INDIVIDUAL
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    entries = [registration.register_entry(tournament, [m]) for m in members[:16]]
    setup.seat_section(section, individual_service.build_movement(16), entries)
    setup.start_session(session)
    return section


def number_of(section):
    return {s.entry_id: s.number for s in Seating.objects.filter(section=section)}


def play_all(section, seed=7):
    return play_rounds(section, random.Random(seed))


def test_an_individual_entry_is_one_player(members):
    tournament = setup.create_tournament(
        name="I", date=datetime.date(2025, 4, 1), event_type=EventType.INDIVIDUAL
    )
    with pytest.raises(TournamentError):
        registration.register_entry(tournament, members[:2])
    entry_ = registration.register_entry(tournament, [members[0]])
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
    marks = {
        (m.result_id, m.entry_id): m
        for m in StoredMark.objects.filter(session=individual_section.session)
    }
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
    rows = list(
        StoredRanking.objects.filter(
            session=individual_section.session, scope=RankingScope.SECTION
        ).order_by("place")
    )
    assert len(rows) == 16  # one ranking, one winner
    assert {r.direction for r in rows} == {""}
    for row in rows:
        assert row.percentage == display_round(expected[row.entry_id], 2)
        assert row.maximum == 180 and row.boards == 30
    # matchpoints are shared: every board hands out 4 x 6 per side, so the 16 percentages
    # average 50
    assert sum(expected.values()) == 16 * 50
    names = {r.entry_id: r.names for r in rows}
    ranked = rank([Standing(e, pct, tops=tops[e], name=names[e]) for e, pct in expected.items()])
    assert sorted((x.standing.pair, x.place) for x in ranked) == sorted(
        (r.entry_id, r.place) for r in rows
    )  # tied players share a place, any order


def test_a_table_device_writes_only_its_own_boards(individual_section):
    codes = {c.table: c for c in TableCode.objects.filter(section=individual_section)}
    movement = individual_section.movement
    slot = plan.slot_for(movement, 1, 2)
    with pytest.raises(NotAllowed):
        entry.submit_result(
            table_code=codes[1],
            round=1,
            board=slot.boards[0],
            contract="3NT",
            declarer="N",
            tricks=9,
            idempotency_key="x1",
        )
    # tables 3 and 4 hold the same boards, but each enters its own line
    shared = plan.slot_for(movement, 1, 3).boards[0]
    assert shared in plan.slot_for(movement, 1, 4).boards
    for table, key in ((3, "k3"), (4, "k4")):
        done = entry.submit_result(
            table_code=codes[table],
            round=1,
            board=shared,
            contract="4S",
            declarer="S",
            tricks=10,
            idempotency_key=key,
        )
        assert done.outcome == "created"
    lines = Result.objects.filter(section=individual_section, board__number=shared)
    numbers = number_of(individual_section)
    assert sorted(
        (numbers[r.ns_id], numbers[r.south_id], numbers[r.ew_id], numbers[r.west_id]) for r in lines
    ) == sorted([course_rows()[0][2], course_rows()[0][3]])


def test_resending_is_idempotent_and_a_different_result_goes_to_the_director(individual_section):
    code = TableCode.objects.get(section=individual_section, table=1)
    board = plan.slot_for(individual_section.movement, 1, 1).boards[0]
    first = entry.submit_result(
        table_code=code,
        round=1,
        board=board,
        contract="3NT",
        declarer="N",
        tricks=9,
        idempotency_key="a",
    )
    again = entry.submit_result(
        table_code=code,
        round=1,
        board=board,
        contract="3NT",
        declarer="N",
        tricks=9,
        idempotency_key="b",
    )
    other = entry.submit_result(
        table_code=code,
        round=1,
        board=board,
        contract="3NT",
        declarer="N",
        tricks=8,
        idempotency_key="c",
    )
    assert (first.outcome, again.outcome, other.outcome) == ("created", "duplicate", "conflict")
    assert other.result.south_id == first.result.south_id is not None
    assert other.result.west_id == first.result.west_id is not None


def test_an_artificial_score_gives_each_player_their_side_s_percentage(
    individual_section, director
):
    play_all(individual_section)
    row = Result.objects.filter(section=individual_section, round=1, table=1).first()
    corrections.adjust_score(
        user=director,
        section=individual_section,
        round=1,
        table=1,
        board=row.board.number,
        adjustment={"kind": "artificial", "ns": 60, "ew": 40},
        reason="Law 12C2",
        law="12C2",
    )
    classification.classify_session(individual_section.session)
    marks = {
        m.entry_id: m
        for m in StoredMark.objects.filter(
            session=individual_section.session, board_number=row.board.number, result=row
        )
    }
    assert {marks[row.ns_id].percentage, marks[row.south_id].percentage} == {60}
    assert {marks[row.ew_id].percentage, marks[row.west_id].percentage} == {40}
    assert marks[row.ns_id].kind == "adjusted"


def test_a_director_correction_rescores_all_four_players(individual_section, director):
    play_all(individual_section)
    classification.classify_session(individual_section.session)
    row = Result.objects.filter(section=individual_section, round=2, table=3).first()
    corrections.correct_result(
        row, user=director, contract="7NT", declarer="E", tricks=13, reason="wrong entry"
    )
    classification.classify_session(individual_section.session)
    marks = {
        m.entry_id: m.mark
        for m in StoredMark.objects.filter(session=individual_section.session, result=row)
    }
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
    registration.withdraw_entry(west, user=director, reason="ill")
    code = TableCode.objects.get(section=individual_section, table=1)
    with pytest.raises(InvalidResult):
        entry.submit_result(
            table_code=code, round=1, board=slot.boards[0], contract="PASS", idempotency_key="w"
        )
    assert not table_round.table_round(code, 1).plays


def test_table_round_shows_four_seats_and_where_each_player_goes(individual_section):
    code = TableCode.objects.get(section=individual_section, table=2)
    tr = table_round.table_round(code, 1)
    assert [(s.seat, s.number) for s in tr.seats] == list(zip("NSEW", (5, 6, 7, 8), strict=True))
    assert tr.plays and tr.individual
    # round 2 at table 2 is 5 7 8 6: N stays, the others change seat (C03 l.331)
    assert [(m.number, m.table, m.new_seat) for m in tr.moves] == [
        (5, 2, "N"),
        (6, 2, "W"),
        (7, 2, "S"),
        (8, 2, "E"),
    ]


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
    tournament = setup.create_tournament(
        name=f"I{players}", date=datetime.date(2025, 4, 2), event_type=EventType.INDIVIDUAL
    )
    session = tournament.sessions.get()
    section = setup.add_section(session)
    entries = [registration.register_entry(tournament, [m]) for m in members[:players]]
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


def test_player_cards_follow_the_course_table_seat_by_seat(individual_section):
    cards = individual_service.player_cards(individual_section)
    assert [c.number for c in cards] == list(range(1, 17))
    numbers = {s.number: s.entry for s in Seating.objects.filter(section=individual_section)}
    rows = course_rows()
    for card in cards:
        assert card.entry == numbers[card.number] and len(card.lines) == 15
        partners = set()
        for line in card.lines:
            table = rows[line.round - 1][line.table - 1]
            seat = "NSEW"[table.index(card.number)]
            n, s, e, w = table
            partner, opponents = {
                "N": (s, (e, w)),
                "S": (n, (e, w)),
                "E": (w, (n, s)),
                "W": (e, (n, s)),
            }[seat]
            assert line.seat == seat
            assert line.partner.number == partner and line.partner.entry == numbers[partner]
            assert tuple(o.number for o in line.opponents) == opponents
            partners.add(partner)
        assert partners == set(range(1, 17)) - {card.number}  # everyone partners everyone once


def test_player_cards_give_the_boards_of_the_course_s_first_position(individual_section):
    cards = {c.number: c for c in individual_service.player_cards(individual_section)}
    # C03 l.343-347: round 1 tables 1-4 play 1-2, 3-4, 5-6, 5-6; round 4 starts 7-8
    first = cards[1].lines
    assert (first[0].table, first[0].seat, first[0].boards) == (1, "N", (1, 2))
    assert (first[3].partner.number, first[3].boards) == (6, (7, 8))
    assert (cards[16].lines[0].table, cards[16].lines[0].seat, cards[16].lines[0].boards) == (
        4,
        "W",
        (5, 6),
    )
    assert not any(line.sitout for c in cards.values() for line in c.lines)


# Board 1 (none vulnerable) at its four tables: C03 l.343-347 give it to table 1 in round 1,
# tables 3 and 4 in round 2 and table 2 in round 3; the players come from the course table.
BOARD_1 = (  # (round, table, contract, declarer, tricks) → NS score
    (1, 1, "4S", "N", 10),  # 420: N1 S2 against E3 W4
    (2, 3, "3NT", "N", 9),  # 400: N9 S11 against E12 W10
    (2, 4, "2S", "N", 10),  # 170: N13 S15 against E16 W14
    (3, 2, "4S", "N", 9),  # -50: N5 S8 against E6 W7
)


def enter_board_1(section, director):
    for round_, table, contract, declarer, tricks in BOARD_1:
        entry.submit_result(
            user=director,
            section=section,
            table=table,
            round=round_,
            board=1,
            contract=contract,
            declarer=declarer,
            tricks=tricks,
            idempotency_key=f"b1-{round_}-{table}",
        )


def imp_individual(section, method):
    tournament = section.session.tournament
    tournament.scoring_method = method
    tournament.save()


@pytest.mark.parametrize(
    ("method", "by_player"),
    [
        # Butler, the course's datum (C03 l.203-209): drop 420 and -50, (400 + 170) / 2 = 285;
        # 420-285 = 135 → 4, 400-285 = 115 → 3, 170-285 = -115 → -3, -50-285 = -335 → -8 IMPs.
        (
            ScoringMethod.BUTLER,
            {
                1: 4,
                2: 4,
                3: -4,
                4: -4,
                9: 3,
                11: 3,
                12: -3,
                10: -3,
                13: -3,
                15: -3,
                16: 3,
                14: 3,
                5: -8,
                8: -8,
                6: 8,
                7: 8,
            },
        ),
        # Cross-IMPs averaged over the 3 comparisons: 420 gets (1 + 6 + 10) / 3 = 17/3,
        # 400 (-1 + 6 + 10) / 3 = 5, 170 (-6 - 6 + 6) / 3 = -2, -50 (-10 - 10 - 6) / 3 = -26/3.
        (
            ScoringMethod.CROSS_IMPS,
            {
                1: Fraction(17, 3),
                2: Fraction(17, 3),
                3: Fraction(-17, 3),
                4: Fraction(-17, 3),
                9: 5,
                11: 5,
                12: -5,
                10: -5,
                13: -2,
                15: -2,
                16: 2,
                14: 2,
                5: Fraction(-26, 3),
                8: Fraction(-26, 3),
                6: Fraction(26, 3),
                7: Fraction(26, 3),
            },
        ),
    ],
)
def test_an_imp_individual_credits_each_side_s_imps_to_both_partners(
    individual_section, director, method, by_player
):
    imp_individual(individual_section, method)
    enter_board_1(individual_section, director)
    assert sorted(r.ns_score for r in Result.objects.filter(section=individual_section)) == [
        -50,
        170,
        400,
        420,
    ]
    classification.classify_session(individual_section.session)
    numbers = number_of(individual_section)
    marks = StoredMark.objects.filter(session=individual_section.session, board_number=1)
    assert {numbers[m.entry_id]: m.mark for m in marks} == {
        n: display_round(Fraction(v), 2) for n, v in by_player.items()
    }
    rows = StoredRanking.objects.filter(
        session=individual_section.session, scope=RankingScope.SECTION
    ).order_by("place", "number")
    assert [r.exact for r in rows] == sorted(
        (str(Fraction(v)) for v in by_player.values()), key=Fraction, reverse=True
    )
    assert rows[0].percentage is None and {numbers[r.entry_id] for r in rows[:2]} == {6, 7}
    assert rows[0].place == 1 and rows[0].points == rows[1].points == display_round(
        Fraction(by_player[6]), 2
    )


def test_an_imp_individual_penalty_is_taken_in_imps(individual_section, director):
    imp_individual(individual_section, ScoringMethod.BUTLER)
    enter_board_1(individual_section, director)
    six = Seating.objects.get(section=individual_section, number=6).entry
    corrections.add_penalty(
        user=director,
        entry=six,
        session=individual_section.session,
        fraction_of_top=3,
        reason="slow play",
    )
    classification.classify_session(individual_section.session)
    points = {
        r.entry_id: r.points
        for r in StoredRanking.objects.filter(
            session=individual_section.session, scope=RankingScope.SECTION
        )
    }
    assert points[six.pk] == 8 - 3  # six keeps its partner's 8 IMPs less the 3-IMP penalty
    seven = Seating.objects.get(section=individual_section, number=7).entry
    assert points[seven.pk] == 8
