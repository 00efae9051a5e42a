"""Property tests: invariants that must hold for any board, plus an independent Law 77 table."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scoring import (
    ScoringError,
    base_matchpoints,
    contract_score,
    cross_imp_sums,
    cross_imps,
    imps,
    matchpoints,
    matchpoints_exact,
    score_board,
    victory_points,
)
from tournaments.scoring.imps import IMP_THRESHOLDS, imps_against

scores = st.integers(min_value=-76, max_value=298).map(lambda v: v * 10)
boards = st.lists(scores, min_size=1, max_size=30)
# Examples and seed from the suite's profile (tests/conftest.py: "ci" or "nightly").
PROFILE = settings()


@PROFILE
@given(boards, st.integers(min_value=0, max_value=6))
def test_matchpoints_sum_and_complement(board: list[int], missing: int) -> None:
    expected = len(board) + missing
    top = 2 * (expected - 1)
    ns = matchpoints_exact(board, expected)
    # Neuberg keeps the board average: Σ over the n real results = n·top/2.
    assert sum(ns) == Fraction(top * len(board), 2)
    entries = [*board, *([None] * missing)]
    for line in score_board(entries, expected).lines[: len(board)]:
        assert line.ns + line.ew == top


@PROFILE
@given(boards, st.integers(min_value=0, max_value=4))
def test_matchpoints_monotone_and_float_matches_exact(board: list[int], missing: int) -> None:
    expected = len(board) + missing
    exact = matchpoints_exact(board, expected)
    floats = matchpoints(board, expected)
    for i, a in enumerate(board):
        assert abs(floats[i] - float(exact[i])) < 1e-9
        for j, b in enumerate(board):
            if a < b:
                assert exact[i] < exact[j]
            elif a == b:
                assert exact[i] == exact[j]


@PROFILE
@given(boards)
def test_matchpoints_equal_pairwise_definition(board: list[int]) -> None:
    naive = [sum(2 if o < s else 1 if o == s else 0 for o in board) - 1 for s in board]
    assert matchpoints(board) == [float(v) for v in naive]


# Few distinct values so that ties are common; whole points take matchpoints' fast path,
# Fractions and floats (alone or mixed in) the general one.
tied_scores = st.integers(min_value=-3, max_value=3).map(lambda v: v * 10)
any_scores = (
    tied_scores
    | st.fractions(min_value=-30, max_value=30, max_denominator=4)
    | st.floats(min_value=-30, max_value=30, allow_nan=False)
)


@PROFILE
@given(
    st.lists(tied_scores, min_size=1, max_size=20) | st.lists(any_scores, min_size=1, max_size=20),
    st.integers(min_value=0, max_value=5),
)
def test_matchpoints_equal_pairwise_definition_with_neuberg(
    board: list[int | float | Fraction], missing: int
) -> None:
    n = len(board)
    expected = n + missing
    base = [
        sum(2 if o < s else 1 if o == s else 0 for j, o in enumerate(board) if j != i)
        for i, s in enumerate(board)
    ]
    assert base_matchpoints(board) == base
    assert matchpoints_exact(board, expected) == [
        Fraction(expected * (mp + 1), n) - 1 for mp in base
    ]
    # The floats promised by matchpoints(): (N·(mp + 1) − n)/n, one rounding, with or without
    # ``expected``.
    floats = [(expected * (mp + 1) - n) / n for mp in base]
    assert matchpoints(board, expected) == floats
    if not missing:
        assert matchpoints(board) == floats


@pytest.mark.parametrize(
    ("board", "expected"),
    [
        ([420, True, 450], None),
        ([420, "450"], None),
        ([420, None], 3),
        ([1, 2, 3], 2),
        ([1, 2, 3], True),
        ([1, 2, 3], 0),
        ([1, 2, 3], 3.0),
        ([], 0),
    ],
)
def test_matchpoints_fast_path_keeps_the_checks(board: list[object], expected: object) -> None:
    with pytest.raises(ScoringError):
        matchpoints(board, expected)  # type: ignore[arg-type]


@PROFILE
@given(st.integers(min_value=-8000, max_value=8000) | st.fractions(min_value=-8000, max_value=8000))
def test_imps_antisymmetric_and_monotone(d: int | Fraction) -> None:
    assert imps(-d) == -imps(d)
    assert imps(d + 10) >= imps(d)
    assert 0 <= abs(imps(d)) <= 24


@PROFILE
@given(
    st.lists(st.integers(min_value=-9000, max_value=9000), max_size=8),
    st.integers(min_value=-9000 * 13, max_value=9000 * 13),
    st.integers(min_value=1, max_value=13),
)
def test_imps_against_a_fractional_datum_equal_the_fraction_s_imps(
    board: list[int], numerator: int, denominator: int
) -> None:
    # Near the datum as well as far from it (and beyond the lookup table's span).
    board = [*board, numerator // denominator, numerator // denominator + 1]
    datum = Fraction(numerator, denominator)
    assert imps_against(board, numerator, denominator) == [imps(s - datum) for s in board]


@PROFILE
@given(boards)
def test_cross_imps_match_naive_and_sum_to_zero(board: list[int]) -> None:
    naive = [sum(imps(s - o) for j, o in enumerate(board) if j != i) for i, s in enumerate(board)]
    assert cross_imp_sums(board) == naive
    assert sum(cross_imp_sums(board)) == 0
    if len(board) > 1:
        assert abs(sum(cross_imps(board))) < 1e-6


@PROFILE
@given(st.integers(min_value=-120, max_value=120), st.integers(min_value=1, max_value=64))
def test_wbf_vps_sum_to_20_and_are_monotone(margin: int, n_boards: int) -> None:
    w, loser = victory_points(margin, n_boards, "wbf20")
    assert w + loser == 20 and 10 <= w <= 20
    assert victory_points(abs(margin) + 1, n_boards)[0] >= w
    dw, dl = victory_points(margin, n_boards, "wbf20-discrete")
    assert dw + dl == 20 and dw == int(dw)


def _independent_law77(level: int, strain: str, doubled: int, vul: bool, tricks: int) -> int:
    """Law 77 read table by table (L17 l.2994-3077), one trick at a time — a different path."""
    need = level + 6
    mult = (1, 2, 4)[doubled]
    if tricks < need:
        total = 0
        for k in range(1, need - tricks + 1):
            if doubled == 0:
                total += 100 if vul else 50
            elif k == 1:
                total += (200 if vul else 100) * doubled
            else:
                total += (300 if vul else 200) * doubled
                if k >= 4 and not vul:
                    total += 100 * doubled  # "Bonus por la cuarta baza (y siguientes)"
        return -total
    per = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}[strain]
    trick_points = 0
    for k in range(1, level + 1):
        trick_points += (40 if strain == "NT" and k == 1 else per) * mult
    bonus = (500 if vul else 300) if trick_points >= 100 else 50
    slam = {6: 750 if vul else 500, 7: 1500 if vul else 1000}.get(level, 0)
    insult = {0: 0, 1: 50, 2: 100}[doubled]
    extra = tricks - need
    over = extra * (per if doubled == 0 else {1: 100, 2: 200}[doubled] * (2 if vul else 1))
    return trick_points + bonus + slam + insult + over


def test_contract_scores_all_2940_cases() -> None:
    """Every level 1-7 × strain × X/XX × vulnerability × tricks 0-13 (7·5·3·2·14)."""
    seen = 0
    for level in range(1, 8):
        for strain in ("C", "D", "H", "S", "NT"):
            for doubled in (0, 1, 2):
                for vul in (False, True):
                    for tricks in range(14):
                        notation = f"{level}{strain}{'X' * doubled}"
                        got = contract_score(notation, tricks, vul)
                        assert got == _independent_law77(level, strain, doubled, vul, tricks), (
                            notation,
                            vul,
                            tricks,
                        )
                        assert got % 10 == 0 and -7600 <= got <= 3160
                        seen += 1
    assert seen == 7 * 5 * 3 * 2 * 14


def test_global_bounds_spec_error() -> None:
    """scoring-spec §2.4 gives +2980 (7NTXX= vul) as the maximum: wrong.

    1NTXX+6 vulnerable is 160 + 500 + 100 + 6×400 = 3160 (L17 l.3035-3049); the minimum −7600 is right.
    """
    assert contract_score("7NTXX", 13, True) == 2980
    assert contract_score("1NTXX", 13, True) == 3160
    assert (
        max(contract_score(f"{lv}{st}XX", 13, True) for lv in range(1, 8) for st in "CDHS") < 3160
    )


def test_imp_thresholds_strictly_increasing() -> None:
    assert list(IMP_THRESHOLDS) == sorted(set(IMP_THRESHOLDS)) and len(IMP_THRESHOLDS) == 24
