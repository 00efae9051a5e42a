"""An imported file's own figures, by entry, for ``services.file_record`` to keep as the
event's result of record: each pair's (or player's, or team's) total, percentage and place,
each line's marks, and a teams event's match IMPs and VPs, exactly as the club published
them.

A place is shared when the file writes it so (``3=``) and also when two participants of one
ranking carry the same place without the ``=`` (some programs write ``10`` twice). A file
whose ``TOTAL_SCORE`` carries the percentage (``conventions["totals"] == "percentage"``)
gives no points of its own: ours stay beside its percentages. Marks the file shows on
another top (``display_top``) are kept as shown, with that top.
"""

from __future__ import annotations

from collections import Counter

from ..models import EntryPlayer, Seating, Tournament
from .usebio_conventions import seats_of
from .usebio_rows import FileEvent


def _text(value) -> str:
    return "" if value is None else str(value)


def figures_of(tournament: Tournament, event: FileEvent) -> dict[int, dict]:
    """Session number → {"entries": {entry: {...}}, "marks": {"board:entry": mark}}."""
    seats = list(
        Seating.objects.filter(session__tournament=tournament).values(
            "session__number", "section__letter", "number", "direction", "entry_id"
        )
    )
    seat = {
        (s["session__number"], s["section__letter"], s["number"], s["direction"]): s["entry_id"]
        for s in seats
    }
    team = {(s["session__number"], s["number"]): s["entry_id"] for s in seats}
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
        for pair in fs.pairs:
            entry = seat.get(
                (fs.session, fs.letter, pair.number, pair.direction if directional else "")
            )
            if entry is None:
                continue
            published = (
                pair.percentage
                if pair.percentage is not None
                else pair.total
                if percentage_totals
                else None
            )
            if (
                published is not None and conventions.get("handicap") == "half" and pair.handicap
            ):  # the scratch percentage behind the published one
                published = published - pair.handicap / 2
            figures["entries"][str(entry)] = {
                "total": "" if percentage_totals else _text(pair.total),
                "percentage": _text(published),
                "place": pair.place,
                "tied": pair.tied,  # shared places found by the parser, "=" or not
            }
        for fm in fs.matches:  # a teams event: each match's IMPs and VPs as written
            home = team.get((fs.session, fm.home))
            if home is not None and fm.away is not None:
                figures.setdefault("matches", {})[f"{fm.round}:{home}"] = {
                    "home_imps": _text(fm.home_imps),
                    "away_imps": _text(fm.away_imps),
                    "home_score": _text(fm.home_score),
                    "away_score": _text(fm.away_score),
                }
        for number, lines in fs.boards.items():
            for line in lines:
                for who, side, mark in seats_of(line):
                    entry = seat.get((fs.session, fs.letter, who, side if directional else ""))
                    if entry is not None and mark is not None:
                        figures["marks"][f"{number}:{entry}"] = str(mark)
    if event.totals and out:  # the overall ranking, kept with the first session
        first = min(out)
        out[first]["event"] = _overall(tournament, event)
    return out


def _who(names_or_licences) -> frozenset:
    return frozenset(x.casefold() for x in names_or_licences if x)


def overall_entries(tournament: Tournament, event: FileEvent) -> list[tuple]:
    """(file pair, entry id) for each line of the file's overall ranking: those lines carry no
    pair number of their own, so each is found by its players (licence, else name)."""
    players: dict[int, list[tuple[str, str]]] = {}
    for row in EntryPlayer.objects.filter(entry__tournament=tournament).values(
        "entry_id", "member__licence_number", "member__first_name", "member__last_name"
    ):
        players.setdefault(row["entry_id"], []).append(
            (
                row["member__licence_number"],
                f"{row['member__first_name']} {row['member__last_name']}",
            )
        )
    by_licence = {_who(lic for lic, _n in ps): e for e, ps in players.items()}
    by_name = {_who(name for _l, name in ps): e for e, ps in players.items()}
    out = []
    for pair in event.totals:
        entry = (
            by_licence.get(_who(p.licence for p in pair.players))
            if all(p.licence for p in pair.players)
            else None
        )
        if entry is None:
            entry = by_name.get(
                _who(
                    " ".join(reversed(p.name.split(", "))) if ", " in p.name else p.name
                    for p in pair.players
                )
            )
        out.append((pair, entry))
    return out


def _overall(tournament: Tournament, event: FileEvent) -> dict[str, dict]:
    """Entry → the file's overall total, percentage and place."""
    shared = Counter(p.place for p in event.totals if p.place is not None)
    return {
        str(entry): {
            "total": _text(pair.total),
            "percentage": _text(pair.percentage),
            "place": pair.place,
            "tied": pair.tied or shared[pair.place] > 1,
        }
        for pair, entry in overall_entries(tournament, event)
        if entry is not None
    }
