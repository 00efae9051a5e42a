"""A handicap event's second ranking: each pair's percentage plus half its handicap.

A handicap is in percentage points, the pair's own or the sum of its players'. Half of it
is added to the pair's session percentage (scratch + handicap / 2), as clubs that run
handicap events publish it; the scratch ranking stays as it is, and the handicapped one is
ranked beside it by the same rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction

from .numeric import Exact

# A handicap as the site stores it (a decimal field) or as the scoring computes it.
Handicap = Exact | Decimal


def handicapped(percentage: Exact, handicap: Handicap | None) -> Fraction:
    """The percentage a pair is ranked on with its handicap."""
    return Fraction(percentage) + (Fraction(handicap) / 2 if handicap else 0)


def scratch(published: Exact, handicap: Handicap | None) -> Fraction:
    """The scratch percentage behind a handicapped one (an imported file publishes those)."""
    return Fraction(published) - (Fraction(handicap) / 2 if handicap else 0)


def pair_handicap(players: Iterable[Handicap | None]) -> Fraction | None:
    """A pair's handicap from its players' own: their sum, or None when none has one."""
    given = [Fraction(h) for h in players if h is not None]
    return sum(given, Fraction(0)) if given else None
