"""VPs per match in Butler and cross-IMP pairs (C03 l.207-208: the IMPs of the boards of a
match against each pair go through the VP scale for that number of boards)."""

from fractions import Fraction

import pytest

from tournaments.scoring import ScoringError, match_victory_points


def test_the_course_s_example_on_its_25_vp_table():
    # C03 l.142: 48-36 IMPs over 12 boards, margin 12 → 18-12.
    boards = [("a", 1, "b", Fraction(2))] * 6 + [("a", 1, "b", Fraction(0))] * 6
    boards += [("b", 1, "a", Fraction(-2))] * 6 + [("b", 1, "a", Fraction(0))] * 6
    a, b = match_victory_points(boards, "course25")
    assert (a.imps, a.boards, a.vps) == (12, 12, 18)
    assert (b.imps, b.boards, b.vps) == (-12, 12, 12)


def test_a_fractional_cross_imp_sum_is_rounded_in_the_pairs_favour_on_the_course_table():
    """The 25-VP table is for whole margins; cross-IMP and weighted marks give fractions,
    rounded half up in the side's favour as a team's weighted margin is (C03 l.827)."""
    boards = [("a", 1, "b", Fraction(23, 2))] + [("a", 1, "b", Fraction(0))] * 11
    boards += [("b", 1, "a", Fraction(-23, 2))] + [("b", 1, "a", Fraction(0))] * 11
    a, b = match_victory_points(boards, "course25")
    whole = match_victory_points(
        [("a", 1, "b", Fraction(12))]
        + [("a", 1, "b", 0)] * 11
        + [("b", 1, "a", Fraction(-11))]
        + [("b", 1, "a", 0)] * 11,
        "course25",
    )
    assert (a.imps, a.vps) == (Fraction(23, 2), whole[0].vps)  # 11.5 reads as 12
    assert (b.imps, b.vps) == (Fraction(-23, 2), whole[1].vps)  # -11.5 reads as -11


def test_wbf_continuous_scale_for_a_two_board_round():
    # X = 15·√2 = 21.213; 3·7/X = 0.98995; τ^0.98995 = 0.62103;
    # 10 + 10·(1 − 0.62103)/(1 − τ³ = 0.76393) = 14.96 (the loser's side 5.04).
    won, lost = match_victory_points(
        [
            ("a", 1, "b", Fraction(6)),
            ("a", 1, "b", Fraction(1)),
            ("b", 1, "a", Fraction(-6)),
            ("b", 1, "a", Fraction(-1)),
        ]
    )
    assert (won.vps, lost.vps) == (Fraction("14.96"), Fraction("5.04"))
    whole = match_victory_points(
        [("a", 1, "b", Fraction(6)), ("a", 1, "b", Fraction(1))], "wbf20-discrete"
    )
    assert whole[0].vps == 15


def test_butler_marks_are_not_zero_sum_so_each_pair_looks_up_its_own_imps():
    a, b = match_victory_points([("a", 1, "b", Fraction(3)), ("b", 1, "a", Fraction(3))], "wbf20")
    assert a.vps == b.vps > 10  # both beat the datum: both win their match


def test_an_unscored_board_is_not_part_of_the_match_and_a_sit_out_gets_its_own_average():
    matches = match_victory_points(
        [
            ("a", 1, "b", Fraction(7)),
            ("a", 1, "b", None),  # one board not played: 1-board match
            ("a", 2, "c", Fraction(-7)),
            ("a", 2, "c", Fraction(0)),
            ("a", 3, None, None),
            ("a", 3, None, None),  # sit-out
        ]
    )
    one, two, sitout = matches
    # one board: X = 15, 3·7/15 = 1.4, τ^1.4 = 0.50983, 10 + 10·0.49017/0.76393 = 16.42
    assert (one.boards, one.vps) == (1, Fraction("16.42"))
    assert two.vps == Fraction("5.04")
    assert (sitout.boards, sitout.imps) == (0, 0)
    assert sitout.vps == (one.vps + two.vps) / 2


def test_the_course_table_has_no_column_for_two_boards():
    with pytest.raises(ScoringError):
        match_victory_points([("a", 1, "b", Fraction(3)), ("a", 1, "b", Fraction(0))], "course25")
