"""An imported file's own figures, by entry, for ``services.file_record`` to keep as the
event's result of record: each pair's (or player's) total, percentage and place, and each
line's marks, exactly as the club published them.

A place is shared when the file writes it so (``3=``) and also when two participants of one
ranking carry the same place without the ``=`` (some programs write ``10`` twice). A file
whose ``TOTAL_SCORE`` carries the percentage (``conventions["totals"] == "percentage"``)
gives no points of its own: ours stay beside its percentages. Marks the file shows on
another top (``display_top``) are kept as shown, with that top.
"""

from __future__ import annotations

from collections import Counter

from ..models import Seating, Tournament
from .usebio_conventions import seats_of
from .usebio_rows import FileEvent


def _text(value) -> str:
    return "" if value is None else str(value)


def figures_of(tournament: Tournament, event: FileEvent) -> dict[int, dict]:
    """Session number → {"entries": {entry: {...}}, "marks": {"board:entry": mark}}."""
    seat = {(s["session__number"], s["section__letter"], s["number"], s["direction"]):
            s["entry_id"] for s in Seating.objects.filter(session__tournament=tournament)
            .values("session__number", "section__letter", "number", "direction", "entry_id")}
    conventions = tournament.conventions or {}
    percentage_totals = conventions.get("totals") == "percentage"
    out: dict[int, dict] = {}
    for fs in event.sections:
        figures = out.setdefault(fs.session, {"entries": {}, "marks": {}})
        if conventions.get("display_top"):  # the marks as shown, on the file's display top
            figures["display_top"] = conventions["display_top"]
        if conventions.get("places_by") == "handicap":  # its places rank with handicaps
            figures["places_by"] = "handicap"
        directional = fs.directional
        shared = Counter((p.direction, p.place) for p in fs.pairs if p.place is not None)
        for pair in fs.pairs:
            entry = seat.get((fs.session, fs.letter, pair.number,
                              pair.direction if directional else ""))
            if entry is None:
                continue
            published = (pair.percentage if pair.percentage is not None
                         else pair.total if percentage_totals else None)
            if published is not None and conventions.get("handicap") == "half" \
                    and pair.handicap:  # the scratch percentage behind the published one
                published = published - pair.handicap / 2
            figures["entries"][str(entry)] = {
                "total": "" if percentage_totals else _text(pair.total),
                "percentage": _text(published),
                "place": pair.place,
                "tied": pair.tied or shared[(pair.direction, pair.place)] > 1,
            }
        for number, lines in fs.boards.items():
            for line in lines:
                for who, side, mark in seats_of(line):
                    entry = seat.get((fs.session, fs.letter, who,
                                      side if directional else ""))
                    if entry is not None and mark is not None:
                        figures["marks"][f"{number}:{entry}"] = str(mark)
    return out
