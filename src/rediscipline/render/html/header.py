"""The head of the page: what was read, with what, when, how it scored, and what could not be checked."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rediscipline.model.display import QUOTE_LIMIT, TEXT_LIMIT, display_text, inert
from rediscipline.model.report import Report
from rediscipline.model.severity import Severity
from rediscipline.render.html.page import written_at
from rediscipline.render.html.words import word
from rediscipline.render.labels import SEVERITY, label
from rediscipline.render.notes import note_text
from rediscipline.render.numbers import score_grade
from rediscipline.render.sites import shown_path

#: Inputs the header names one by one; more are counted.
INPUTS_SHOWN = 5


@dataclass(frozen=True, slots=True)
class SeverityCount:
    severity: str
    word: str
    count: int


@dataclass(frozen=True, slots=True)
class Header:
    target: str
    version: str
    preset: str
    time: str
    took: str
    score: int | None
    score_class: str
    counts: tuple[SeverityCount, ...]
    keys: str
    flagged: str
    rules_ran: str
    partial: str
    notes: tuple[str, ...]


def _target(report: Report) -> str:
    server = report.stats.server
    if server is not None:
        return display_text(server.address)
    inputs = [shown_path(path) for path in report.run.inputs[:INPUTS_SHOWN]]
    more = len(report.run.inputs) - len(inputs)
    return ", ".join(inputs) + (f" (+{more:,})" if more > 0 else "")


def _version(report: Report) -> str:
    server = report.stats.server
    if server is None:
        return ""
    role = f" ({display_text(server.role, QUOTE_LIMIT)})" if server.role else ""
    return f"{display_text(server.flavor, QUOTE_LIMIT)} {display_text(server.version, QUOTE_LIMIT)}{role}"


def severity_counts(counts: Mapping[Severity, int], lang: str) -> tuple[SeverityCount, ...]:
    """The findings by severity, most severe first, each with its word in `lang`."""
    return tuple(
        SeverityCount(severity.label, SEVERITY[severity].in_(lang), counts.get(severity, 0))
        for severity in sorted(Severity, reverse=True)
    )


def header(report: Report, lang: str) -> Header:
    stats = report.stats
    server = stats.server
    keys = ""
    if stats.keys or stats.keyspace is not None or server is not None:
        keys = label("scanned", lang, keys=f"{stats.keys:,}", patterns=f"{stats.patterns:,}")
    preset = display_text(report.run.preset, QUOTE_LIMIT)
    if report.run.overlays:
        preset += " + " + " + ".join(display_text(overlay, QUOTE_LIMIT) for overlay in report.run.overlays)
    return Header(
        target=_target(report),
        version=_version(report),
        preset=preset,
        time=written_at(),
        took=word("took", lang, seconds=f"{stats.elapsed_seconds:,.2f}"),
        score=stats.score if (stats.keyspace is not None or server is not None) else None,
        score_class="" if stats.score is None else score_grade(stats.score),
        counts=severity_counts(report.count_by_severity(), lang),
        keys=keys,
        flagged=label("flagged", lang, n=f"{stats.keys_flagged:,}") if stats.keys_flagged else "",
        rules_ran=word("rules-ran", lang, n=report.run.rules_enabled),
        partial=word("partial", lang, reasons=display_text(", ".join(server.partial), TEXT_LIMIT))
        if server is not None and server.partial
        else "",
        notes=tuple(inert(note_text(note, lang)) for note in report.notes),
    )
