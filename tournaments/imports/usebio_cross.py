"""How another scorer wrote a cross-IMP file, recognised from the file's own figures.

Every scorer compares each result with every other result of the board in IMPs; they differ
in what they write and how they total it:

- ``cross_imps``: the mark is the ``"average"`` over the comparisons (the course), their
  ``"sum"``, or that sum ``"factored"`` up to the comparisons of the board played most often
  in the field (so a board played fewer times weighs as much as the others);
- ``cross_round``: each mark rounded to 1 or 2 decimals (or 0) before the pair's total is
  added up from the marks as printed, or ``None`` when the total adds up the exact marks and
  only the printed figures are rounded;
- ``cross_half``: with ``cross_round``, a half rounded ``"away"`` from zero or to ``"even"``;
- ``cross_field``: sections sharing boards compared as one ``"field"`` or each ``"section"``
  on its own (our pools then follow).

The form is the one whose marks match the most traveller lines; the rounding, the one whose
totals match the most pairs (of equals, the 0.1 or whole IMPs the file prints, since it
totalled what it printed; else exact). Artificial scores are not part of either: the file's award is
kept as given (``usebio_conventions.detect``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from decimal import Decimal
from fractions import Fraction

from ..scoring import imps
from ..scoring.butler import cross_scale, round_mark
from .usebio_rows import FileEvent, FileLine

FORMS = ("average", "sum", "factored")
# (decimals, how a half rounds): exact, or rounded a half away from zero or to even
ROUNDINGS = ((None, "away"),) + tuple(
    (places, half) for places in (2, 1, 0) for half in ("away", "even")
)


def _real(line: FileLine) -> bool:
    return line.adjustment is None and line.score is not None


def _matches(file_value: Decimal | None, ours: Fraction) -> bool:
    """Equal once ours is rounded as the file rounds (half a unit of its last decimal)."""
    if file_value is None:
        return False
    places = max(-file_value.as_tuple().exponent, 0)
    return abs(ours - Fraction(file_value)) <= Fraction(5, 10 ** (places + 1)) + Fraction(
        1, 10 ** (places + 3)
    )


def _averages(groups: list[dict[int, list[FileLine]]]) -> dict[int, tuple[Fraction, int, int]]:
    """id(line) → (NS average over the comparisons, real results n, the field's most)."""
    out = {}
    for boards in groups:
        most = max((sum(1 for ln in lines if _real(ln)) for lines in boards.values()), default=0)
        for lines in boards.values():
            real = [ln for ln in lines if _real(ln)]
            for ln in real:
                total = sum(imps(ln.score - o.score) for o in real if o is not ln)
                out[id(ln)] = (Fraction(total, max(len(real) - 1, 1)), len(real), most)
    return out


def _form(groups, averages) -> tuple[str, int]:
    hits = dict.fromkeys(FORMS, 0)
    for boards in groups:
        for lines in boards.values():
            for ln in lines:
                if id(ln) not in averages:
                    continue
                average, n, most = averages[id(ln)]
                for form in FORMS:
                    hits[form] += _matches(ln.ns_mark, average * cross_scale(form, n, most))
    best = max(FORMS, key=lambda f: hits[f])  # the first of equals: the course's average
    return best, hits[best]


def _rounding(event: FileEvent, averages, form: str) -> tuple[int | None, str]:
    hits = dict.fromkeys(ROUNDINGS, 0)
    for section in event.sections:
        totals: dict[tuple[int, str], dict] = defaultdict(lambda: dict.fromkeys(ROUNDINGS, 0))
        for lines in section.boards.values():
            for ln in lines:
                for pair, side, sign, mark in (
                    (ln.ns, "NS", 1, ln.ns_mark),
                    (ln.ew, "EW", -1, ln.ew_mark),
                ):
                    key = (pair, side if section.directional else "")
                    for places, half in ROUNDINGS:
                        if id(ln) in averages:
                            average, n, most = averages[id(ln)]
                            value = round_mark(
                                sign * average * cross_scale(form, n, most), places, half
                            )
                        else:  # an award or a board not played: the file's own figure
                            value = Fraction(mark) if mark is not None else Fraction(0)
                        totals[key][(places, half)] += value
        for pair in section.pairs:
            got = totals.get((pair.number, pair.direction if section.directional else ""))
            if got is None or pair.total is None:
                continue
            shown = max(-pair.total.as_tuple().exponent, 0)
            for rule in ROUNDINGS:  # the very figure printed, not one within its rounding
                hits[rule] += round_mark(got[rule], shown) == Fraction(pair.total)
    # of equals: the 0.1 or whole IMPs the file prints (it totalled what it printed), else
    # exact, as the course and our own files total
    printed = Counter(
        max(-ln.ns_mark.as_tuple().exponent, 0)
        for s in event.sections
        for ls in s.boards.values()
        for ln in ls
        if id(ln) in averages and ln.ns_mark is not None
    ).most_common(1)
    prefer = printed[0][0] if printed and printed[0][0] in (0, 1) else None
    return max(ROUNDINGS, key=lambda r: (hits[r], r[0] == prefer, r[1] == "away"))


def cross_conventions(
    event: FileEvent, groupings: dict[str, list[dict[int, list[FileLine]]]]
) -> dict:
    """``cross_imps``, ``cross_round`` and ``cross_half`` (see the module's docstring), and
    ``cross_field`` when the file's sections share boards: each result compared with the
    whole ``"field"`` of those sections, or within its ``"section"`` (the grouping whose
    marks match the most lines; of equals, the field). ``groupings``: the comparison groups
    of each way (``usebio_conventions.field_boards``)."""
    found = {}
    for way, groups in groupings.items():
        averages = _averages(groups)
        form, hits = _form(groups, averages)
        found[way] = (hits, way == "field", form, averages)
    best = max(found, key=lambda w: found[w][:2])
    _hits, _field, form, averages = found[best]
    places, half = _rounding(event, averages, form)
    out = {"cross_imps": form, "cross_round": places}
    if places is not None:
        out["cross_half"] = half
    if len({len(g) for g in groupings.values()}) > 1:  # sections sharing boards
        out["cross_field"] = best
    return out
