"""The results PDF's charts from the event's snapshot: a ranking group's bars and a board's
scores against the marks they earned (``charts.figures``; drawn by ``templates/charts/``)."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _

from tournaments.services.results.snapshot import Line, Participant

from ..charts import figures


def ranking(
    session: int, letter: str, line: str, rows: Iterable[Participant], *, imps: bool, vps: bool
):
    heading = _("Section %(letter)s") % {"letter": letter}
    if line:
        heading += f" · {_('North-South') if line == 'NS' else _('East-West')}"
    ordered = sorted(rows, key=lambda p: (p.place is None, p.place or 0, p.number))
    return figures.ranking(
        f"s{session}-{letter}-{line or 'all'}".lower(),
        heading,
        [figures.RankingLine(f"{p.number}", p.name, p.percentage, p.points) for p in ordered],
        imps=imps,
        unit=_("VPs") if vps else None,
    )


def board(session: int, pool: str, number: int, lines: Iterable[Line], *, imps: bool):
    """A board's frequency chart from its played lines (adjusted scores left out, as in
    the frequency table)."""
    table: dict[int, list] = {}
    for ln in lines:
        if ln.ns_score is None or ln.adjustment:
            continue
        table.setdefault(ln.ns_score, [0, ln.ns_mark])[0] += 1
    return figures.frequencies(
        f"s{session}-{pool or 'x'}-b{number}".lower(),
        number,
        [
            figures.Frequency(score, count, mark)
            for score, (count, mark) in sorted(table.items(), reverse=True)
        ],
        imps=imps,
    )
