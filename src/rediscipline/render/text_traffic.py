"""The text report's traffic section: each window a `rediscipline traffic` run observed, as `render.traffic`
words it (the window, the commands by calls and by CPU, errors, counters, clients, slow calls, hot keys,
queues, and the sources with what they cannot see)."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.text import Text as RichText

from rediscipline.model.traffic import TrafficView
from rediscipline.render.text_live import table
from rediscipline.render.traffic import Items, Line, Table, TrafficSection, traffic_section

_LINE_STYLE = {"heading": "bold", "warning": "bold yellow", "text": ""}


def traffic_sections(views: Sequence[TrafficView], console: Console, lang: str) -> None:
    """Every window of the report, one after the other (cells come escaped and bounded)."""
    for view in views:
        print_section(traffic_section(view, lang), console)


def print_section(section: TrafficSection, console: Console) -> None:
    """A section of parts (a traffic window's, a simulation's): its title, then each line, list and table."""
    console.print(RichText(section.title, style="bold"))
    after_table = False
    for part in section.parts:
        if isinstance(part, Table):
            console.print()
            table(console, part.title, part.headers, part.rows, part.names)
            after_table = True
            continue
        if after_table:
            console.print()
            after_table = False
        if isinstance(part, Line):
            indent = "" if part.kind == "heading" else "  "
            console.print(RichText(indent + part.text, style=_LINE_STYLE[part.kind]))
        elif isinstance(part, Items):
            for line in part.lines:
                console.print(RichText("  " + line, style="dim"))
    console.print()


__all__ = ["print_section", "traffic_sections"]
