"""A handicap event of a USEBIO file: which of our two rankings its figures are.

A pair's ``HANDICAP`` (or its players', summed) makes the event ranked with handicaps
(``scoring.handicap``). Programs publish the pair's percentage as scratch + handicap / 2
(``"half"``) or keep it scratch (``"scratch"``), and give places in the handicapped or the
scratch order. Both are recognised once our scoring has ranked the event both ways: the
terms our rankings reproduce most of the file's figures under.
"""

from __future__ import annotations

from .usebio_rows import FileEvent


def has_handicaps(event: FileEvent) -> bool:
    return any(p.handicap is not None for fs in event.sections for p in fs.pairs)


def _near(file_value, ours) -> bool:
    return file_value is not None and ours is not None and abs(file_value - ours) <= 0.011


def handicap_terms(event: FileEvent, rows_of) -> dict:
    """``{"handicap": "half"|"scratch", "places_by": "handicap"|"scratch"}``;
    ``rows_of(section, pair)`` is our stored ranking row of the file's pair (or None)."""
    hits = {"half": 0, "scratch": 0, "handicap places": 0, "scratch places": 0}
    for fs in event.sections:
        for pair in fs.pairs:
            r = rows_of(fs, pair)
            if r is None:
                continue
            hits["half"] += _near(pair.percentage, r.handicap_percentage)
            hits["scratch"] += _near(pair.percentage, r.percentage)
            hits["handicap places"] += pair.place is not None and pair.place == r.handicap_place
            hits["scratch places"] += pair.place is not None and pair.place == r.place
    percentage = "half" if hits["half"] >= hits["scratch"] else "scratch"
    by_handicap = hits["handicap places"] > hits["scratch places"] or (
        hits["handicap places"] == hits["scratch places"] and percentage == "half"
    )
    return {"handicap": percentage, "places_by": "handicap" if by_handicap else "scratch"}


def ours_percentage(r, conventions: dict):
    """Our percentage on the file's terms (with half the handicap when it publishes so)."""
    if r is None:
        return None
    return r.handicap_percentage if conventions.get("handicap") == "half" else r.percentage


def ours_place(r, conventions: dict) -> tuple[int, bool] | None:
    """Our place on the file's terms: in the handicapped order, or the scratch one."""
    if r is None:
        return None
    if conventions.get("places_by") == "handicap" and r.handicap_place is not None:
        return r.handicap_place, r.handicap_tied
    return r.place, r.tied
