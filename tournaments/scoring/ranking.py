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
from numbers import Rational, Real

from .errors import ScoringError

TieBreak = str
DEFAULT_TIE_BREAKS: tuple[TieBreak, ...] = ("exact", "head_to_head", "tops", "federation_points", "name")


@dataclass(frozen=True, slots=True)
class Standing:
    pair: Hashable
    score: Real  # percentage or points, exact
    tops: int = 0
    federation_points: int | None = None
    name: str = ""


@dataclass(frozen=True, slots=True)
class Ranked:
    place: int
    standing: Standing
    tied: bool  # shares its place after every tie-break
    decided_by: TieBreak | None  # the criterion that separated it from a look-alike score


def display_round(value: Real, places: int = 2) -> Decimal:
    """Round half up for display ("la fórmula habitual", C03 l.770)."""
    exact = Fraction(value) if isinstance(value, Rational) else Fraction(str(value))
    q = Decimal(1).scaleb(-places)
    return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(q, rounding=ROUND_HALF_UP)


def rank(
    standings: Sequence[Standing],
    *,
    tie_breaks: Sequence[TieBreak] = DEFAULT_TIE_BREAKS,
    places: int = 2,
    head_to_head: Mapping[tuple[Hashable, Hashable], Real] | None = None,
) -> list[Ranked]:
    """Order standings best first; ``head_to_head[(a, b)]`` = marks a scored on boards against b."""
    unknown = [t for t in tie_breaks if t not in DEFAULT_TIE_BREAKS]
    if unknown:
        raise ScoringError("tie_breaks", unknown, f"known criteria: {', '.join(DEFAULT_TIE_BREAKS)}")
    h2h = head_to_head or {}

    def key_for(criterion: TieBreak, group: list[Standing]) -> Callable[[Standing], object] | None:
        if criterion == "exact":
            return lambda s: Fraction(s.score) if isinstance(s.score, Rational) else Fraction(str(s.score))
        if criterion == "tops":
            return lambda s: s.tops
        if criterion == "federation_points":
            if any(s.federation_points is None for s in group):
                return None
            return lambda s: -s.federation_points  # type: ignore[operator]
        if criterion == "name":
            # Sorting descending on the negated code points gives alphabetical order.
            return lambda s: tuple(-ord(c) for c in s.name.casefold()) + (1,)
        if criterion == "head_to_head":
            pairs = [s.pair for s in group]
            if any((a, b) not in h2h for a in pairs for b in pairs if a != b):
                return None  # not every tied pair met every other one
            return lambda s: sum(Fraction(str(h2h[(s.pair, o)])) for o in pairs if o != s.pair)
        raise AssertionError(criterion)

    def split(group: list[Standing], criteria: Sequence[TieBreak]) -> list[tuple[list[Standing], TieBreak | None]]:
        if len(group) == 1 or not criteria:
            return [(group, None)]
        key = key_for(criteria[0], group)
        if key is None:
            return split(group, criteria[1:])
        ordered = sorted(group, key=key, reverse=True)  # type: ignore[arg-type]
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

    ordered = sorted(standings, key=lambda s: display_round(s.score, places), reverse=True)
    result: list[Ranked] = []
    i = 0
    while i < len(ordered):
        j = i
        shown = display_round(ordered[i].score, places)
        while j < len(ordered) and display_round(ordered[j].score, places) == shown:
            j += 1
        for group, by in split(ordered[i:j], list(tie_breaks)):
            place = len(result) + 1
            for s in group:
                result.append(Ranked(place, s, len(group) > 1, by))
        i = j
    return result
