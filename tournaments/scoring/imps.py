"""Law 78B IMPs and cross-IMPs.

The printed table's bands are read as thresholds (a band starts at its lower
bound), which is exact for multiples of 10 and the usual convention for the
non-multiples a Butler datum or an average produces; the Laws do not say.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from fractions import Fraction
from numbers import Real

from .errors import ScoringError

IMP_THRESHOLDS: tuple[int, ...] = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)


def _check(value: object, field: str) -> None:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ScoringError(field, value, "must be a number of points")


def imps(difference: Real) -> int:
    """IMPs for a point difference (signed): ``imps(-430) == -10``."""
    _check(difference, "difference")
    n = bisect_right(IMP_THRESHOLDS, abs(difference))
    return n if difference >= 0 else -n


def cross_imp_sums(scores: Sequence[Real]) -> list[int]:
    """Σ over the other results of imps(own − other), for each result, in O(k log k).

    For one threshold t, #{others ≤ s − t} minus #{others ≥ s + t} is that
    threshold's contribution; both counts are bisections of the sorted scores,
    and the loop stops once s ± t leaves the range of scores.
    """
    for s in scores:
        _check(s, "score")
    ordered = sorted(scores)
    if not ordered:
        return []
    n, lo, hi = len(ordered), ordered[0], ordered[-1]
    sums: dict[Real, int] = {}
    for s in set(scores):
        total = 0
        for t in IMP_THRESHOLDS:
            below, above = s - t, s + t
            if below < lo and above > hi:
                break
            total += bisect_right(ordered, below) - (n - bisect_left(ordered, above))
        sums[s] = total
    return [sums[s] for s in scores]


def cross_imps_exact(scores: Sequence[Real]) -> list[Fraction]:
    """Cross-IMPs averaged over the n − 1 comparisons (the variant this package uses)."""
    n = len(scores)
    if n <= 1:
        return [Fraction(0)] * n
    return [Fraction(v, n - 1) for v in cross_imp_sums(scores)]


def cross_imps(scores: Sequence[Real]) -> list[float]:
    """NS cross-IMPs per result: each result IMPed against every other one, averaged over n−1.

    EW gets the negative. Cross-IMPs are not defined in any seed (AEB only
    names them, L17 78D note); averaging over the comparisons is the chosen variant.
    """
    n = len(scores)
    if n <= 1:
        for s in scores:
            _check(s, "score")
        return [0.0] * n
    return [v / (n - 1) for v in cross_imp_sums(scores)]
