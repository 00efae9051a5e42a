"""Tables printed in the 2003 AEB directors' course, written out as data for the tests.

Kept apart from the generators so a test compares the product with the printed source, and
in one place so the movement and the tournament tests read the same transcription.
"""

# C03 l.327-341 (the 16-player individual's position table): per round, tables 1-4 as
# N S E O (West).
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


def course_16_rows() -> list[list[tuple[int, int, int, int]]]:
    """Round by round, the four tables' (N, S, E, W) player numbers."""
    rows = []
    for line in COURSE_16.strip().splitlines():
        numbers = [int(x) for x in line.split()]
        rows.append([tuple(numbers[4 * t : 4 * t + 4]) for t in range(4)])
    return rows
