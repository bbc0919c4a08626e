"""Chart geometry: numbers in, shapes out. The templates draw them as SVG; no chart library runs in the page.

Three shapes cover every chart of the report:

* `BarChart`, sorted horizontal bars: one row per label, the label and the value as HTML text beside a bar
  drawn in a small SVG (so long key names wrap, select and copy like text); a row may open onto a
  `BarChart` of its own (a namespace onto its patterns).
* `ColumnChart`, columns over an axis (key sizes, the expiry timeline): one SVG, one mark per non-zero
  value, ticks under the axis; a column far above the typical one is marked hot (an expiry cliff).
* `SplitChart`, a 100% bar cut in two per row (TTL coverage of keys and of memory).

Every mark carries its value (`data-value`) and a `<title>` with its label, and every chart has a table of
the same numbers for screen readers and print. All labels arrive already display-escaped (`model.display`);
the templates' autoescaping makes them text.
"""

from __future__ import annotations

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


def empty_bars(name: str, title: str, why: str) -> BarChart:
    return BarChart(name, title, empty=why)


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
