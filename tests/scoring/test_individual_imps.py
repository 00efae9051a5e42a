"""IMP-scored individuals in the pure core: each side's Butler or cross-IMPs go to both
partners (C03 l.203-209 for the Butler datum; AEB ±2/0 IMPs for artificial scores)."""

from fractions import Fraction

from tournaments.scoring import (
    Artificial,
    IndividualBoard,
    IndividualLine,
    Role,
    score_individual_imps,
)

# One board, four tables; players named by seat so the credit is easy to follow.
LINES = (
    IndividualLine("n1", "s1", "e1", "w1", 420),
    IndividualLine("n2", "s2", "e2", "w2", 400),
    IndividualLine("n3", "s3", "e3", "w3", 170),
    IndividualLine("n4", "s4", "e4", "w4", -50),
)


def test_butler_course_datum_credited_to_both_partners():
    # datum without 420 and -50: (400 + 170) / 2 = 285 → 135: 4, 115: 3, -115: -3, -335: -8
    scored = score_individual_imps([IndividualBoard(1, LINES)], "butler")
    for table, ns in zip((1, 2, 3, 4), (4, 3, -3, -8), strict=True):
        assert scored.totals[f"n{table}"] == scored.totals[f"s{table}"] == ns
        assert scored.totals[f"e{table}"] == scored.totals[f"w{table}"] == -ns
    north = next(m for m in scored.marks if m.player == "s1")
    assert (north.direction, north.opponent, north.imps) == ("NS", "e1", 4)
    assert set(scored.boards.values()) == {1}


def test_cross_imps_averaged_over_the_comparisons():
    scored = score_individual_imps([IndividualBoard(1, LINES)], "cross")
    expected = {1: Fraction(17, 3), 2: Fraction(5), 3: Fraction(-2), 4: Fraction(-26, 3)}
    for table, ns in expected.items():
        assert scored.totals[f"s{table}"] == ns and scored.totals[f"w{table}"] == -ns
    assert sum(scored.totals.values()) == 0


def test_an_artificial_score_gives_each_side_the_aeb_imps_and_stays_out_of_the_datum():
    lines = (
        *LINES,
        IndividualLine("n5", "s5", "e5", "w5", Artificial(Role.NON_OFFENDER, Role.OFFENDER)),
    )
    scored = score_individual_imps([IndividualBoard(1, lines)], "butler")
    assert scored.totals["n5"] == scored.totals["s5"] == 2
    assert scored.totals["e5"] == scored.totals["w5"] == -2
    assert scored.totals["n1"] == 4  # the datum is still 285
