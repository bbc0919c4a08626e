"""Chart geometry: numbers in, shapes out. The templates draw them as SVG; no chart library runs in the page.

Four shapes cover every chart of the report:

* `BarChart`, sorted horizontal bars: one row per label, the label and the value as HTML text beside a bar
  drawn in a small SVG (so long key names wrap, select and copy like text); a row may open onto a
  `BarChart` of its own (a namespace onto its patterns).
* `ColumnChart`, columns over an axis (key sizes, the expiry timeline): one SVG, one mark per non-zero
  value, ticks under the axis; a column far above the typical one is marked hot (an expiry cliff).
* `SplitChart`, a 100% bar cut in two per row (TTL coverage of keys and of memory).
* `LineChart`, lines over a time axis (an expiry simulation's series): one SVG, a polyline per series
  (a bounded number of points: the smallest and largest value of each stretch are kept, so a spike shows),
  value levels and time ticks, stretches of time marked (the steps where the expire cycle hit its time
  limit), and hover targets that name every series' value at one point.

Every mark carries its value (`data-value`) and a `<title>` with its label, and every chart has a table of
the same numbers for screen readers and print. All labels arrive already display-escaped (`model.display`);
the templates' autoescaping makes them text.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

#: The drawing width of a column chart's SVG (its viewBox; the page scales it to the column's width).
COLUMN_WIDTH = 960
COLUMN_HEIGHT = 180
_LEFT, _BOTTOM, _TOP = 56, 22, 8
#: A column is hot when it holds at least this many times the median of the non-zero columns, and at least
#: HOT_MINIMUM keys: what a person would call a cliff on the chart.
HOT_FACTOR = 5
HOT_MINIMUM = 10


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    value: float
    shown: str  # the value as a person reads it (`1.5 MB`)
    width: float  # 0–100: the bar's length as a share of the longest
    title: str = ""  # the label at a longer bound, for the tooltip
    extra: str = ""  # what follows the value (`12 keys · 30% with TTL`)
    drill: BarChart | None = None


@dataclass(frozen=True, slots=True)
class BarChart:
    kind: ClassVar[str] = "bars"
    name: str
    title: str
    bars: tuple[Bar, ...] = ()
    empty: str | None = None  # why there is nothing to draw
    caption: str = ""
    more: str = ""  # the rows left out, when the chart is bounded
    hint: str = ""


@dataclass(frozen=True, slots=True)
class Column:
    index: int
    x: float
    y: float
    width: float
    height: float
    value: int
    label: str
    hot: bool


@dataclass(frozen=True, slots=True)
class Tick:
    x: float
    label: str
    anchor: str = "middle"  # SVG text-anchor: the last tick ends at the axis's end


@dataclass(frozen=True, slots=True)
class ColumnChart:
    kind: ClassVar[str] = "columns"
    name: str
    title: str
    columns: tuple[Column, ...] = ()
    ticks: tuple[Tick, ...] = ()
    top_label: str = ""  # the value at the top of the axis
    hot: bool = False  # some column is marked hot
    axis_label: str = ""
    empty: str | None = None
    caption: str = ""
    width: int = COLUMN_WIDTH
    height: int = COLUMN_HEIGHT
    left: int = _LEFT
    base: float = COLUMN_HEIGHT - _BOTTOM


@dataclass(frozen=True, slots=True)
class Segment:
    label: str
    value: float
    shown: str
    x: float  # 0–100
    width: float  # 0–100
    kind: str  # a CSS class: `with` or `without`


@dataclass(frozen=True, slots=True)
class SplitRow:
    label: str
    segments: tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class SplitChart:
    kind: ClassVar[str] = "split"
    name: str
    title: str
    rows: tuple[SplitRow, ...] = ()
    empty: str | None = None


def bars(
    name: str,
    title: str,
    rows: Sequence[tuple[str, float, str]],
    *,
    empty: str,
    titles: Sequence[str] = (),
    extras: Sequence[str] = (),
    drills: Sequence[BarChart | None] = (),
    caption: str = "",
    more: str = "",
    hint: str = "",
) -> BarChart:
    """Bars for `rows` of (label, value, shown value), in the order given; `empty` says why when no row has a
    value. `titles`, `extras` and `drills` run beside `rows` when given."""
    drawn = [row for row in rows if row[1] > 0]
    if not drawn:
        return BarChart(name, title, empty=empty)
    top = max(value for _label, value, _shown in drawn)
    out = []
    for index, (label, value, shown) in enumerate(rows):
        if value <= 0:
            continue
        out.append(
            Bar(
                label=label,
                value=value,
                shown=shown,
                width=round(max(value / top * 100, 0.4), 2),
                title=titles[index] if titles else label,
                extra=extras[index] if extras else "",
                drill=drills[index] if drills else None,
            )
        )
    return BarChart(name, title, tuple(out), caption=caption, more=more, hint=hint)


def columns(
    name: str,
    title: str,
    values: Sequence[int],
    *,
    label_of: Callable[[int], str],
    tick_every: int,
    tick_label: Callable[[int], str],
    empty: str,
    top_shown: Callable[[int], str] = lambda value: f"{value:,}",
    axis_label: str = "",
    hot: bool = False,
) -> ColumnChart:
    """One column per value on an evenly spaced axis; marks only where the value is not zero.

    `label_of(i)` names column i in its tooltip, ticks fall every `tick_every` columns, and `hot` marks the
    columns far above the typical non-zero one (an expiry cliff).
    """
    if not any(values):
        return ColumnChart(name, title, empty=empty)
    plot_width = COLUMN_WIDTH - _LEFT
    plot_height = COLUMN_HEIGHT - _BOTTOM - _TOP
    step = plot_width / len(values)
    gap = step * 0.15 if step >= 4 else 0.0
    top = max(values)
    nonzero = [value for value in values if value]
    typical = statistics.median(nonzero)
    drawn = []
    for index, value in enumerate(values):
        if not value:
            continue
        height = max(value / top * plot_height, 1.0)
        drawn.append(
            Column(
                index=index,
                x=round(_LEFT + index * step + gap / 2, 2),
                y=round(COLUMN_HEIGHT - _BOTTOM - height, 2),
                width=round(max(step - gap, 0.6), 2),
                height=round(height, 2),
                value=value,
                label=label_of(index),
                hot=hot and value >= HOT_MINIMUM and value >= HOT_FACTOR * typical and len(nonzero) > 1,
            )
        )
    ticks = tuple(
        Tick(round(_LEFT + index * step, 2), tick_label(index), "end" if index == len(values) else "middle")
        for index in range(0, len(values) + 1, tick_every)
    )
    return ColumnChart(
        name,
        title,
        tuple(drawn),
        ticks=ticks,
        top_label=top_shown(top),
        hot=any(column.hot for column in drawn),
        axis_label=axis_label,
    )


def split(
    name: str, title: str, rows: Sequence[tuple[str, Sequence[tuple[str, float, str, str]]]], *, empty: str
) -> SplitChart:
    """100% bars: each row is (label, parts of (label, value, shown, kind)); rows whose parts sum to 0 are left out."""
    out = []
    for label, parts in rows:
        total = sum(part[1] for part in parts)
        if total <= 0:
            continue
        x = 0.0
        segments = []
        for part_label, value, shown, kind in parts:
            width = value / total * 100
            if value > 0:
                segments.append(Segment(part_label, value, shown, round(x, 2), round(width, 2), kind))
            x += width
        out.append(SplitRow(label, tuple(segments)))
    if not out:
        return SplitChart(name, title, empty=empty)
    return SplitChart(name, title, tuple(out))


#: A line chart's drawing (its viewBox) and its margins: the value levels' labels on the left, the time ticks'
#: under the axis.
LINE_WIDTH = 960
LINE_HEIGHT = 220
_LINE_LEFT, _LINE_RIGHT, _LINE_TOP, _LINE_BOTTOM = 64, 20, 10, 24
#: What a line chart draws at most: points per line, hover targets (with as many rows in the chart's table),
#: marked stretches of time, colours (a series' `tone`; the caller bounds the series to fewer).
LINE_POINTS = 500
HOVERS = 120
BANDS = 60
TONES = 6
#: Steps of a time axis (seconds): the smallest that gives at most TIME_TICKS intervals.
TIME_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400)
TIME_TICKS = 8


@dataclass(frozen=True, slots=True)
class LineData:
    """One series for `lines`: its values at the chart's times, its legend label, drawn dashed or not."""

    key: str  # `data-series`: what tests and scripts find it by
    label: str
    values: Sequence[float]
    tone: int = 0
    dashed: bool = False


@dataclass(frozen=True, slots=True)
class Series:
    key: str
    label: str
    points: str  # the polyline's `points`
    drawn: int  # how many
    tone: int
    dashed: bool = False
    area: str = ""  # the polygon under the line, when the chart has one solid line


@dataclass(frozen=True, slots=True)
class Hover:
    """A transparent target over a stretch of the time axis: its `<title>` names every value at one point."""

    x: float
    width: float
    t: float
    label: str


@dataclass(frozen=True, slots=True)
class Band:
    """A stretch of time marked under the lines, `value` what happened in it, `label` its tooltip."""

    x: float
    width: float
    value: int
    label: str


@dataclass(frozen=True, slots=True)
class Level:
    """A value level: a grid line across the plot and its value on the left."""

    y: float
    label: str


@dataclass(frozen=True, slots=True)
class LineChart:
    kind: ClassVar[str] = "lines"
    name: str
    title: str
    series: tuple[Series, ...] = ()
    levels: tuple[Level, ...] = ()
    ticks: tuple[Tick, ...] = ()
    hovers: tuple[Hover, ...] = ()
    bands: tuple[Band, ...] = ()
    band_label: str = ""  # the legend's word for the bands
    axis_label: str = ""
    empty: str | None = None
    caption: str = ""
    alert: bool = False  # the caption says something went wrong
    more: str = ""  # the series left out
    headers: tuple[str, ...] = ()  # the table of the same numbers: one row per hover target
    rows: tuple[tuple[str, ...], ...] = ()
    width: int = LINE_WIDTH
    height: int = LINE_HEIGHT
    left: int = _LINE_LEFT
    right: int = LINE_WIDTH - _LINE_RIGHT
    top: int = _LINE_TOP
    base: int = LINE_HEIGHT - _LINE_BOTTOM


def nice_levels(top: float, *, binary: bool = False, whole: bool = False, count: int = 4) -> list[float]:
    """0 and evenly spaced round values up to the first at or above `top` (> 0), about `count` steps: steps of
    1, 2, 2.5 or 5 times a power of ten; of a power of 1024 first when `binary` (bytes: 0, 10 MB, 20 MB); whole
    numbers only when `whole` (keys: 0, 1, 2, not 0.25)."""
    unit = 1.0
    if binary:
        while top / unit >= 1024:
            unit *= 1024
    scaled = top / unit
    magnitude = 10.0 ** math.floor(math.log10(scaled / count))
    step = (
        next(
            m * magnitude
            for m in (1, 2, 2.5, 5, 10, 20)
            if m * magnitude * count >= scaled and not (whole and (m * magnitude) % 1)
        )
        * unit
    )
    steps = max(1, math.ceil(top / step - 1e-9))
    return [index * step for index in range(steps + 1)]


def time_ticks(span: float) -> list[float]:
    """Round times (seconds from the start) from 0 to `span`, at most TIME_TICKS intervals."""
    step: float = next((s for s in TIME_STEPS if span / s <= TIME_TICKS), 0)
    if not step:  # beyond 8 days: whole days, 1, 2 or 5 times a power of ten of them
        days = span / 86400 / TIME_TICKS
        magnitude = 10.0 ** math.floor(math.log10(days))
        step = 86400 * next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= days)
    return [index * step for index in range(int(span / step + 1e-9) + 1)]


def decimated(values: Sequence[float], limit: int = LINE_POINTS) -> list[int]:
    """The indexes of `values` a line draws: all of them up to `limit`, else the first, the last and the
    smallest and largest of each of (limit - 2) / 2 stretches, in order (a spike is never smoothed away)."""
    count = len(values)
    if count <= limit:
        return list(range(count))
    stretches = (limit - 2) // 2
    kept = {0, count - 1}
    for stretch in range(stretches):
        indexes = range(stretch * count // stretches, (stretch + 1) * count // stretches)
        kept.add(min(indexes, key=values.__getitem__))
        kept.add(max(indexes, key=values.__getitem__))
    return sorted(kept)


def merged_runs(runs: Sequence[tuple[int, int]], limit: int = BANDS) -> list[tuple[int, int]]:
    """Runs of indexes (first, last), in order, joined across their smallest gaps until at most `limit` are left."""
    out = list(runs)
    while len(out) > limit:
        gap = min(range(len(out) - 1), key=lambda index: out[index + 1][0] - out[index][1])
        out[gap : gap + 2] = [(out[gap][0], out[gap + 1][1])]
    return out


def lines(
    name: str,
    title: str,
    times: Sequence[float],
    data: Sequence[LineData],
    *,
    empty: str,
    level_label: Callable[[float], str],
    tick_label: Callable[[float], str],
    hover_label: Callable[[int], str],
    headers: tuple[str, ...],
    row: Callable[[int], tuple[str, ...]],
    binary: bool = False,
    whole: bool = False,
    weight: Callable[[int], float] | None = None,
    stride: int = 1,
    bands: Sequence[tuple[float, float, int, str]] = (),
    band_label: str = "",
    axis_label: str = "",
    caption: str = "",
    alert: bool = False,
    more: str = "",
) -> LineChart:
    """Lines of `data` over `times` (seconds from the start, ascending; every series has a value at each).

    Nothing to draw (no value above 0) gives the chart `empty`, saying why. The value axis runs from 0 to a round
    value at or above the largest (`binary`: in powers of 1024, for bytes; `whole`: whole steps, for counts), the
    time axis from 0 to the last
    time. At most HOVERS hover targets, each over a stretch of points and named by `hover_label(i)` of the point
    of the stretch with the largest `weight(i)` (by default the sum of the series at i): a peak is what a hover
    shows; with `stride` 2 the points come in pairs (a step's start and end, drawn as stairs) that a hover
    target never splits. `row(i)` is that point's row in the chart's table. `bands` are stretches of time
    marked under the lines: (from, to, value, label), at most BANDS of them (the caller merges).
    """
    top = max((value for series in data for value in series.values), default=0.0)
    if not times or top <= 0:
        return LineChart(name, title, empty=empty)
    levels = nice_levels(top, binary=binary, whole=whole)
    left, right = _LINE_LEFT, LINE_WIDTH - _LINE_RIGHT
    base, ceiling = LINE_HEIGHT - _LINE_BOTTOM, _LINE_TOP
    span = times[-1] if times[-1] > 0 else 1.0

    def x_of(t: float) -> float:
        return round(left + t / span * (right - left), 1)

    def y_of(value: float) -> float:
        return round(base - value / levels[-1] * (base - ceiling), 1)

    solid = sum(1 for series in data if not series.dashed)
    drawn = []
    for series in data:
        indexes = decimated(series.values)
        points = " ".join(f"{x_of(times[i])},{y_of(series.values[i])}" for i in indexes)
        area = ""
        if solid == 1 and not series.dashed:
            area = f"{x_of(times[indexes[0]])},{base} {points} {x_of(times[indexes[-1]])},{base}"
        drawn.append(Series(series.key, series.label, points, len(indexes), series.tone % TONES, series.dashed, area))
    ticks = []
    for t in time_ticks(span):
        x = x_of(t)
        ticks.append(Tick(x, tick_label(t), "end" if right - x < 24 else "start" if x - left < 12 else "middle"))
    weigh = weight or (lambda index: sum(series.values[index] for series in data))
    units = len(times) // stride
    groups = min(units, HOVERS)
    starts = [group * units // groups * stride for group in range(groups)] + [len(times)]
    bounds = [float(left)] + [
        (x_of(times[start - 1]) + x_of(times[start])) / 2 for start in starts[1:-1]
    ] + [float(right)]  # fmt: skip
    hovers, rows = [], []
    for group in range(groups):
        peak = max(range(starts[group], starts[group + 1]), key=weigh)
        x = round(bounds[group], 1)
        hovers.append(Hover(x, round(max(bounds[group + 1] - bounds[group], 0.5), 1), times[peak], hover_label(peak)))
        rows.append(row(peak))
    marked = tuple(
        Band(x_of(start), round(max(x_of(end) - x_of(start), 2.0), 1), value, label)
        for start, end, value, label in bands[:BANDS]
    )
    return LineChart(
        name,
        title,
        tuple(drawn),
        levels=tuple(Level(y_of(level), level_label(level)) for level in levels),
        ticks=tuple(ticks),
        hovers=tuple(hovers),
        bands=marked,
        band_label=band_label,
        axis_label=axis_label,
        caption=caption,
        alert=alert,
        more=more,
        headers=headers,
        rows=tuple(rows),
    )
