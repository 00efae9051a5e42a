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
from .numeric import Number, all_whole

IMP_THRESHOLDS: tuple[int, ...] = (
    20,
    50,
    90,
    130,
    170,
    220,
    270,
    320,
    370,
    430,
    500,
    600,
    750,
    900,
    1100,
    1300,
    1500,
    1750,
    2000,
    2250,
    2500,
    3000,
    3500,
    4000,
)


def _check(value: object, field: str) -> None:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ScoringError(field, value, "must be a number of points")


# IMPs of every whole-point difference from −SPAN to +SPAN, looked up at ``d + SPAN``: a list
# index is the cheapest step a Python loop can take, and boards are scored a hundred thousand
# results at a time. Differences outside the span (never seen at a club) take the bisection.
SPAN = 8000
_IMPS_BY_DIFFERENCE: tuple[int, ...] = tuple(
    bisect_right(IMP_THRESHOLDS, abs(d)) * (1 if d >= 0 else -1) for d in range(-SPAN, SPAN + 1)
)


def imps(difference: Number) -> int:
    """IMPs for a point difference (signed): ``imps(-430) == -10``."""
    _check(difference, "difference")
    # abs() of a mixed int/float/Fraction has no single static type; the thresholds are
    # compared with a float or a Fraction as well as with an int.
    size: Number = -difference if difference < 0 else difference
    thresholds: Sequence[Number] = IMP_THRESHOLDS
    n = bisect_right(thresholds, size)
    return n if difference >= 0 else -n


def imps_against(scores: Sequence[int], numerator: int, denominator: int = 1) -> list[int]:
    """imps(s − numerator/denominator) for each whole-point score, in integer arithmetic.

    A Butler datum is a fraction (a mean of eleven scores at a club). The thresholds are whole,
    so imps(s − p/q) is the table's value at s − p/q rounded toward zero: s − ⌊p/q⌋ − 1 above a
    fractional datum, s − ⌊p/q⌋ below it; one list index a result, like a whole datum. Out of
    the table's span, comparing ``s·q − p`` with each threshold times ``q`` gives exactly what
    the Fraction subtraction would, without building a Fraction per result.
    """
    floor, rest = divmod(numerator, denominator)
    above = floor + 1 if rest else floor  # where a score above the datum is read from
    low, high = min(scores, default=floor), max(scores, default=floor)
    if -SPAN <= low - above and high - floor <= SPAN:
        table, up, down = _IMPS_BY_DIFFERENCE, SPAN - above, SPAN - floor
        return [table[s + up] if s > floor else table[s + down] for s in scores]
    scaled = [t * denominator for t in IMP_THRESHOLDS]
    out = []
    for s in scores:
        d = s * denominator - numerator
        out.append(bisect_right(scaled, d) if d >= 0 else -bisect_right(scaled, -d))
    return out


def cross_imp_sums(scores: Sequence[Number]) -> list[int]:
    """Σ over the other results of imps(own − other), for each result.

    A club board (up to SMALL_FIELD whole scores) is compared pair by pair through the
    lookup table. A larger field takes O(k log k): for one threshold t, #{others ≤ s − t}
    minus #{others ≥ s + t} is that threshold's contribution; both counts are bisections of
    the sorted scores, and the loop stops once s ± t leaves the range of scores.
    """
    if not scores:
        return []
    if all_whole(scores):
        if len(scores) <= SMALL_FIELD and max(scores) - min(scores) <= SPAN:
            return _cross_imp_sums_small(scores)
    else:
        for s in scores:
            _check(s, "score")
    ordered = sorted(scores)
    n, lo, hi = len(ordered), ordered[0], ordered[-1]
    sums: dict[Number, int] = {}
    for s in set(scores):
        total = 0
        for t in IMP_THRESHOLDS:
            below, above = s - t, s + t
            if below < lo and above > hi:
                break
            total += bisect_right(ordered, below) - (n - bisect_left(ordered, above))
        sums[s] = total
    return [sums[s] for s in scores]


# Up to this many results a board is compared pair by pair through the lookup table (k² list
# indexings); larger fields use the sorted bisection above, which grows as k·log k.
SMALL_FIELD = 48


def _cross_imp_sums_small(scores: Sequence[int]) -> list[int]:
    """Each pair looked up once: imps(b − a) = −imps(a − b) gives the later result its share.

    Half the k² lookups of comparing every result with every other one, which is what
    cross-IMPs spend their time on at a club (the bench holds them to 1,000,000 results/s).
    """
    table = _IMPS_BY_DIFFERENCE
    n = len(scores)
    sums = [0] * n
    for i, score in enumerate(scores):
        index = score + SPAN
        total = sums[i]  # already holds the earlier results' comparisons with this one
        for j in range(i + 1, n):
            imp = table[index - scores[j]]
            total += imp
            sums[j] -= imp
        sums[i] = total
    return sums


def cross_imps_exact(scores: Sequence[Number]) -> list[Fraction]:
    """Cross-IMPs averaged over the n − 1 comparisons (the variant this package uses)."""
    n = len(scores)
    if n <= 1:
        return [Fraction(0)] * n
    return [Fraction(v, n - 1) for v in cross_imp_sums(scores)]


def cross_imps(scores: Sequence[Number]) -> list[float]:
    """NS cross-IMPs per result: each result IMPed against every other one, averaged over n−1.

    EW gets the negative. Cross-IMPs are not defined in any seed (AEB only
    names them, L17 78D note); averaging over the comparisons is the chosen variant.
    """
    n = len(scores)
    if n <= 1:
        for s in scores:
            _check(s, "score")
        return [0.0] * n
    comparisons = n - 1
    return [v / comparisons for v in cross_imp_sums(scores)]
