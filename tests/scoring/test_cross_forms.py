"""The ways scorers write a cross-IMP mark, a Butler datum and IMPs a director awarded.

An imported file may hold the sum of a result's IMPs against every other result instead of
their average, that sum factored up to the board played most often, each mark rounded before
totalling, and artificial scores in the IMPs the director gave: the core scores each of these
when asked and keeps the course's average otherwise. Figures are recomputed here pair by pair
(Law 78B table through ``imps``), not read back from the core.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scoring import (
    Artificial,
    ArtificialImps,
    Role,
    ScoringError,
    butler_datum,
    imps,
    score_imp_pairs_board,
)
from tournaments.scoring.butler import cross_scale

PROFILE = settings()
scores = st.integers(min_value=-76, max_value=298).map(lambda v: v * 10)
boards = st.lists(scores, min_size=2, max_size=12)


def _sums(board: list[int]) -> list[int]:
    return [sum(imps(s - o) for j, o in enumerate(board) if j != i) for i, s in enumerate(board)]


@PROFILE
@given(boards)
def test_the_sum_form_is_the_total_of_the_imps_against_every_other_result(board):
    marks = score_imp_pairs_board(board, "cross", cross="sum")
    assert [m.ns for m in marks] == _sums(board)
    assert all(m.ew == -m.ns for m in marks)


@PROFILE
@given(boards, st.integers(min_value=0, max_value=6))
def test_the_factored_form_scales_the_sum_to_the_fullest_board(board, missing):
    most = len(board) + missing
    marks = score_imp_pairs_board(board, "cross", cross="factored", field=most)
    expected = [Fraction(s * (most - 1), len(board) - 1) for s in _sums(board)]
    assert [m.ns for m in marks] == expected
    if missing == 0:  # a board played as often as any: the plain sum
        assert marks == score_imp_pairs_board(board, "cross", cross="sum")


@PROFILE
@given(boards, st.sampled_from([0, 1, 2]), st.sampled_from(["average", "sum"]))
def test_a_rounded_mark_is_the_exact_one_to_its_decimals_halves_away_from_zero(board, places, form):
    exact = score_imp_pairs_board(board, "cross", cross=form)
    rounded = score_imp_pairs_board(board, "cross", cross=form, places=places)
    for e, r in zip(exact, rounded, strict=True):
        step = Fraction(1, 10**places)
        assert (r.ns / step).denominator == 1
        assert abs(r.ns - e.ns) <= step / 2
        if abs(r.ns - e.ns) == step / 2:  # a half goes away from zero
            assert abs(r.ns) > abs(e.ns)
        assert r.ew == -r.ns
        q = Decimal(e.ns.numerator) / Decimal(e.ns.denominator)
        assert r.ns == Fraction(q.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))


@PROFILE
@given(
    boards,
    st.integers(min_value=-6, max_value=6),
    st.integers(min_value=-6, max_value=6),
    st.sampled_from(["average", "sum", "factored"]),
    st.sampled_from([None, 1]),
)
def test_an_award_in_imps_is_kept_as_given_and_stays_out_of_the_comparisons(
    board, ns, ew, form, places
):
    with_award = score_imp_pairs_board(
        [*board, ArtificialImps(Fraction(ns), Fraction(ew))],
        "cross",
        cross=form,
        field=len(board),
        places=places,
    )
    assert (with_award[-1].ns, with_award[-1].ew) == (ns, ew)
    assert with_award[:-1] == score_imp_pairs_board(
        board, "cross", cross=form, field=len(board), places=places
    )
    butler = score_imp_pairs_board([*board, ArtificialImps(Fraction(ns), Fraction(ew))])
    assert (butler[-1].ns, butler[-1].ew) == (ns, ew)
    assert butler[:-1] == score_imp_pairs_board(board)


def test_an_artificial_score_by_role_keeps_the_aeb_imps_in_every_form():
    board = [420, 450, -50, 620]
    for form in ("average", "sum", "factored"):
        marks = score_imp_pairs_board(
            [*board, Artificial(Role.NON_OFFENDER, Role.OFFENDER)], "cross", cross=form, field=6
        )
        assert (marks[-1].ns, marks[-1].ew) == (2, -2)


def test_an_unknown_form_is_refused():
    with pytest.raises(ScoringError):
        cross_scale("median", 5, 5)  # type: ignore[arg-type]
    with pytest.raises(ScoringError):
        score_imp_pairs_board([420, 450], "cross", cross="median")  # type: ignore[arg-type]


@PROFILE
@given(st.lists(scores, min_size=1, max_size=14))
def test_the_trim2_datum_drops_two_top_and_two_bottom_results_from_five_up(board):
    """Another scorer's Butler datum for larger fields (the course drops one of each)."""
    ordered = sorted(board)
    drop = 2 if len(board) >= 5 else 1 if len(board) >= 3 else 0
    kept = ordered[drop : len(ordered) - drop]
    assert butler_datum(board, "trim2") == Fraction(sum(kept), len(kept))
    if len(board) in (3, 4):
        assert butler_datum(board, "trim2") == butler_datum(board, "course")
