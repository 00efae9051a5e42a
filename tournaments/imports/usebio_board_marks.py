"""How a file wrote each short board's matchpoints, recognised board by board.

A board with fewer results than its field's N is shown raw on its own top (2·(n − 1)) or
brought up to the top: by Neuberg (C03 l.606), by the plain ratio, or with each missing
result counted as an average comparison (S + (N − n)). Programs do not treat every board
alike (one keeps raw marks on the board played fewer times and factors the rest), so each
board is recognised alone, by the style that reproduces most of its lines from its scores.
Pure: no database.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from ..scoring.board import factored
from ..scoring.matchpoints import base_matchpoints
from .usebio_rows import FileLine

STYLES = ("raw", "neuberg", "average", "ratio")  # the first wins a tie


def close(file_value: Decimal | None, ours: Fraction | None) -> bool:
    """Equal within the file's rounding."""
    if file_value is None or ours is None:
        return file_value is None
    places = max(-file_value.as_tuple().exponent, 0)
    return abs(Fraction(ours) - Fraction(file_value)) <= Fraction(5, 10 ** (places + 1)) + Fraction(
        1, 200
    )


def shown(mp: Fraction, n: int, big_n: int, style: str) -> Fraction:
    """A raw NS mark among ``n`` results as a file of ``style`` writes it."""
    if style == "raw" or n >= big_n:
        return Fraction(mp)
    return factored(mp, n, big_n, style)


def unfactored(ns: Fraction, n: int, big_n: int, style: str) -> Fraction:
    """The inverse of ``shown``: a written NS mark back on the board's own top."""
    if style == "raw" or n >= big_n:
        return Fraction(ns)
    if style == "average":
        return Fraction(ns) - (big_n - n)
    if style == "ratio" and n >= 2:
        return Fraction(ns) * (n - 1) / (big_n - 1)
    return (Fraction(ns) + 1) * n / big_n - 1


def in_style(
    ours: Fraction, side: str, n: int, big_n: int, ours_style: str, style: str
) -> Fraction:
    """Our mark (factored by ``ours_style``) as a board written in ``style`` shows it."""
    top = 2 * (big_n - 1)
    ns = Fraction(ours) if side == "NS" else top - Fraction(ours)
    written = shown(unfactored(ns, n, big_n, ours_style), n, big_n, style)
    if side == "NS":
        return written
    return (2 * (n - 1) if style == "raw" and n < big_n else top) - written


def board_candidates(
    fields: list[tuple[str, dict[int, list[FileLine]], int, Fraction]],
) -> dict[str, tuple[str, ...]]:
    """``"<field>-<board>"`` → the styles that reproduce most lines of each board short of
    results whose lines carry marks, in ``STYLES`` order; ``fields`` are (name, boards, N,
    the display scale: 1, or shown top / true top). Marks rounded for display (whole numbers
    on a top of 20) can fit two styles: the event's other boards, or its totals, decide."""
    out: dict[str, tuple[str, ...]] = {}
    for name, boards, big_n, scale in fields:
        for number, lines in boards.items():
            real = [
                ln
                for ln in lines
                if ln.adjustment is None and ln.score is not None and ln.ns_mark is not None
            ]
            n = len(real)
            if not real or n >= big_n:
                continue
            raw = base_matchpoints([ln.score for ln in real])
            hits = {
                style: sum(
                    close(ln.ns_mark, shown(Fraction(mp), n, big_n, style) * scale)
                    for ln, mp in zip(real, raw, strict=True)
                )
                for style in STYLES
            }
            best = max(hits.values())
            out[f"{name}-{number}"] = tuple(st for st in STYLES if hits[st] == best)
    return out


def raw_marks(fields: list[tuple[str, dict[int, list[FileLine]], int, Fraction]]) -> dict:
    """id(line) → (its NS matchpoints among the board's results, n) for each real line of a
    board short of results: the exact figure a file's totals were made from, which its
    rounded display marks no longer carry."""
    out: dict[int, tuple[Fraction, int]] = {}
    for _name, boards, big_n, _scale in fields:
        for lines in boards.values():
            real = [ln for ln in lines if ln.adjustment is None and ln.score is not None]
            if not real or len(real) >= big_n:
                continue
            for ln, mp in zip(real, base_matchpoints([ln.score for ln in real]), strict=True):
                out[id(ln)] = (Fraction(mp), len(real))
    return out
