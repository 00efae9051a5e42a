"""An individual board with fewer results than expected brought up to the top by Neuberg's
formula, the plain ratio or an average for each missing result (an imported file's convention), credited to both partners."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.scoring import IndividualBoard, IndividualLine, score_individual_session

# three results where four were expected: the top line beats two, 4 of its own top 4
BOARD = IndividualBoard(
    1,
    (
        IndividualLine(1, 2, 3, 4, 100),
        IndividualLine(5, 6, 7, 8, 50),
        IndividualLine(9, 10, 11, 12, -50),
    ),
)


@pytest.mark.parametrize(
    ("factoring", "north"),
    [
        ("neuberg", Fraction(4 * 5, 3) - 1),  # N (mp + 1) / n − 1 on the top 6
        ("ratio", Fraction(4 * 3, 2)),  # mp × (N − 1) / (n − 1)
        ("average", Fraction(4 + 1)),  # mp + (N − n): the missing result an average comparison
    ],
)
def test_a_short_board_is_factored_as_the_file_was(factoring, north):
    scored = score_individual_session([BOARD], expected=4, factoring=factoring)
    marks = {m.pair: m.mark for m in scored.marks}
    assert scored.top == 6
    assert marks[1] == marks[2] == north
    assert marks[3] == marks[4] == 6 - north
