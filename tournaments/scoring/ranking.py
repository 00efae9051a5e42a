"""Ranking with ties and the course's tie-break criteria (C03 l.770-776).

The course lists, without fixing an order: 1) the lower digits (exact score
beyond display precision), 2) head-to-head, 3) more tops, 4) fewer federation
points, 5) alphabetical order. Law 78D makes the Conditions of Contest choose,
so the order is a parameter. Scores are first compared at display precision;
criteria then split the groups that look tied.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from numbers import Rational
from operator import itemgetter

from .errors import ScoringError
from .numeric import Number

TieBreak = str
DEFAULT_TIE_BREAKS: tuple[TieBreak, ...] = (
    "exact",
    "head_to_head",
    "tops",
    "federation_points",
    "name",
)


@dataclass(frozen=True, slots=True)
class Standing:
    pair: Hashable
    score: Number  # percentage or points, exact
    tops: int = 0
    federation_points: int | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class Ranked:
    place: int
    standing: Standing
    tied: bool  # shares its place after every tie-break
    decided_by: TieBreak | None  # the criterion that separated it from a look-alike score


def display_round(value: Number, places: int = 2) -> Decimal:
    """Round half up for display ("la fórmula habitual", C03 l.770)."""
    if type(value) is int or type(value) is Fraction:  # in integers (``display_key``)
        key = display_key(value, places)
        return Decimal("-0" if key == 0 and value < 0 else key).scaleb(-places)
    return _rounded_decimal(value, places)


def _rounded_decimal(value: Number, places: int) -> Decimal:
    """``display_round`` by ``Decimal`` division: any number."""
    exact = Fraction(value) if isinstance(value, Rational) else Fraction(str(value))
    q = Decimal(1).scaleb(-places)
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
        q, rounding=ROUND_HALF_UP
    )


_EXACT_LIMIT = 10**12  # below it, integers round exactly as ``display_round``'s 28 digits


def display_key(value: Number, places: int = 2) -> int:
    """``display_round(value, places)`` scaled to an integer (0.675 → 68 at two places), for
    comparing and sorting shown scores without making a ``Decimal`` of each. Exact rationals
    of moderate size are rounded half up (away from zero) in integers: no other rational
    within ``display_round``'s 28 significant digits of them lies on the other side of a
    half, so both round alike; anything else goes through ``display_round``."""
    scale: int = 10**places
    if isinstance(value, int):
        return value * scale
    if isinstance(value, Fraction):
        n: int = value.numerator
        d: int = value.denominator
        if d <= _EXACT_LIMIT and -_EXACT_LIMIT <= n <= _EXACT_LIMIT:
            q, r = divmod(abs(n) * scale, d)
            if 2 * r >= d:
                q += 1
            return q if n >= 0 else -q
    return int(_rounded_decimal(value, places).scaleb(places))


@lru_cache(maxsize=4096)
def _name_key(name: str) -> tuple[int, ...]:
    """Sorting descending on the negated code points gives alphabetical order."""
    return tuple(-ord(c) for c in name.casefold()) + (1,)


def rank(
    standings: Sequence[Standing],
    *,
    tie_breaks: Sequence[TieBreak] = DEFAULT_TIE_BREAKS,
    places: int = 2,
    head_to_head: Mapping[tuple[Hashable, Hashable], Number] | None = None,
    shown: Sequence[int] | None = None,
) -> list[Ranked]:
    """Order standings best first; ``head_to_head[(a, b)]`` = marks a scored on boards against b.

    ``shown``: each standing's ``display_key(score, places)``, when the caller keeps them."""
    unknown = [t for t in tie_breaks if t not in DEFAULT_TIE_BREAKS]
    if unknown:
        raise ScoringError(
            "tie_breaks", unknown, f"known criteria: {', '.join(DEFAULT_TIE_BREAKS)}"
        )
    h2h = head_to_head or {}

    def key_for(criterion: TieBreak, group: list[Standing]) -> Callable[[Standing], object] | None:
        if criterion == "exact":
            return lambda s: (
                Fraction(s.score) if isinstance(s.score, Rational) else Fraction(str(s.score))
            )
        if criterion == "tops":
            return lambda s: s.tops
        if criterion == "federation_points":
            if any(s.federation_points is None for s in group):
                return None
            return lambda s: -s.federation_points  # type: ignore[operator]  # none is None
        if criterion == "name":
            return lambda s: _name_key(s.name)
        if criterion == "head_to_head":
            pairs = [s.pair for s in group]
            if any((a, b) not in h2h for a in pairs for b in pairs if a != b):
                return None  # not every tied pair met every other one
            return lambda s: sum(Fraction(str(h2h[(s.pair, o)])) for o in pairs if o != s.pair)
        raise AssertionError(criterion)

    def split(
        group: list[Standing], criteria: Sequence[TieBreak]
    ) -> list[tuple[list[Standing], TieBreak | None]]:
        if len(group) == 1 or not criteria:
            return [(group, None)]
        key = key_for(criteria[0], group)
        if key is None:
            return split(group, criteria[1:])
        ordered = sorted(group, key=key, reverse=True)  # type: ignore[arg-type]  # comparable keys
        subgroups: list[list[Standing]] = []
        for s in ordered:
            if subgroups and key(subgroups[-1][0]) == key(s):
                subgroups[-1].append(s)
            else:
                subgroups.append([s])
        if len(subgroups) == 1:
            return split(group, criteria[1:])
        out: list[tuple[list[Standing], TieBreak | None]] = []
        for sub in subgroups:
            for g, by in split(sub, criteria[1:]):
                out.append((g, by or criteria[0]))
        return out

    keys = shown if shown is not None else [display_key(s.score, places) for s in standings]
    by_shown = sorted(zip(keys, standings, strict=True), key=itemgetter(0), reverse=True)
    sorted_keys = [key for key, _s in by_shown]
    ordered = [s for _key, s in by_shown]
    result: list[Ranked] = []
    append = result.append
    criteria = list(tie_breaks)
    n = len(ordered)
    i = 0
    while i < n:
        key = sorted_keys[i]
        j = i + 1
        while j < n and sorted_keys[j] == key:
            j += 1
        if j == i + 1:  # no look-alike score: nothing to split
            append(Ranked(i + 1, ordered[i], False, None))
        else:
            for group, by in split(ordered[i:j], criteria):
                place = len(result) + 1
                for s in group:
                    append(Ranked(place, s, len(group) > 1, by))
        i = j
    return result
