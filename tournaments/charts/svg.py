"""Chart geometry (pure): scales with round ticks, horizontal bars and lines in an SVG
``viewBox`` of fixed width (the page scales it to the screen, 360 units fit a phone).

Nothing here draws or escapes text: a chart is frozen data (coordinates, labels) that a
template turns into SVG, so the labels reach the page through the template's escaping.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

WIDTH = 360  # viewBox units; 12-unit text stays readable when scaled to a 360 px screen
CHAR = 6.6  # the average width of a character of the chart's 11-unit font
ROW = 22  # a bar's row
BAR = 14  # a bar's thickness
AXIS = 18  # room for the tick labels above the bars


def nice_step(span: float, intervals: int = 4) -> float:
    """A round step (1, 2, 2.5 or 5 × 10ⁿ) splitting ``span`` into about ``intervals``."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / max(intervals, 1)
    power: float = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if factor * power >= raw - 1e-12:
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


def nice_range(low: float, high: float, intervals: int = 4) -> tuple[float, float, float]:
    """Bounds widened to whole steps around [low, high], and the step. An empty span (one
    value, or none) still gets a range, around the value or 0..1."""
    if high < low:
        low, high = high, low
    if high == low:
        pad = abs(high) * 0.1 or 1.0
        low, high = low - pad, high + pad
    step = nice_step(high - low, intervals)
    return math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step, step


def ticks(low: float, high: float, step: float) -> list[float]:
    count = int(round((high - low) / step))
    return [round(low + i * step, 10) for i in range(count + 1)]


@dataclass(frozen=True)
class Linear:
    """Maps the domain [low, high] onto [start, end] of the picture."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        if self.high == self.low:
            return (self.start + self.end) / 2
        return round(
            self.start + (value - self.low) * (self.end - self.start) / (self.high - self.low), 2
        )


def fit(text: str, room: float) -> str:
    """``text`` cut with an ellipsis to about ``room`` units of the chart's font."""
    most = max(int(room // CHAR), 1)
    return text if len(text) <= most else text[: max(most - 1, 0)].rstrip() + "…"


@dataclass(frozen=True)
class Tick:
    position: float
    label: str


@dataclass(frozen=True)
class Bar:
    label: str  # the row's name, cut to fit
    full_label: str  # the whole name (the bar's tooltip and the table)
    value_label: str
    x: float
    y: float
    width: float
    height: float
    text_y: float
    value_x: float
    negative: bool = False
    highlight: bool = False


@dataclass(frozen=True)
class BarChart:
    key: str  # unique on the page: the SVG's ids and the CSS hooks
    title: str
    description: str
    width: int
    height: int
    label_x: float  # right edge of the names
    zero_x: float
    plot_top: float
    plot_bottom: float
    ticks: tuple[Tick, ...]
    bars: tuple[Bar, ...]
    reference: Tick | None  # e.g. 50 %: a dashed line across the bars
    headers: tuple[str, ...]  # the fallback table
    rows: tuple[tuple[str, ...], ...]

    @property
    def empty(self) -> bool:
        return not self.bars

    @property
    def tick_y(self) -> float:
        return self.plot_top - 6


def bar_chart(
    key: str,
    title: str,
    description: str,
    items: Sequence[tuple[str, float, str]],
    *,
    value_text: Callable[[float], str],
    headers: tuple[str, ...],
    rows: Sequence[tuple[str, ...]] = (),
    reference: float | None = None,
    reference_label: str = "",
    domain: tuple[float, float] | None = None,
    highlight: Callable[[int], bool] = lambda i: False,
) -> BarChart:
    """One horizontal bar per item (name, value, value as written), in the given order (best
    first); negative values grow
    left of the zero line. ``domain`` fixes the scale (0..100 for percentages), otherwise
    round bounds around the values (and the reference) are taken."""
    values = [v for _n, v, _t in items]
    longest = max((len(name) for name, _v, _t in items), default=0)
    label_room = min(max(longest * CHAR, 24), WIDTH * 0.42)
    value_room = max((len(text) for _n, _v, text in items), default=1) * CHAR + 8
    if domain is not None:
        low, high = domain
        step = nice_step(high - low)
    else:
        seen = values + ([reference] if reference is not None else [])
        low, high, step = nice_range(min([0.0, *seen]), max([0.0, *seen]))
    left = label_room + 8
    right = WIDTH - value_room
    scale = Linear(low, high, left, right)
    zero = scale(min(max(0.0, low), high))
    top = AXIS
    bars = []
    for i, (name, value, text) in enumerate(items):
        y = top + i * ROW + (ROW - BAR) / 2
        end = scale(min(max(value, low), high))
        x, width = min(zero, end), abs(end - zero)
        bars.append(
            Bar(
                fit(name, label_room),
                name,
                text,
                x,
                round(y, 2),
                round(width, 2),
                BAR,
                round(y + BAR - 3, 2),
                round(max(zero, end) + 4, 2),
                value < 0,
                highlight(i),
            )
        )
    bottom = top + len(items) * ROW
    marks = tuple(Tick(scale(t), value_text(t)) for t in ticks(low, high, step))
    ref = (
        Tick(scale(reference), reference_label or value_text(reference))
        if reference is not None and low <= reference <= high
        else None
    )
    return BarChart(
        key,
        title,
        description,
        WIDTH,
        int(bottom + 6),
        round(left - 6, 2),
        zero,
        top,
        bottom,
        marks,
        tuple(bars),
        ref,
        headers,
        tuple(rows),
    )


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    label: str  # the value as read (tooltip)


@dataclass(frozen=True)
class Series:
    name: str
    css: str  # "main" or "reference": colour and dash come from the class
    points: tuple[Point, ...]
    legend_x: float = 0

    @property
    def swatch_end(self) -> float:
        return self.legend_x + 16

    @property
    def legend_text_x(self) -> float:
        return self.legend_x + 20

    @property
    def path(self) -> str:
        """The polyline's ``points`` attribute (numbers only)."""
        return " ".join(f"{p.x},{p.y}" for p in self.points)


@dataclass(frozen=True)
class LineChart:
    key: str
    title: str
    description: str
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    series: tuple[Series, ...]
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    legend_y: float = 12

    @property
    def empty(self) -> bool:
        return not any(s.points for s in self.series)

    @property
    def x_label_y(self) -> float:
        return self.bottom + 15

    @property
    def y_label_x(self) -> float:
        return self.left - 4


MOST_X_LABELS = 8


def line_chart(
    key: str,
    title: str,
    description: str,
    x_labels: Sequence[str],
    series: Sequence[tuple[str, str, Sequence[float | None]]],
    *,
    value_text: Callable[[float], str],
    headers: tuple[str, ...],
    rows: Sequence[tuple[str, ...]] = (),
    height: int = 210,
    include: Sequence[float] = (),
    point_text: Callable[[float], str] | None = None,
) -> LineChart:
    """Lines over the same x steps (sessions, rounds), each a (name, css, values) with None
    where a line has no value. The y scale is round and holds every value and ``include``
    (e.g. 50 for percentages); at most eight x labels are written, evenly picked. A point's
    tooltip is ``point_text`` of its value (the ticks' ``value_text`` unless given)."""
    point_text = point_text or value_text
    values = [v for _n, _c, vs in series for v in vs if v is not None] + list(include)
    low, high, step = nice_range(min(values, default=0.0), max(values, default=1.0))
    marks = ticks(low, high, step)
    longest_tick = max(len(value_text(t)) for t in marks)
    left, right = longest_tick * CHAR + 8, WIDTH - 12
    top, bottom = 30, height - 22
    y = Linear(low, high, bottom, top)
    count = len(x_labels)
    x = Linear(0, max(count - 1, 0), left + 18, right - 18)  # room for a centred date
    every = max(1, math.ceil(count / MOST_X_LABELS))
    x_ticks = tuple(
        Tick(x(i), label) for i, label in enumerate(x_labels) if i % every == 0 or i == count - 1
    )
    drawn, legend_x = [], left
    room = (WIDTH - left) / max(len(series), 1) - 36  # each legend item: swatch, name, gap
    for name, css, vs in series:
        points = tuple(Point(x(i), y(v), point_text(v)) for i, v in enumerate(vs) if v is not None)
        shown = fit(name, room)
        drawn.append(Series(shown, css, points, round(legend_x, 2)))
        legend_x += 22 + len(shown) * CHAR + 14
    return LineChart(
        key,
        title,
        description,
        WIDTH,
        height,
        left,
        right,
        top,
        bottom,
        tuple(Tick(y(t), value_text(t)) for t in marks),
        x_ticks,
        tuple(drawn),
        headers,
        tuple(rows),
    )
