"""A kept ``SessionTally`` gives what scoring the session from scratch gives, whatever boards
are put again, dropped or penalised in between (the classification keeps one per pool and
puts back only the boards a correction touched)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scoring import (
    Artificial,
    BoardResult,
    NotPlayed,
    Penalty,
    Role,
    ScoringError,
    SessionTally,
    Split,
    TravellerLine,
    Unplayed,
    score_session,
    session_score,
)

PAIRS = 8
EXPECTED = 6
PROFILE = settings()

scores = st.integers(min_value=-76, max_value=298).map(lambda v: v * 10)
adjusted = st.sampled_from(
    [
        Artificial(Role.NON_OFFENDER, Role.OFFENDER),
        Artificial(Role.OFFENDER, Role.NON_OFFENDER),
        Artificial(Role.NON_OFFENDER, Role.NON_OFFENDER, True),
        Artificial(Role.PARTLY_AT_FAULT, Role.PARTLY_AT_FAULT),
        Artificial(Fraction(60), Fraction(40)),
        NotPlayed(Unplayed.PLAYER_FAULT),
        NotPlayed(Unplayed.ORGANISATION),
        Split(420, -50),
    ]
)


@st.composite
def board(draw, number: int) -> BoardResult:
    """Up to ``EXPECTED`` lines of distinct pairs; some adjusted, some a relay."""
    pairs = draw(st.permutations(range(1, PAIRS + 1)))
    count = draw(st.integers(min_value=1, max_value=min(EXPECTED, PAIRS // 2)))
    lines = []
    for i in range(count):
        ns, ew = pairs[2 * i], pairs[2 * i + 1]
        kind = draw(st.sampled_from(["real", "real", "real", "adjusted", "relay"]))
        if kind == "relay":
            lines.append(TravellerLine(ns, None, NotPlayed(Unplayed.RELAY)))
        else:
            entry = draw(scores) if kind == "real" else draw(adjusted)
            lines.append(TravellerLine(ns, ew, entry))
    return BoardResult(number, tuple(lines))


BOARDS = st.integers(min_value=1, max_value=6)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("put"), BOARDS).flatmap(lambda t: st.tuples(st.just(t), board(t[1]))),
        st.tuples(st.tuples(st.just("drop"), BOARDS), st.none()),
        st.tuples(
            st.tuples(st.just("penalty"), st.integers(min_value=1, max_value=PAIRS)),
            st.sampled_from([Fraction(0), Fraction(1, 4), Fraction(1, 2)]),
        ),
    ),
    min_size=1,
    max_size=8,
)


def fresh(boards: dict[int, BoardResult], penalties: dict[int, Fraction], per_pair):
    return score_session(
        [boards[n] for n in sorted(boards)],
        expected=EXPECTED,
        boards_per_pair=per_pair,
        penalties=[Penalty(p, f) for p, f in penalties.items() if f],
    )


@PROFILE
@given(
    st.lists(BOARDS, min_size=1, max_size=6, unique=True).flatmap(
        lambda numbers: st.tuples(*(board(n) for n in sorted(numbers)))
    ),
    STEPS,
    st.sampled_from([None, 12]),
)
def test_a_kept_tally_scores_as_a_fresh_one(first, steps, per_pair) -> None:
    boards = {b.board: b for b in first}
    penalties: dict[int, Fraction] = {}
    tally = SessionTally(expected=EXPECTED, boards_per_pair=per_pair)
    for b in first:
        tally.put_board(b.board, b)
    tally.settle()
    for (kind, arg), value in steps:
        if kind == "put":
            boards[arg] = value
            tally.put_board(arg, value)
        elif kind == "drop":
            boards.pop(arg, None)
            tally.drop_board(arg)
        else:
            penalties[arg] = value
        before = {p: (tally.totals[p], tally.final_marks(p)) for p in tally.totals}
        tally.set_penalties((p, f) for p, f in penalties.items() if f)
        try:
            expected = fresh(boards, penalties, per_pair)
        except ScoringError:
            with pytest.raises(ScoringError):
                tally.settle()
            return
        changed = tally.settle()
        got = session_score(tally)
        assert got.totals == expected.totals
        assert list(got.totals) == list(expected.totals)
        assert got.marks == expected.marks
        assert got.boards_per_pair == expected.boards_per_pair
        # every pair whose total or marks moved is reported, with the boards that moved
        for pair in expected.totals.keys() | before.keys():
            total, marks = before.get(pair, (None, ()))
            if total != expected.totals.get(pair):
                assert pair in changed
            was = {pb.board: pb for pb in marks}
            now = {pb.board: pb for pb in tally.final_marks(pair)}
            moved = {b for b in was.keys() | now.keys() if was.get(b) != now.get(b)}
            assert moved <= changed.get(pair, set())


@PROFILE
@given(
    st.fractions(min_value=-1000, max_value=1000, max_denominator=10**6)
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.decimals(min_value=-1000, max_value=1000, places=4),
    st.integers(min_value=0, max_value=3),
)
def test_display_rounding_in_integers_is_the_decimal_one(value, places) -> None:
    from tournaments.scoring.ranking import _rounded_decimal, display_key, display_round

    by_decimal = _rounded_decimal(value, places)
    assert display_key(value, places) == int(by_decimal.scaleb(places))
    assert str(display_round(value, places)) == str(by_decimal)


@pytest.mark.parametrize(
    "value", [Fraction(1, 8), Fraction(-1, 8), Fraction(5, 1000), Fraction(-1, 1000), 0, -3]
)
def test_display_rounding_of_halves_and_zeros(value) -> None:
    from tournaments.scoring.ranking import _rounded_decimal, display_round

    for places in (0, 1, 2):
        assert str(display_round(value, places)) == str(_rounded_decimal(value, places))
