"""The text report's table of key patterns: keys, memory, TTL coverage, types and the library that wrote them.

The report has every pattern (the JSON lists them all); the table lists the `RunInfo.patterns_shown` with the
most keys (`--patterns N`, `all`) and says how many it left out and whether the pattern cap was reached.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text as RichText

from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, display_bytes, display_text
from rediscipline.model.report import PatternStat, Report
from rediscipline.render.labels import label
from rediscipline.render.libraries import library_name
from rediscipline.render.numbers import human_bytes, share
from rediscipline.render.text_live import table


def _types(row: PatternStat) -> str:
    if not row.types:
        return "?"
    shown = ", ".join(display_text(name, QUOTE_LIMIT) for name, _keys in row.types[:3])
    return shown + (" …" if len(row.types) > 3 else "")


def _library(row: PatternStat) -> str:
    return display_text(library_name(row.library) or "-", QUOTE_LIMIT)


def patterns_section(report: Report, console: Console, lang: str) -> None:
    stats = report.stats
    rows = stats.pattern_stats
    shown = report.run.patterns_shown
    if not rows or shown == 0:
        return
    listed = rows if shown is None else rows[:shown]
    columns: list[tuple[str, Callable[[PatternStat], str], bool]] = [
        (label("keys-column", lang), lambda row: f"{row.count:,}", True),
        (label("memory", lang), lambda row: human_bytes(row.memory), any(r.memory is not None for r in rows)),
        ("TTL", lambda row: share(row.ttl_coverage), any(r.with_ttl is not None for r in rows)),
        (label("types", lang), _types, any(r.types for r in rows)),
        (label("library", lang), _library, any(r.library for r in rows)),
    ]
    kept = [(header, cell) for header, cell, measured in columns if measured]  # a column no key measured: left out
    headers = (label("pattern", lang), *(header for header, _cell in kept))
    cells = [(display_bytes(row.pattern, NAME_LIMIT), *(cell(row) for _header, cell in kept)) for row in listed]
    title = label("patterns-title", lang, shown=f"{len(listed):,}", total=f"{stats.patterns:,}")
    table(console, title, headers, cells)
    if len(listed) < len(rows):
        console.print(RichText("  " + label("patterns-more", lang, n=f"{len(rows) - len(listed):,}"), style="dim"))
    if stats.overflow_keys:
        console.print(
            RichText(
                "  " + label("patterns-capped", lang, cap=f"{stats.pattern_cap:,}", n=f"{stats.overflow_keys:,}"),
                style="bold yellow",
            )
        )
