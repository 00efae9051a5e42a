"""Benchmark the scoring core: matchpoints (Neuberg), IMPs (Butler) and cross-IMPs.

Run from the repository root: ``python bench/bench_scoring.py``. It scores 10,000 and
100,000 random board results, prints results per second, and shows that time grows no
worse than n·log n: (a) across total results at a fixed board size, and (b) per board as
the board size k grows (cross-IMPs use sorted bisection, O(k log k), not O(k²)).

The machine is shared and its speed moves from day to day, so matchpoints are also held
against a baseline timed in the same run: a plain double loop over each board's scores, as a
newcomer would write Law 78A. Exit status 1 when matchpoints are under 2× that loop, when
Butler or cross-IMPs score under 1,000,000 results/s at 13 a board, or a growth check fails.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.scoring import (  # noqa: E402
    butler_imps,
    cross_imps,
    matchpoints,
    score_imp_pairs_board,
)

RESULTS_PER_BOARD = 13
TARGET_MP_PER_SECOND = 200_000
TARGET_IMP_PER_SECOND = 500_000  # Butler and cross-IMPs, on the classification's path too
TARGET_IMP_CLUB_PER_SECOND = 1_000_000  # Butler and cross-IMPs alone, 13 results a board
TARGET_MP_OVER_PLAIN = 2.0  # matchpoints against the plain double loop, same run


def make_boards(total: int, per_board: int, seed: int = 2003) -> list[tuple[list[int], int]]:
    """Random boards; every third board lacks one or two results so Neuberg applies."""
    rng = random.Random(seed)
    boards: list[tuple[list[int], int]] = []
    made = 0
    while made < total:
        missing = (len(boards) % 3 == 0) * rng.randint(1, 2)
        k = min(per_board - missing, total - made)
        base = rng.choice((110, 140, 420, 620, -100, -50, 400, 1430))
        scores = [base + 10 * rng.randint(-60, 60) for _ in range(k)]
        boards.append((scores, max(per_board, k)))
        made += k
    return boards


def timed(
    fn: Callable[[list[tuple[list[int], int]]], None], boards: list[tuple[list[int], int]]
) -> float:
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        fn(boards)
        best = min(best, time.perf_counter() - start)
    return best


def timed_in_turn(
    fns: tuple[Callable[[list[tuple[list[int], int]]], None], ...],
    boards: list[tuple[list[int], int]],
) -> list[float]:
    """Best of 3 of each, run in turn, in CPU seconds of this process.

    A ratio of two wall-clock figures on this shared machine was whatever the neighbours did
    in those tenths of a second (1.2× and 3.5× on the same code, minutes apart); the CPU time
    the process itself spent is what the code decides.
    """
    best = [math.inf] * len(fns)
    for _ in range(3):
        for i, fn in enumerate(fns):
            start = time.process_time()
            fn(boards)
            best[i] = min(best[i], time.process_time() - start)
    return best


def run_mp(boards: list[tuple[list[int], int]]) -> None:
    for scores, expected in boards:
        matchpoints(scores, expected)


def plain_matchpoints(scores: list[int], expected: int) -> list[float]:
    """Law 78A the plain way: compare each score with every other one, then Neuberg."""
    n = len(scores)
    marks = []
    for i, score in enumerate(scores):
        mp = 0
        for j, other in enumerate(scores):
            if i == j:
                continue
            if other < score:
                mp += 2
            elif other == score:
                mp += 1
        if expected > n:
            marks.append((expected * (mp + 1) - n) / n)
        else:
            marks.append(float(mp))
    return marks


def run_plain_mp(boards: list[tuple[list[int], int]]) -> None:
    for scores, expected in boards:
        plain_matchpoints(scores, expected)


def run_imps(boards: list[tuple[list[int], int]]) -> None:
    for scores, _ in boards:
        butler_imps(scores) if len(scores) >= 3 else None


def run_cross(boards: list[tuple[list[int], int]]) -> None:
    for scores, _ in boards:
        cross_imps(scores)


def run_board_butler(boards: list[tuple[list[int], int]]) -> None:
    """What the classification calls for a Butler session: the board's lines to marks."""
    for scores, _ in boards:
        score_imp_pairs_board(scores, "butler")


def run_board_cross(boards: list[tuple[list[int], int]]) -> None:
    for scores, _ in boards:
        score_imp_pairs_board(scores, "cross")


def main() -> int:
    kinds = (
        ("matchpoints+Neuberg", run_mp),
        ("IMPs (Butler)", run_imps),
        ("cross-IMPs", run_cross),
        ("Butler board marks", run_board_butler),
        ("cross-IMP board marks", run_board_cross),
    )
    sizes = (10_000, 100_000)
    print(f"board size k = {RESULTS_PER_BOARD} results; best of 3 runs")
    print(f"{'scoring':<22}{'results':>10}{'seconds':>10}{'results/s':>12}")
    times: dict[tuple[str, int], float] = {}
    for name, fn in kinds:
        for n in sizes:
            boards = make_boards(n, RESULTS_PER_BOARD)
            t = timed(fn, boards)
            times[(name, n)] = t
            print(f"{name:<22}{n:>10,}{t:>10.3f}{n / t:>12,.0f}")
    bound = (sizes[1] * math.log(sizes[1])) / (sizes[0] * math.log(sizes[0]))
    print(f"\ngrowth 10k → 100k results (n·log n bound = {bound:.2f}, linear = 10.00)")
    ok = True
    for name, _ in kinds:
        ratio = times[(name, sizes[1])] / times[(name, sizes[0])]
        ok &= ratio <= bound * 1.15
        print(f"  {name:<22}{ratio:>8.2f}")

    print("\nper-board growth with board size k (100,000 results in boards of k)")
    print(f"{'k':>6}{'mp µs/result':>15}{'xIMP µs/result':>16}")
    per_result: dict[int, tuple[float, float]] = {}
    for k in (16, 160, 1600):
        boards = make_boards(100_000, k)
        per_result[k] = (timed(run_mp, boards) / 1e5 * 1e6, timed(run_cross, boards) / 1e5 * 1e6)
        print(f"{k:>6}{per_result[k][0]:>15.2f}{per_result[k][1]:>16.2f}")
    k_bound = math.log(1600) / math.log(16)
    for label, idx in (("matchpoints", 0), ("cross-IMPs", 1)):
        ratio = per_result[1600][idx] / per_result[16][idx]
        ok &= ratio <= k_bound * 1.5
        print(
            f"  {label} per-result time ratio k=1600/k=16: {ratio:.2f} "
            f"(log k bound {k_bound:.2f}; O(k²) would be 100)"
        )

    rate = sizes[1] / times[("matchpoints+Neuberg", sizes[1])]
    print(f"\nmatchpoints: {rate:,.0f} results/s (target ≥ {TARGET_MP_PER_SECOND:,})")
    ok &= rate >= TARGET_MP_PER_SECOND
    # The same-run baseline: the same boards through the plain double loop, which must give
    # the same marks, timed in turn with matchpoints (each best of 3, CPU time).
    boards = make_boards(sizes[1], RESULTS_PER_BOARD)
    for scores, expected in boards:
        assert matchpoints(scores, expected) == plain_matchpoints(scores, expected)
    mp_time, plain_time = timed_in_turn((run_mp, run_plain_mp), boards)
    mp_rate, plain_rate = sizes[1] / mp_time, sizes[1] / plain_time
    print(
        f"in turn with a plain double loop, same boards, per CPU second: "
        f"matchpoints {mp_rate:,.0f}, plain loop {plain_rate:,.0f} results/s"
    )
    ratio = mp_rate / plain_rate
    print(f"matchpoints / plain loop: {ratio:.2f}× (target ≥ {TARGET_MP_OVER_PLAIN:.1f}×)")
    ok &= ratio >= TARGET_MP_OVER_PLAIN
    for name in ("IMPs (Butler)", "cross-IMPs", "Butler board marks", "cross-IMP board marks"):
        rate = sizes[1] / times[(name, sizes[1])]
        club = name in ("IMPs (Butler)", "cross-IMPs")
        target = TARGET_IMP_CLUB_PER_SECOND if club else TARGET_IMP_PER_SECOND
        print(f"{name}: {rate:,.0f} results/s (target ≥ {target:,})")
        ok &= rate >= target
    print("OK" if ok else "BELOW TARGET")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
