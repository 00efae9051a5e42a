"""Law 78A matchpoints on the 2-unit scale, with Neuberg factoring.

Everything here works on NS-point-of-view scores of one comparison group.
Sorting once and reading each score's first/last position gives
``2·lower + equal`` in O(n log n) without pairwise comparisons:
``mp = first + last`` where first/last are the 0-based positions of the
score's run in the sorted list (lower = first, equal-others = last − first).

Neuberg (C03 l.602): ``MP = N/n·(mp + 1) − 1`` with N the theoretical number of
results and n the real ones. It is exact in rationals; the float version is
only used by the public ``matchpoints()`` which promises floats.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from numbers import Real
from typing import TypeGuard, TypeVar

from .errors import ScoringError
from .numeric import Exact, Number, all_whole

Score = int | Fraction
M = TypeVar("M", int, float)


def top_for(expected: int) -> int:
    """Top of a board with ``expected`` theoretical results: 2·(N − 1) (C03 l.479-481)."""
    if isinstance(expected, bool) or not isinstance(expected, int) or expected < 1:
        raise ScoringError("expected", expected, "the theoretical number of results must be >= 1")
    return 2 * (expected - 1)


def _check_expected(n: int, expected: int | None) -> int:
    if expected is None:
        return n
    top_for(expected)
    if expected < n:
        raise ScoringError(
            "expected", expected, f"a board cannot have more real results ({n}) than expected"
        )
    return expected


def _check_scores(scores: Sequence[Number]) -> None:
    for s in scores:
        if isinstance(s, bool) or not isinstance(s, Real):
            raise ScoringError("score", s, "board results are numbers (NS point of view)")


def _whole_board(scores: Sequence[Number], expected: int | None) -> TypeGuard[Sequence[int]]:
    """True for valid whole-point scores and ``expected`` (None or an int ≥ n): the fast path."""
    n = len(scores)
    return (
        n > 0
        and all_whole(scores)
        and (expected is None or (type(expected) is int and expected >= n))
    )


def _marks_by_score(scores: Sequence[int], marks: Sequence[M]) -> dict[int, M]:
    """``marks[2·lower + equal others]`` for each distinct score, from one pass over sorted runs.

    A run of equal scores from sorted position ``start`` to ``end`` gives each of them
    ``start`` lower results and ``end − start`` equal others: ``start + end``.
    """
    ordered = sorted(scores)
    by_score: dict[int, M] = {}
    start, run = 0, ordered[0]
    for i, score in enumerate(ordered):
        if score != run:
            by_score[run] = marks[start + i - 1]
            start, run = i, score
    by_score[run] = marks[start + len(ordered) - 1]
    return by_score


def _float_marks(n: int, expected: int) -> tuple[float, ...]:
    """The float mark of each preliminary mark 0 … 2·(n − 1) among n results, of ``expected``.

    (N·(mp + 1) − n)/n, one rounding (N = n gives mp itself).
    """
    return tuple([(expected * (mp + 1) - n) / n for mp in range(2 * n - 1)])


# A session's boards share a few (n, expected) pairs, so a board reads its marks from here
# instead of working them out; boards over CACHED_UP_TO results (none at a club) are not kept,
# which bounds the cache to a few megabytes.
CACHED_UP_TO = 2000
_cached_float_marks = lru_cache(maxsize=64)(_float_marks)


def base_matchpoints(scores: Sequence[Number]) -> list[int]:
    """2 per lower result and 1 per equal one among ``scores`` only (no factoring)."""
    if _whole_board(scores, None):
        by_score = _marks_by_score(scores, range(2 * len(scores) - 1))
        return list(map(by_score.__getitem__, scores))
    n = len(scores)
    ordered = sorted(scores)
    last = {v: i for i, v in enumerate(ordered)}
    first = {v: i for i, v in zip(range(n - 1, -1, -1), reversed(ordered), strict=True)}
    return [first[s] + last[s] for s in scores]


def neuberg(mp: Exact, n: int, expected: int) -> Fraction:
    """Neuberg's factoring of a preliminary mark ``mp`` among ``n`` real results."""
    return Fraction(expected * (mp + 1), n) - 1


def matchpoints_exact(scores: Sequence[Number], expected: int | None = None) -> list[Fraction]:
    """Exact NS marks of each score; ``expected`` > len(scores) applies Neuberg."""
    _check_scores(scores)
    n = len(scores)
    big_n = _check_expected(n, expected)
    if n == 0:
        return []
    base = base_matchpoints(scores)
    if big_n == n:
        return [Fraction(mp) for mp in base]
    return [neuberg(mp, n, big_n) for mp in base]


def matchpoints(scores: Sequence[Number], expected: int | None = None) -> list[float]:
    """NS matchpoints per result (floats); EW = top − NS with top = 2·(expected − 1).

    Whole points take a fast path (one type check in C, one sort and one pass, each float
    mark worked out once per board size), since the classification scores every board
    through here; it gives the same floats.
    """
    if _whole_board(scores, expected):
        n = len(scores)
        big_n = n if expected is None else expected
        if n <= CACHED_UP_TO:
            marks = _cached_float_marks(n, big_n)
        else:
            marks = _float_marks(n, big_n)
        return list(map(_marks_by_score(scores, marks).__getitem__, scores))
    _check_scores(scores)
    n = len(scores)
    big_n = _check_expected(n, expected)
    if n == 0:
        return []
    base = base_matchpoints(scores)
    if big_n == n:
        return [float(mp) for mp in base]
    # Same formula as ``neuberg`` but in floats: (N·(mp+1) − n)/n has a single rounding.
    return [(big_n * (mp + 1) - n) / n for mp in base]


def value_against(score: Number, others: Sequence[Number], expected: int) -> Fraction:
    """Mark a result that is not in the table would get (split/weighted scores, C03 l.696).

    It is compared with the ``others`` real results and Neuberg-scaled as one
    extra result (n' = n + 1), leaving everything else "as if it were an average".
    """
    _check_scores([score, *others])
    n = len(others) + 1
    big_n = _check_expected(n, expected)
    mp = sum(2 if o < score else 1 if o == score else 0 for o in others)
    return neuberg(mp, n, big_n)
