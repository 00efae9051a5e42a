"""The rankings of the results PDF (each section's and line's, and a multi-session event's
overall ranking) as fixed-width lines (``pdf.fixed_width``), like its travellers and scorecards.

As HTML tables they were the costliest part to lay out for their size: WeasyPrint lays out
each cell as a block of its own, and a 60-table session's four rankings are 720 cells,
1.1-1.3 CPU-s for 8 pages, the longest part of the document (the scorecards' parts, twice
its text, take 0.55-0.85 s). As lines they take 0.33 s and 5 pages. The names take the room
left on the line and are cut with "…" (``pdf.fixed_width.Column.flexible``), and numbers are
written as the page's template wrote them (``localize``: "1026,00" in Spanish).
"""

from __future__ import annotations

from django.utils.formats import localize
from django.utils.translation import gettext as _

from tournaments.services.boards.bridge_words import seat_word
from tournaments.services.results.snapshot import Participant

from .fixed_width import Block, Column, layout


def _number(value) -> str:
    return "" if value is None else localize(value)


def _place(p: Participant) -> str:
    return ("" if p.place is None else str(p.place)) + ("=" if p.tied else "")


def _handicap_place(p: Participant) -> str:
    return ("" if p.handicap_place is None else str(p.handicap_place)) + (
        "=" if p.handicap_tied else ""
    )


def section_ranking(rows: list[Participant], *, imps: bool, vps: bool) -> Block:
    """Place, pair (number and line), players, boards, points (or IMPs, VPs) and, scored
    by matchpoints, the percentage; a handicap event adds each pair's handicap, its
    percentage with half of it and the place that gives (``scoring.handicap``)."""
    points = _("VPs") if vps else _("IMPs") if imps else _("Points")
    handicaps = not imps and any(p.handicap_percentage is not None for p in rows)
    columns = [
        Column(_("Place")),
        Column(_("Pair")),
        Column(_("Players"), right=False, flexible=True, minimum=12),
        Column(_("Boards")),
        Column(points),
    ]
    if not imps:
        columns.append(Column("%"))
    if handicaps:
        columns += [
            Column(_("Handicap")),
            Column(_("% with handicap")),
            Column(_("Place with handicap")),
        ]
    return layout(
        columns,
        [
            [
                _place(p),
                f"{p.number}{seat_word(p.direction)}",
                p.name,
                p.boards,
                _number(p.points),
                *(() if imps else (_number(p.percentage),)),
                *(
                    (_number(p.handicap), _number(p.handicap_percentage), _handicap_place(p))
                    if handicaps
                    else ()
                ),
            ]
            for p in rows
        ],
    )


def overall_ranking(totals: tuple[Participant, ...] | list[Participant]) -> Block:
    """Place, players, points and percentage over every session of the event."""
    return layout(
        [
            Column(_("Place")),
            Column(_("Players"), right=False, flexible=True, minimum=12),
            Column(_("Points")),
            Column("%"),
        ],
        [[_place(p), p.name, _number(p.points), _number(p.percentage)] for p in totals],
    )
