"""The site's charts from plain numbers, in the reader's language: a section's ranking, a
board's scores and marks, a player's sessions against the club's average, a team's points
round by round. Pages and the results PDF call these with what they already read (stored
rankings, the snapshot); nothing here reads the database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction

from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _

from . import svg

# A figure as the pages read it: a stored Decimal, an exact Fraction or a chart's float.
Value = Decimal | Fraction | float


def _decimal(value: Value) -> Decimal:
    if isinstance(value, Fraction):  # the teams' totals are exact fractions
        return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(str(value))


def _number(value: Value, decimals: int = 2) -> str:
    text: str = number_format(_decimal(value).quantize(Decimal(1).scaleb(-decimals)), decimals)
    return text.replace("-", "−")


def _short(value: float) -> str:
    """A tick: whole numbers without decimals."""
    return _number(value, 0 if float(value).is_integer() else 1)


@dataclass(frozen=True)
class RankingLine:
    number: str  # "3", "A3" or "3NS"
    names: str
    percentage: Decimal | None
    points: Decimal | None


def ranking(
    key: str, heading: str, lines: Sequence[RankingLine], *, imps: bool, unit: str | None = None
) -> svg.BarChart | None:
    """The ranking as bars in place order: percentages (0 to 100, 50 % marked) or, for
    IMP-scored events, the points (``unit``: IMPs unless said), negative ones to the left.
    None when nothing is scored."""
    by_pct = not imps and any(line.percentage is not None for line in lines)
    items, rows = [], []
    for line in lines:
        value = line.percentage if by_pct else line.points
        if value is None:
            continue
        name = f"{line.number} {line.names}".strip()
        text = f"{_number(value)}{' %' if by_pct else ''}"
        items.append((name, float(value), text))
        rows.append((line.number, line.names, text))
    if not items:
        return None
    unit = _("Percentage") if by_pct else (unit or _("IMPs"))
    title = _("%(heading)s: ranking chart") % {"heading": heading}
    if by_pct:
        description = _(
            "One bar per pair in place order, its percentage from 0 to 100; the "
            "dashed line marks 50 %."
        )
    else:
        description = _(
            "One bar per pair in place order, its %(unit)s; bars left of the "
            "zero line are below zero."
        ) % {"unit": unit}
    return svg.bar_chart(
        key,
        title,
        description,
        items,
        value_text=_short,
        headers=(_("Pair"), _("Players"), unit),
        rows=rows,
        domain=(0.0, 100.0) if by_pct else None,
        reference=50.0 if by_pct else None,
        reference_label="50 %",
    )


@dataclass(frozen=True)
class Frequency:
    score: int  # NS score
    count: int  # tables
    ns_mark: Decimal | None  # the NS matchpoints (or IMPs) this score earned


def _score(score: int) -> str:
    return f"+{score}" if score > 0 else ("0" if score == 0 else f"−{-score}")


def frequencies(
    key: str, number: int, rows: Sequence[Frequency], *, imps: bool
) -> svg.BarChart | None:
    """A board's scores, best for NS first, each bar the NS marks the score earned and its
    count of tables. None when no table scored it."""
    items, table = [], []
    for f in rows:
        if f.ns_mark is None:
            continue
        times = _("×%(count)s") % {"count": f.count}
        text = f"{_number(f.ns_mark)} ({times})"
        items.append((_score(f.score), float(f.ns_mark), text))
        table.append((_score(f.score), str(f.count), _number(f.ns_mark)))
    if not items:
        return None
    unit = _("IMPs NS") if imps else _("MP NS")
    title = _("Board %(number)s: scores and marks") % {"number": number}
    description = _(
        "One bar per NS score, best first: the marks North-South earned with it "
        "(%(unit)s), and in brackets how many tables scored it."
    ) % {"unit": unit}
    return svg.bar_chart(
        key,
        title,
        description,
        items,
        value_text=_short,
        headers=(_("NS score"), _("Tables"), unit),
        rows=table,
    )


@dataclass(frozen=True)
class SessionPoint:
    when: date
    name: str  # the tournament (and session) played
    percentage: Decimal
    club_average: Decimal | None  # every pair's average in the same session


def history(key: str, points: Sequence[SessionPoint]) -> svg.LineChart | None:
    """A player's percentage session by session (oldest first) and the club's average in
    the same sessions. None without a session."""
    if not points:
        return None
    points = sorted(points, key=lambda p: p.when)
    labels = [date_format(p.when, "d/m") for p in points]
    mine = [float(p.percentage) for p in points]
    club = [float(p.club_average) if p.club_average is not None else None for p in points]
    return svg.line_chart(
        key,
        _("Percentage session by session"),
        _(
            "The player's percentage in each session, oldest first, and the average "
            "percentage of every pair in the same session (dashed)."
        ),
        labels,
        [(_("Player"), "main", mine), (_("Club average"), "reference", club)],
        value_text=_short,
        point_text=_number,
        include=(50.0,),
        headers=(_("Date"), _("Tournament"), "%", _("Club average")),
        rows=[
            (
                date_format(p.when, "SHORT_DATE_FORMAT"),
                p.name,
                _number(p.percentage),
                _number(p.club_average) if p.club_average is not None else "",
            )
            for p in points
        ],
    )


def team_progress(
    key: str, team: str, unit: str, cumulative: Sequence[Decimal], average: Sequence[Decimal]
) -> svg.LineChart | None:
    """A team's running total after each round, and the field's average running total.
    None before a round is scored."""
    if not cumulative:
        return None
    labels = [str(i) for i in range(1, len(cumulative) + 1)]
    return svg.line_chart(
        key,
        _("%(team)s: %(unit)s round by round") % {"team": team, "unit": unit},
        _(
            "The team's running total after each round and the average running total of all "
            "teams (dashed)."
        ),
        labels,
        [
            (team, "main", [float(v) for v in cumulative]),
            (_("Average"), "reference", [float(v) for v in average]),
        ],
        value_text=_short,
        point_text=_number,
        include=(0.0,),
        headers=(_("Round"), team, _("Average")),
        rows=[
            (label, _number(c), _number(a))
            for label, c, a in zip(labels, cumulative, average, strict=True)
        ],
    )
