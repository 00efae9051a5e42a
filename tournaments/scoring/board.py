"""Matchpoint one board's traveller: real results, adjustments, fouled groups.

Only real results are compared with each other; every other line (artificial,
split, weighted, not played) is a "promedio" for the rest of the field, so the
real results are Neuberg-factored up to the theoretical count N (C03 l.606-610).
Each side of a split or weighted line gets the value its assigned result has
in that table (C03 l.696).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .adjusted import (
    BASE_PERCENT,
    Artificial,
    Entry,
    NotPlayed,
    Real,
    Role,
    Split,
    Unplayed,
    Weighted,
    as_entry,
    fouled_group_percentages,
)
from .errors import ScoringError
from .matchpoints import base_matchpoints, neuberg, top_for, value_against

SplitRule = Literal["course", "insert"]
# How a board with fewer real results than N is brought up to the top: Neuberg (the course,
# C03 l.606), the plain ratio top / the board's own top, or each missing result counted as
# an average comparison (S + (N − n) on the 2-unit scale), as some scorers do.
Factoring = Literal["neuberg", "ratio", "average"]
Deferred = Role | Unplayed | None


@dataclass(frozen=True, slots=True)
class LineMarks:
    """Marks of one traveller line; a side with ``*_deferred`` set is resolved per session.

    ``ns``/``ew`` are None only for a not-played line. A Role-deferred side
    carries its base value (60/50/40) so a single board can still be shown.
    """

    ns: Fraction | None
    ew: Fraction | None
    ns_deferred: Deferred = None
    ew_deferred: Deferred = None
    real: bool = False  # the marks come from a result (count towards the pair's own %)


@dataclass(frozen=True, slots=True)
class BoardScore:
    top: int
    expected: int
    lines: tuple[LineMarks, ...]


def factored(mp: int, n: int, big_n: int, factoring: Factoring) -> Fraction:
    """A preliminary mark among ``n`` real results brought up to ``big_n`` results."""
    if factoring == "average":
        return Fraction(mp + big_n - n)
    if factoring == "neuberg" or n < 2:
        return neuberg(mp, n, big_n)
    return Fraction(mp * (big_n - 1), n - 1)


def _group_of(entry: Entry) -> Hashable:
    return getattr(entry, "group", None)


def score_board(
    entries: Sequence[object],
    expected: int | None = None,
    *,
    split_rule: SplitRule = "course",
    factoring: Factoring = "neuberg",
) -> BoardScore:
    """Score a board's lines in NS/EW matchpoints (2-unit scale, exact Fractions).

    ``expected`` is the theoretical number of results N (default: number of lines).
    Real results with different ``group`` labels are fouled-board/pool groups:
    a group of fewer than four gets the course's fixed percentages, a larger one
    Neuberg within itself against the same N (C03 l.704-725, l.740).
    ``split_rule="course"`` values an assigned result at its existing table mark
    when it occurs in the table (C03 l.696); "insert" always inserts it as one
    extra result. ``factoring="ratio"`` scales the n real results' marks by
    (N − 1)/(n − 1) instead of Neuberg, ``"average"`` adds one point (half a top of a
    comparison) for each of the N − n missing results (imported files scored those ways).
    """
    items = [as_entry(e) for e in entries]
    big_n = len(items) if expected is None else expected
    top = top_for(big_n)
    if len(items) > big_n:
        raise ScoringError(
            "expected", expected, f"the board has {len(items)} lines, more than expected"
        )

    groups: dict[Hashable, list[int]] = {}
    for i, e in enumerate(items):
        if isinstance(e, int):
            items[i] = e = Real(e)
        if isinstance(e, Real):
            groups.setdefault(e.group, []).append(i)

    marks: list[LineMarks | None] = [None] * len(items)
    table: dict[Hashable, dict[int, Fraction]] = {}  # group → score → NS mark
    fouled = len(groups) > 1
    for key, idx in groups.items():
        scores = [items[i].ns_score for i in idx]  # type: ignore[union-attr]  # all Real
        by_score: dict[int, Fraction] = {}
        if fouled and len(idx) < 4:
            for i, s, (ns_pct, ew_pct) in zip(
                idx, scores, fouled_group_percentages(scores), strict=True
            ):
                marks[i] = LineMarks(ns_pct * top / 100, ew_pct * top / 100, real=True)
                by_score[s] = ns_pct * top / 100
        else:
            n = len(idx)
            made: dict[int, LineMarks] = {}  # lines with the same score share their marks
            for i, s, mp in zip(idx, scores, base_matchpoints(scores), strict=True):
                line = made.get(mp)
                if line is None:
                    ns = Fraction(mp) if n == big_n else factored(mp, n, big_n, factoring)
                    line = made[mp] = LineMarks(ns, top - ns, real=True)
                marks[i] = line
                by_score[s] = line.ns  # type: ignore[assignment]  # a real line's ns is set
        table[key] = by_score

    def value(score: int, group: Hashable) -> Fraction:
        existing = table.get(group, {})
        if split_rule == "course" and score in existing:
            return existing[score]
        others = [items[i].ns_score for i in groups.get(group, [])]  # type: ignore[union-attr]  # Real
        return value_against(score, others, big_n)

    for i, e in enumerate(items):
        if isinstance(e, Real):
            continue
        if isinstance(e, Artificial):
            ns_def = e.ns if isinstance(e.ns, Role) else None
            ew_def = e.ew if isinstance(e.ew, Role) else None
            ns_pct = BASE_PERCENT[e.ns] if isinstance(e.ns, Role) else e.ns
            ew_pct = BASE_PERCENT[e.ew] if isinstance(e.ew, Role) else e.ew
            marks[i] = LineMarks(ns_pct * top / 100, ew_pct * top / 100, ns_def, ew_def)
        elif isinstance(e, Split):
            marks[i] = LineMarks(
                value(e.ns_score, e.group), top - value(e.ew_score, e.group), real=True
            )
        elif isinstance(e, Weighted):
            ns = sum((w * value(s, e.group) for w, s in e.outcomes), Fraction(0))
            marks[i] = LineMarks(ns, top - ns, real=True)
        elif isinstance(e, NotPlayed):
            marks[i] = LineMarks(None, None, e.reason, e.reason)
        else:  # pragma: no cover - as_entry guarantees the types above
            raise ScoringError("entry", e, "unknown entry type")
    return BoardScore(top, big_n, tuple(m for m in marks if m is not None))
