"""Seating later sessions of a multi-session pairs tournament (C03 l.349-471) through the
services: the course's pool tables session by session, the serpentine read from the ranking
as the course's table seats it, late pairs and withdrawals between sessions, refusals that
change nothing, and the tournament's totals over sessions seated this way."""

import random
from collections import Counter
from decimal import Decimal
from itertools import combinations

import pytest

from clubsite.models import Member
from tests.tournaments.support.multisession import make_event, places, play, seat
from tournaments.demo import play_rounds
from tournaments.models import (
    EntryStatus,
    RankingScope,
    Seating,
    Session,
    StoredRanking,
)
from tournaments.services.classification import session_scores
from tournaments.services.entries import registration
from tournaments.services.errors import TournamentError
from tournaments.services.setup import events as setup
from tournaments.services.setup import plan
from tournaments.services.setup import seating as session_seating

pytestmark = pytest.mark.django_db


# C03 l.357-376 and l.382-425, copied as printed: line k of each session is where the group
# that sat in line k of session 1 goes.
COURSE_TWO_POOLS = {
    1: ["NS - Azul", "EO - Azul", "NS - Roja", "EO - Roja"],
    2: ["NS - Azul", "NS - Roja", "EO - Roja", "EO - Azul"],
    3: ["NS - Azul", "EO - Roja", "EO - Azul", "NS - Roja"],
}
COURSE_THREE_POOLS = {
    1: ["NS - A", "EO - A", "NS - B", "EO - B", "NS - C", "EO - C"],
    2: ["EO - A", "EO - B", "EO - C", "NS - A", "NS - C", "NS - B"],
    3: ["NS - A", "NS - C", "EO - C", "NS - B", "EO - B", "EO - A"],
    4: ["EO - A", "NS - C", "NS - B", "EO - C", "NS - A", "EO - B"],
    5: ["NS - A", "NS - B", "EO - A", "EO - C", "EO - B", "NS - C"],
}
# Our sections carry letters: the course's pools in the order session 1 lists them.
POOL_LETTER = {"Azul": "A", "Roja": "B", "A": "A", "B": "B", "C": "C"}

# C03 l.429-471, read as movements-spec section 12.2 reconstructs it (rows right-aligned):
# first round "table: NS rank v EW rank" after the previous session's ranking.
SERPENTINE_12_TABLES = (
    "T1:1v18 T2:12v3 T3:5v22 T4:16v7 T5:9v2 T6:20v11 T7:13v6 T8:24v15 "
    "T9:17v10 T10:4v19 T11:21v14 T12:8v23"
)  # column 10, variant (b)
SERPENTINE_9_5_TABLES = (
    "T1:1v14 T2:12v3 T3:5v18 T4:16v7 T5:9v2 T6:byev11 T7:13v6 T8:4v15 T9:17v10 T10:8v19"
)
# The 16-table column (column 17) needs no reconstruction: the destination table of the
# starred ranks 2, 4, ..., 32, exactly as printed.
COURSE_COLUMN_16 = (7, 12, 9, 14, 11, 16, 13, 2, 15, 4, 1, 6, 3, 8, 5, 10)


def course_first_round(column: tuple[int, ...]) -> dict[int, tuple[int, int]]:
    """The course's reading of a column (l.459-471): rank 2t-1 stays at table t (NS when t
    is odd, EW when even, the fixed NS-EO-EO-NS cycle); rank 2t moves to the column's table
    on the other line."""
    ns, ew = {}, {}
    for t, dest in enumerate(column, start=1):
        (ns if t % 2 else ew)[t] = 2 * t - 1
        (ew if t % 2 else ns)[dest] = 2 * t
    return {t: (ns[t], ew[t]) for t in range(1, len(column) + 1)}


def parse_rounds(text: str) -> dict[int, tuple[int | None, int | None]]:
    out = {}
    for cell in text.split():
        table, match = cell[1:].split(":")
        ns, ew = match.split("v")
        out[int(table)] = (None if ns == "bye" else int(ns), None if ew == "bye" else int(ew))
    return out


def course_cell(text: str) -> tuple[str, str]:
    line, pool = (p.strip() for p in text.split("-"))
    return POOL_LETTER[pool], "EW" if line == "EO" else "NS"


def assert_course_pools(tournament, table: dict, sessions: int, lines: list) -> None:
    """Each group (session-1 line) sits, every session, where the course's table says,
    keeping its pair numbers; over the table's sessions every group meets every other once."""
    met = Counter()
    for number in range(1, sessions + 1):
        session = tournament.sessions.get(number=number)
        where = places(session)
        for group, members in enumerate(lines, start=1):
            expected = course_cell(table[(number - 1) % len(table) + 1][group - 1])
            assert {(where[e][0], where[e][2]) for e in members} == {expected}
            assert sorted(where[e][1] for e in members) == sorted(
                places(tournament.sessions.get(number=1))[e][1] for e in members
            )
        # who meets whom: the NS and EW groups of each section
        sitting = {}
        for group, members in enumerate(lines, start=1):
            sitting[(where[members[0]][0], where[members[0]][2])] = group
        for letter in {k[0] for k in sitting}:
            met[tuple(sorted((sitting[(letter, "NS")], sitting[(letter, "EW")])))] += 1
    return met


def session_one_lines(tournament) -> list[list[int]]:
    first = places(tournament.sessions.get(number=1))
    keys = sorted({(s, d) for s, _n, d in first.values()}, key=lambda k: (k[0], k[1] != "NS"))
    return [[e for e, (s, _n, d) in first.items() if (s, d) == key] for key in keys]


def test_two_pools_follow_the_course_over_its_three_sessions_and_start_again(
    members, pairs, director
):
    tournament, _entries = make_event(members, pairs, sessions=5, sections=2, tables=3)
    lines = session_one_lines(tournament)
    for number in range(1, 5):
        play(tournament.sessions.get(number=number), seed=number)
        planned = seat(tournament.sessions.get(number=number + 1), "pools", director)
        assert planned.method == "pools" and not planned.late and not planned.withdrawn
    met = assert_course_pools(tournament, COURSE_TWO_POOLS, 5, lines)
    # sessions 1-3: every group meets every other exactly once (C03 l.378); 4-5 start again
    first_three = assert_course_pools(tournament, COURSE_TWO_POOLS, 3, lines)
    assert first_three == Counter({pair: 1 for pair in combinations(range(1, 5), 2)})
    assert sum(met.values()) == 10
    session = tournament.sessions.get(number=5)
    assert [s.tables for s in session.sections.order_by("letter")] == [3, 3]
    assert plan.is_directional(session.sections.get(letter="A").movement)


def test_three_pools_follow_the_course_over_five_sessions(members, pairs, director):
    tournament, _entries = make_event(members, pairs, sessions=5, sections=3, tables=3)
    lines = session_one_lines(tournament)
    for number in range(1, 5):
        play(tournament.sessions.get(number=number), seed=number)
        seat(tournament.sessions.get(number=number + 1), "pools", director)
    met = assert_course_pools(tournament, COURSE_THREE_POOLS, 5, lines)
    # the course's five sessions are a 1-factorisation of K6: every pair of groups once
    assert met == Counter({pair: 1 for pair in combinations(range(1, 7), 2)})


def _seat_by_rank(session: Session, planned) -> dict[int, tuple[int | None, int | None]]:
    ranks = {s.entry.pk: s.rank for p in planned.sections for s in p.seats}
    by_table: dict[int, list] = {}
    for entry_id, (_letter, number, line) in places(session).items():
        by_table.setdefault(number, [None, None])[0 if line == "NS" else 1] = ranks[entry_id]
    return {t: tuple(v) for t, v in by_table.items()}


def _assert_order_is_the_ranking(tournament, session, planned):
    """The serpentine's ranks are the places of the ranking after the previous session."""
    ranking, totals, _names = session_scores.event_standings(
        tournament, list(Session.objects.filter(tournament=tournament, number__lt=session.number))
    )
    order = {r.standing.pair: i for i, r in enumerate(ranking, start=1)}
    for section in planned.sections:
        for s in section.seats:
            assert s.rank == order[s.entry.pk]
    scores = [totals[r.standing.pair].percentage for r in ranking]
    assert scores == sorted(scores, reverse=True)


def test_serpentine_on_twelve_tables_seats_as_the_course_table(members, pairs, director):
    tournament, _entries = make_event(
        members, pairs, sessions=2, sections=1, tables=12, rounds=2, boards=1
    )
    play(tournament.sessions.get(number=1))
    session = tournament.sessions.get(number=2)
    planned = seat(session, "serpentine", director)
    _assert_order_is_the_ranking(tournament, session, planned)
    assert _seat_by_rank(session, planned) == parse_rounds(SERPENTINE_12_TABLES)
    section = session.sections.get()
    assert section.tables == 12 and plan.is_directional(section.movement)
    # round 1 of the stored Mitchell puts NS t against EW t at table t
    first = [s for s in plan.slots(section.movement) if s.round == 1]
    assert all(s.ns == s.table == s.ew for s in first)


def test_serpentine_on_sixteen_tables_reads_the_printed_column(members, pairs, director):
    members = members + [
        Member.objects.create(
            first_name=f"Extra{i}", last_name="Socio", licence_number=f"X-{i:03d}"
        )
        for i in range(4)
    ]
    tournament, _entries = make_event(
        members, pairs, sessions=2, sections=1, tables=16, rounds=1, boards=1
    )
    play(tournament.sessions.get(number=1))
    session = tournament.sessions.get(number=2)
    planned = seat(session, "serpentine", director)
    _assert_order_is_the_ranking(tournament, session, planned)
    assert _seat_by_rank(session, planned) == course_first_round(COURSE_COLUMN_16)


def test_serpentine_half_table_puts_the_relay_where_the_course_marks_r(members, pairs, director):
    tournament, entries = make_event(
        members, pairs, sessions=2, sections=1, tables=10, rounds=3, boards=1, count=19
    )
    play(tournament.sessions.get(number=1))
    session = tournament.sessions.get(number=2)
    planned = seat(session, "serpentine", director)
    expected = parse_rounds(SERPENTINE_9_5_TABLES)
    got = _seat_by_rank(session, planned)
    assert got == {t: v for t, v in expected.items()}
    movement = session.sections.get().movement
    assert plan.is_phantom(movement, 6, "NS")  # the R: pair 11 (EW 6) sits out round 1
    sitting_out = next(r for r in planned.sections[0].first_round() if r["table"] is None)
    assert sitting_out["ns"].rank == 11


@pytest.mark.parametrize("count", [12, 16])
def test_serpentine_on_twelve_and_sixteen_pairs_keeps_the_course_rule(
    members, pairs, director, count
):
    """Below 9 tables the course prints no column; its rule (l.471) still holds: the
    NS-EO-EO-NS cycle, odd ranks among odd tables, and no two neighbours in the ranking at
    one table."""
    tournament, _entries = make_event(
        members, pairs, sessions=2, sections=1, tables=count // 2, rounds=2, boards=1
    )
    play(tournament.sessions.get(number=1))
    session = tournament.sessions.get(number=2)
    planned = seat(session, "serpentine", director)
    ranks = {s.rank: s for s in planned.sections[0].seats}
    assert sorted(ranks) == list(range(1, count + 1))
    cycle = ("NS", "EW", "EW", "NS")
    assert all(ranks[r].direction == cycle[(r - 1) % 4] for r in ranks)
    for table, (ns, ew) in _seat_by_rank(session, planned).items():
        assert abs(ns - ew) > 1
        unstarred = ns if ns % 2 else ew
        assert unstarred == 2 * table - 1


def test_keeping_the_seating_gives_the_same_places(members, pairs, director):
    tournament, _entries = make_event(members, pairs, sessions=2, sections=2, tables=3)
    play(tournament.sessions.get(number=1))
    seat(tournament.sessions.get(number=2), "same", director)
    assert places(tournament.sessions.get(number=2)) == places(tournament.sessions.get(number=1))


def test_a_withdrawal_and_a_late_pair_between_sessions(members, pairs, director):
    tournament, entries = make_event(members, pairs, sessions=3, sections=2, tables=3)
    play(tournament.sessions.get(number=1))
    gone = entries[1]  # NS 2 of section A: group 1
    registration.withdraw_entry(gone, user=director, reason="enfermedad")
    late = registration.register_entry(tournament, members[40:42])
    planned = session_seating.plan_seating(tournament.sessions.get(number=2), "pools")
    assert planned.withdrawn == [gone] and planned.late == [late]
    session_seating.apply_seating(planned, user=director)
    where = places(tournament.sessions.get(number=2))
    assert gone.pk not in where
    # group 1 keeps NS-A (course, session 2) without its pair 2: the late pair takes that place
    assert where[late.pk] == ("A", 2, "NS")
    # the serpentine ranks the late pair last and leaves the withdrawn one out
    play(tournament.sessions.get(number=2), seed=2)
    planned = seat(tournament.sessions.get(number=3), "serpentine", director)
    seats = {s.entry.pk: s for s in planned.sections[0].seats}
    assert gone.pk not in seats and len(seats) == 12
    assert not planned.late and not seats[late.pk].late  # after session 2 it is ranked
    _assert_order_is_the_ranking(tournament, tournament.sessions.get(number=3), planned)


def test_a_pair_registered_after_the_last_session_is_ranked_last(members, pairs, director):
    tournament, entries = make_event(members, pairs, sessions=2, sections=1, tables=4, rounds=2)
    play(tournament.sessions.get(number=1))
    late = registration.register_entry(tournament, members[40:42])
    planned = seat(tournament.sessions.get(number=2), "serpentine", director)
    seats = {s.entry.pk: s for s in planned.sections[0].seats}
    assert seats[late.pk].rank == 9 and seats[late.pk].late
    section = tournament.sessions.get(number=2).sections.get()
    assert section.tables == 5 and len(plan.pair_numbers(section.movement)) == 9


def _nothing_seated(tournament, number=2):
    return not Seating.objects.filter(
        session__tournament=tournament, session__number=number
    ).exists()


def test_refused_while_the_previous_session_is_not_finished(members, pairs, director):
    tournament, _entries = make_event(members, pairs, sessions=2, sections=1, tables=4, rounds=3)
    first = tournament.sessions.get(number=1)
    setup.start_session(first)
    with pytest.raises(TournamentError):
        session_seating.plan_seating(tournament.sessions.get(number=2), "serpentine")
    play_rounds(first.sections.get(), random.Random(3), rounds=1)  # one round only
    setup.finish_session(first)
    with pytest.raises(TournamentError) as refused:
        session_seating.plan_seating(tournament.sessions.get(number=2), "serpentine")
    assert refused.value.message
    assert _nothing_seated(tournament)


def test_refused_when_the_method_cannot_take_the_field(members, pairs, director):
    # one section: no pools to rotate
    tournament, entries = make_event(members, pairs, sessions=3, sections=1, tables=3)
    play(tournament.sessions.get(number=1))
    with pytest.raises(TournamentError):
        session_seating.plan_seating(tournament.sessions.get(number=2), "pools")
    # six pairs are too few for a serpentine
    with pytest.raises(TournamentError):
        session_seating.plan_seating(tournament.sessions.get(number=2), "serpentine")
    # a late pair and no free place to keep the seating
    registration.register_entry(tournament, members[40:42])
    with pytest.raises(TournamentError):
        session_seating.plan_seating(tournament.sessions.get(number=2), "same")
    with pytest.raises(TournamentError):
        session_seating.plan_seating(tournament.sessions.get(number=1), "same")
    assert _nothing_seated(tournament)


def test_rotation_refused_when_two_lines_would_differ_by_two(members, pairs, director):
    tournament, entries = make_event(members, pairs, sessions=2, sections=2, tables=3)
    play(tournament.sessions.get(number=1))
    # two pairs of group 1 (NS-A) leave: in session 2 NS-A has 1 pair against 3 of group 4
    for e in entries[:2]:
        registration.withdraw_entry(e, user=director, reason="se van")
    with pytest.raises(TournamentError):
        session_seating.plan_seating(tournament.sessions.get(number=2), "pools")
    assert _nothing_seated(tournament)


def test_a_started_session_is_not_seated_again(members, pairs, director):
    tournament, _entries = make_event(members, pairs, sessions=2, sections=1, tables=4)
    play(tournament.sessions.get(number=1))
    session = tournament.sessions.get(number=2)
    seat(session, "serpentine", director)
    before = places(session)
    setup.start_session(session)
    with pytest.raises(TournamentError):
        session_seating.plan_seating(session, "same")
    assert places(session) == before


def test_seating_again_before_the_start_replaces_the_previous_plan(members, pairs, director):
    tournament, _entries = make_event(members, pairs, sessions=2, sections=2, tables=3)
    play(tournament.sessions.get(number=1))
    session = tournament.sessions.get(number=2)
    seat(session, "serpentine", director)
    assert list(session.sections.values_list("letter", flat=True)) == ["A"]
    seat(session, "pools", director)
    assert sorted(session.sections.values_list("letter", flat=True)) == ["A", "B"]
    assert Seating.objects.filter(session=session).count() == 12


def test_totals_across_sessions_seated_from_the_previous_one(members, pairs, director):
    """Each entry keeps its identity across sessions though its number and line change, so
    the tournament ranking adds both sessions (equal boards: the mean of the two)."""
    tournament, entries = make_event(
        members, pairs, sessions=2, sections=1, tables=5, rounds=5, boards=2
    )
    play(tournament.sessions.get(number=1), seed=11)
    second = tournament.sessions.get(number=2)
    seat(second, "serpentine", director)
    play(second, seed=12)
    per_session = {}
    for row in StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.SECTION):
        per_session.setdefault(row.entry_id, {})[row.session.number] = row.percentage
    event = list(
        StoredRanking.objects.filter(tournament=tournament, scope=RankingScope.EVENT).order_by(
            "place"
        )
    )
    assert len(event) == 10 and {r.entry_id for r in event} == {e.pk for e in entries}
    moved = sum(
        1
        for e in entries
        if places(tournament.sessions.get(number=1))[e.pk] != places(second)[e.pk]
    )
    assert moved > 0
    for row in event:
        both = per_session[row.entry_id]
        assert set(both) == {1, 2}
        assert abs(row.percentage - (both[1] + both[2]) / 2) <= Decimal("0.01")
    assert [r.percentage for r in event] == sorted((r.percentage for r in event), reverse=True)
    assert all(e.status == EntryStatus.ACTIVE for e in entries)
