"""Matchpoint worked examples of the 2003 AEB course (curso-arbitros-2003.txt, "C03")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tournaments.scoring import (
    Artificial,
    NotPlayed,
    Real,
    Role,
    ScoringError,
    Split,
    Weighted,
    fouled_group_percentages,
    matchpoints,
    matchpoints_exact,
    procedural_penalty,
    score_board,
    top_for,
    value_against,
)

# C03 l.515-543: the two travellers of board 1, pools Roja and Verde (E-O column = negative).
ROJA = [420, 450, 500, 0, 420, -50, -100, 550, -110, 420, 450]
VERDE = [430, 420, 420, 550, -100, -100, -100, -50, 420, 450, 480]
# C03 l.548-558: result → (frequency, NS mark, EW mark).
FREQUENCY_TABLE = {
    550: (2, 41, 1),
    500: (1, 38, 4),
    480: (1, 36, 6),
    450: (3, 32, 10),
    430: (1, 28, 14),
    420: (6, 21, 21),
    0: (1, 14, 28),
    -50: (2, 11, 31),
    -100: (4, 5, 37),
    -110: (1, 0, 42),
}


def test_course_frequency_table() -> None:
    """C03 l.545-567, two pools of 11 tables, 22 results, top 42.

    Source error (C03 l.560): "El top en este caso es 42 = (11 × 2) − 2"; 11×2−2 is 20.
    The top is 42 = 22×2 − 2 (22 results), which is what the table uses.
    """
    scores = ROJA + VERDE
    assert top_for(len(scores)) == 42 != 11 * 2 - 2
    ns = matchpoints(scores)
    for score, mark in zip(scores, ns, strict=True):
        freq, ns_mark, ew_mark = FREQUENCY_TABLE[score]
        assert mark == ns_mark
        assert 42 - mark == ew_mark
    assert {s: scores.count(s) for s in scores} == {s: v[0] for s, v in FREQUENCY_TABLE.items()}


def test_course_mark_explanations() -> None:
    """C03 l.564-567: +500 = 19 lower ×2 = 38; Paso = 7×2 = 14; +420 = 8×2+5 = 21; +450 = 15×2+2 = 32."""
    marks = dict(zip(ROJA + VERDE, matchpoints_exact(ROJA + VERDE), strict=True))
    assert (marks[500], marks[0], marks[420], marks[450]) == (38, 14, 21, 32)


def test_course_board_check_sum() -> None:
    """C03 l.487: Σ NS marks on a board = board average × theoretical results (21 × 22)."""
    assert sum(matchpoints_exact(ROJA + VERDE)) == 21 * 22


def test_course_top_average_example() -> None:
    """C03 l.495-505: 2 pools of 7 and 7½ tables, 28 boards, 14 results per board.

    top 26, board average 13, pair average 26×28/2 = 364. Source error (C03 l.505):
    it says the NS marks of a board sum to 364; they sum to 13 × 14 = 182 (364 is NS+EW).
    """
    top = top_for(14)
    assert (top, top // 2, top * 28 // 2) == (26, 13, 364)
    board = list(range(0, 1400, 100))  # any 14 distinct results
    ns = matchpoints_exact(board)
    assert sum(ns) == 182 != 364
    assert sum(ns) + sum(top - m for m in ns) == 364


# C03 l.620-648: Roja 11-10 at the relay (RELE), Verde 3-5 averaged 60-40.
ROJA_N = [420, None, 500, 0, 420, -50, -100, 550, -110, 420, 450]
VERDE_N = [430, 420, 420, 550, -100, -100, -100, -50, 420, "avg", 480]
PRELIM = {550: 37, 500: 34, 480: 32, 450: 30, 430: 28, 420: 21, 0: 14, -50: 11, -100: 5, -110: 0}
NEUBERG_SHOWN = {
    550: "40.8",
    500: "37.5",
    480: "35.3",
    450: "33.1",
    430: "30.9",
    420: "23.2",
    0: "15.5",
    -50: "12.2",
    -100: "5.6",
    -110: "0.1",
}


def test_course_neuberg_example() -> None:
    """C03 l.650-690: preliminary marks among the 20 real results, then MP = 22/20·(mp+1) − 1.

    The course's one-decimal figures are exact here (1.1 × integer − 1).
    EW = 42 − NS (derived; the course leaves the EW column blank).
    """
    real = [s for s in ROJA_N + VERDE_N if isinstance(s, int)]
    assert len(real) == 20
    prelim = dict(zip(real, matchpoints_exact(real), strict=True))
    assert prelim == PRELIM
    factored = dict(zip(real, matchpoints_exact(real, expected=22), strict=True))
    for score, shown in NEUBERG_SHOWN.items():
        assert factored[score] == Fraction(shown)
        assert 42 - factored[score] == 42 - Fraction(shown)
    # C03 l.673/675 computed explicitly:
    assert factored[550] == Fraction(22, 20) * (37 + 1) - 1
    assert factored[500] == Fraction(22, 20) * (34 + 1) - 1


def test_course_neuberg_via_board_entries() -> None:
    """Same board through score_board: relay = NotPlayed, 60-40 = Artificial (C03 l.624, 647)."""
    entries: list[object] = []
    for s in ROJA_N + VERDE_N:
        entries.append(NotPlayed() if s is None else Artificial(60, 40) if s == "avg" else s)
    board = score_board(entries)
    assert board.top == 42
    avg = board.lines[ROJA_N.index(None)]
    assert (avg.ns, avg.ew) == (None, None)
    art = board.lines[11 + VERDE_N.index("avg")]
    assert (art.ns, art.ew) == (Fraction(42 * 60, 100), Fraction(42 * 40, 100))
    assert board.lines[7].ns == Fraction("40.8")  # Roja 5-9, +550
    assert board.lines[7].ew == Fraction("1.2")


def test_neuberg_unchanged_when_complete() -> None:
    """C03 l.694: with no averages Neuberg leaves the marks unchanged."""
    scores = ROJA + VERDE
    assert matchpoints_exact(scores, expected=22) == matchpoints_exact(scores)


def test_expected_below_results_is_an_error() -> None:
    with pytest.raises(ScoringError, match="expected=2"):
        matchpoints([1, 2, 3], expected=2)


def test_artificial_percentages_of_top() -> None:
    """C03 l.586: a 10% penalty = top/10; a 55-40 = +5% / −10% of the top around the average."""
    top = 42
    assert procedural_penalty(top, Fraction(1, 10)) == Fraction(42, 10)
    board = score_board([420, 450, 500, 0, Artificial(55, 40)], expected=5)
    assert board.top == 8
    assert board.lines[4].ns == 4 + Fraction(5, 100) * 8
    assert board.lines[4].ew == 4 - Fraction(10, 100) * 8


@pytest.mark.parametrize(("ns", "ew"), [(60, 40), (50, 50), (60, 50), (40, 40), (55, 40), (60, 60)])
def test_artificial_pairs_need_not_sum_100(ns: int, ew: int) -> None:
    """C03 l.959: "los porcentajes no tienen por qué sumar 100"; L17 12C2."""
    line = score_board([100, 200, Artificial(ns, ew)]).lines[2]
    assert (line.ns, line.ew) == (Fraction(ns * 4, 100), Fraction(ew * 4, 100))


def test_artificial_role_defaults() -> None:
    """L17 l.574-580 (12C2a): media mínima ≤40%, media 50%, media máxima ≥60%."""
    line = score_board([10, 20, Artificial(Role.NON_OFFENDER, Role.OFFENDER)]).lines[2]
    assert (line.ns, line.ew) == (Fraction(60 * 4, 100), Fraction(40 * 4, 100))
    assert line.ns_deferred is Role.NON_OFFENDER


@pytest.mark.parametrize("bad", [101, -1, "60"])
def test_artificial_rejects_bad_percent(bad: object) -> None:
    with pytest.raises(ScoringError, match="ns_percent"):
        Artificial(bad, 40)  # type: ignore[arg-type]


def test_split_score_uses_table_value_when_present() -> None:
    """C03 l.696: split table scored as an average; each side takes its result's table value."""
    real = [420, 450, 500, 0, -50]
    board = score_board([*real, Split(450, 420)])
    table = dict(zip(real, matchpoints_exact(real, expected=6), strict=True))
    split = board.lines[5]
    assert split.ns == table[450]
    assert split.ew == board.top - table[420]
    # NS + EW of a split line differs from the top: each side has its own score.
    assert split.ns + split.ew != board.top


def test_split_score_absent_from_table_is_inserted() -> None:
    """C03 l.696: "calcular una nueva tabla ... dejando los demás como si fuera un promedio"."""
    real = [420, 450, 500, 0, -50]
    line = score_board([*real, Split(460, 400)]).lines[5]
    # 460 beats 420, 450, 0, -50 (4 lower): mp 8 among n'=6 results, N=6 → unchanged.
    assert line.ns == value_against(460, real, 6) == 8
    assert line.ew == 10 - value_against(400, real, 6)


def test_weighted_score_law_12c1c() -> None:
    """L17 l.557 (12C1c): weighted assigned score, e.g. 30% of 4♠= (420) and 70% of 4♠−1 (−50)."""
    real = [420, 450, -50, 170, 140]
    board = score_board([*real, Weighted.percent((30, 420), (70, -50))])
    table = dict(zip(real, matchpoints_exact(real, expected=6), strict=True))
    line = board.lines[5]
    assert line.ns == Fraction(3, 10) * table[420] + Fraction(7, 10) * table[-50]
    assert line.ew == board.top - line.ns
    with pytest.raises(ScoringError, match="outcomes"):
        Weighted(((Fraction(1, 2), 420), (Fraction(1, 3), -50)))


def test_fouled_small_groups_fixed_percentages() -> None:
    """C03 l.706-721: groups under four results: 60; 65/55 (60/60 if equal); 70/60/50; ties share."""
    assert fouled_group_percentages([420]) == [(60, 60)]
    assert fouled_group_percentages([420, 450]) == [(55, 65), (65, 55)]
    assert fouled_group_percentages([420, 420]) == [(60, 60), (60, 60)]
    assert fouled_group_percentages([100, 400, 200]) == [(50, 70), (70, 50), (60, 60)]
    # two best tied in a group of 3: (70+60)/2 = 65 each (spec §4.8 example)
    assert fouled_group_percentages([400, 400, 200]) == [(65, 55), (65, 55), (50, 70)]
    for group in ([1], [5, 6], [1, 2, 3], [3, 3, 1], [2, 2, 2]):
        assert all(ns + ew == 120 for ns, ew in fouled_group_percentages(group))  # C03 l.721


def test_fouled_board_groups_on_a_board() -> None:
    """C03 l.704-725 and Art. 87 (l.1980): ≥4 results → Neuberg "mini pool", others fixed %."""
    main = [420, 450, 420, 400, 430, -50]
    fouled = [Real(100, group="B"), Real(200, group="B")]
    board = score_board([*main, *fouled])
    assert board.top == 14  # N = 8 theoretical results for every group
    expected_main = matchpoints_exact(main, expected=8)
    assert [line.ns for line in board.lines[:6]] == expected_main
    assert (board.lines[6].ns, board.lines[6].ew) == (
        Fraction(55 * 14, 100),
        Fraction(65 * 14, 100),
    )
    assert (board.lines[7].ns, board.lines[7].ew) == (
        Fraction(65 * 14, 100),
        Fraction(55 * 14, 100),
    )


def test_pool_difference_neuberg_per_pool() -> None:
    """C03 l.740: pools that played a different deal are averages for each other; N unchanged."""
    red = [Real(s, group="red") for s in ROJA]
    green = [Real(s, group="green") for s in VERDE]
    board = score_board([*red, *green])
    assert board.top == 42
    assert [line.ns for line in board.lines[:11]] == matchpoints_exact(ROJA, expected=22)
    assert [line.ns for line in board.lines[11:]] == matchpoints_exact(VERDE, expected=22)
