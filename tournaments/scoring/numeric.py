"""The numbers the scoring core is given, named for its type hints.

At run time the functions check their arguments against ``numbers.Real`` and
``numbers.Rational`` (an ``int``, a ``float`` or a ``Fraction``; never a ``bool``). Type hints
cannot name that abstract numeric tower (PEP 484 only lets an ``int`` stand for a ``float``),
so they name the concrete types instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TypeGuard

Number = int | float | Fraction  # a score, margin or percentage as ``numbers.Real`` takes it
Exact = int | Fraction  # as ``numbers.Rational`` takes it: whole points or an exact fraction

_INT = frozenset({int})


def all_whole(values: Sequence[object]) -> TypeGuard[Sequence[int]]:
    """Every value is a plain ``int`` (no bool, no whole Fraction): the whole-points paths.

    The types are collected in C (``set(map(type, ...))``): a generator expression cost a
    microsecond a board, a tenth of what scoring a club board now takes.
    """
    return set(map(type, values)) <= _INT
