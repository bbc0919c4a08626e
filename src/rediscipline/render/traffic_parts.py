"""The pieces a report's traffic section is made of (`render.traffic`, `render.traffic_sample`): lines, lists
and tables of cells already escaped and bounded, and how their numbers and names are written."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from rediscipline.model.display import QUOTE_LIMIT, display_text

#: Rows of each table at most: commands by calls and by CPU, error prefixes, slow calls, hot keys, queues,
#: the MONITOR sample's shapes (the JSON report has every item the view kept).
ROWS = 10


@dataclass(frozen=True, slots=True)
class Line:
    """A line of the section: `heading` (a part's title), `text` or `warning` (the counters went backwards)."""

    text: str
    kind: str = "text"


@dataclass(frozen=True, slots=True)
class Items:
    """A list of lines (the sources and their blind spots)."""

    lines: tuple[str, ...]
    kind: str = "items"


@dataclass(frozen=True, slots=True)
class Table:
    """A table of cells already escaped and bounded; `names` are the columns holding outside text (shown as
    names: left-aligned, in code spans or a monospace font), the others hold numbers."""

    name: str
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    names: frozenset[int] = field(default_factory=lambda: frozenset({0}))
    kind: str = "table"


Part = Line | Items | Table


@dataclass(frozen=True, slots=True)
class TrafficSection:
    """One window: `title` names the server (`address`) and the window (`window`: how long, from when)."""

    title: str
    address: str
    window: str
    parts: tuple[Part, ...]


def utc(seconds: float, layout: str = "%Y-%m-%d %H:%M:%S UTC") -> str:
    """A time of the server's clock (Unix seconds) in UTC: reports do not depend on where they are written."""
    try:
        return datetime.fromtimestamp(seconds, tz=timezone.utc).strftime(layout)
    except (OverflowError, OSError, ValueError):
        return "?"


def rate(value: float) -> str:
    return f"{value:,.1f}"


def duration(usec: float) -> str:
    """CPU time for people: `850 µs`, `12.3 ms`, `1.25 s`."""
    if usec < 1000:
        return f"{usec:,.0f} µs"
    if usec < 1_000_000:
        return f"{usec / 1000:,.1f} ms"
    return f"{usec / 1_000_000:,.2f} s"


def count(value: int | None) -> str:
    return "?" if value is None else f"{value:,}"


def seconds_text(value: int | None) -> str:
    return "?" if value is None else f"{value:,} s"


def word(text: str) -> str:
    """A short name the server gave (a command, an error prefix, a class)."""
    return display_text(text, QUOTE_LIMIT)
