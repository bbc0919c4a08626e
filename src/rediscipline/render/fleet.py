"""A fleet report as text (one row per target, worst first, then the targets that could not be read), as
JSON (`rediscipline.fleet`: a summary, and each target with its whole `rediscipline.report` document), and as
Markdown (the targets that could not be read, then the table; bounded as `render.markdown` bounds a report)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from rich.text import Text as RichText

from rediscipline.model.display import QUOTE_LIMIT, TEXT_LIMIT, cut_text, display_text, inert
from rediscipline.model.fleet import FLEET_SCHEMA, FleetReport, TargetResult
from rediscipline.model.severity import Severity
from rediscipline.model.units import human_bytes
from rediscipline.render.html.fleet import render_fleet_html
from rediscipline.render.json_output import dump_document, report_to_dict
from rediscipline.render.labels import SEVERITY, label
from rediscipline.render.markdown import DOCUMENT_LIMIT, code, fitting, size, table_head, table_row
from rediscipline.render.markdown_escape import md
from rediscipline.render.text import console_for
from rediscipline.render.text_live import table

FleetRenderer = Callable[[FleetReport, TextIO, str, bool], None]


def _tags(target: TargetResult) -> str:
    return ", ".join(f"{name}={value}" for name, value in target.tags)


def render_fleet_text(fleet: FleetReport, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    console = console_for(stream, color)
    failed = fleet.failed
    console.print(RichText(label("fleet-title", lang, n=len(fleet.targets), failed=len(failed)), style="bold"))
    severities = sorted(Severity, reverse=True)
    rows = []
    for target in fleet.targets:
        counts = target.count_by_severity()
        report = target.report
        score = report.stats.score if report is not None else None
        memory = target.memory
        rows.append((
            display_text(target.name, QUOTE_LIMIT),
            display_text(_tags(target), QUOTE_LIMIT),
            label("target-failed" if report is None else "target-read", lang),
            "-" if score is None else str(score),
            "-" if report is None else f"{report.stats.keys:,}",
            "-" if memory is None else human_bytes(memory),
            *(str(counts.get(severity, 0)) if report is not None else "-" for severity in severities),
        ))  # fmt: skip
    headers = (
        label("target", lang), label("tags", lang), label("status", lang), label("score-column", lang),
        label("keys-column", lang), label("memory", lang),
        *(SEVERITY[severity].in_(lang) for severity in severities),
    )  # fmt: skip
    table(console, "", headers, rows)
    for target in failed:
        line = f"{display_text(target.name, QUOTE_LIMIT)}: {inert(target.error or '')}"
        console.print(RichText(line, style="red"))


def fleet_to_dict(fleet: FleetReport, lang: str = "en") -> dict[str, Any]:
    worst = fleet.max_severity()
    by_severity = {severity.label: count for severity, count in fleet.count_by_severity().items()}
    return {
        "schema": FLEET_SCHEMA,
        "schema_version": fleet.schema_version,
        "tool": {"name": "rediscipline", "version": fleet.tool_version},
        "run": {
            "command": fleet.command,
            "preset": fleet.preset,
            "lang": lang,
            "elapsed_seconds": fleet.elapsed_seconds,
        },
        "summary": {
            "targets": len(fleet.targets),
            "failed": len(fleet.failed),
            "by_severity": by_severity,
            "max_severity": worst.label if worst is not None else None,
        },
        "targets": [_target(target, lang) for target in fleet.targets],
    }


def _target(target: TargetResult, lang: str) -> dict[str, Any]:
    report = target.report
    return {
        "name": cut_text(target.name, QUOTE_LIMIT),
        "tags": {cut_text(name, QUOTE_LIMIT): cut_text(value, QUOTE_LIMIT) for name, value in target.tags},
        "inputs": [cut_text(item) for item in target.inputs],
        "status": "ok" if report is not None else "error",
        "error": None if target.error is None else cut_text(target.error),
        "score": report.stats.score if report is not None else None,
        "keys": report.stats.keys if report is not None else None,
        "memory": target.memory,
        "findings": len(report.findings) if report is not None else None,
        "by_severity": {s.label: n for s, n in sorted(target.count_by_severity().items(), reverse=True)},
        "report": report_to_dict(report, lang) if report is not None else None,
    }


def render_fleet_json(fleet: FleetReport, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    stream.write(dump_document(fleet_to_dict(fleet, lang)))
    stream.write("\n")


#: Targets the Markdown table lists at most, worst first.
FLEET_ROWS = 100
#: The share of the document the targets that could not be read may take.
FAILED_SHARE = 0.3


def _failed_lines(fleet: FleetReport, lang: str, budget: int) -> list[str]:
    """A warning listing the targets that could not be read, and why: the fleet's results are partial."""
    failed = fleet.failed
    if not failed:
        return []
    items = (f"> - {code(display_text(t.name, QUOTE_LIMIT))}: {md(inert(t.error or '', TEXT_LIMIT))}" for t in failed)
    kept, left = fitting(items, budget - 200)
    if left:
        kept.append("> - " + md(label("md-more-targets", lang, n=f"{left:,}")))
    return ["> [!WARNING]", f"> **{md(label('md-not-read', lang))}**", ">", *kept, ""]


def _fleet_row(target: TargetResult, lang: str, severities: list[Severity]) -> str:
    report = target.report
    counts = target.count_by_severity()
    score = report.stats.score if report is not None else None
    memory = target.memory
    tags = _tags(target)
    return table_row((
        code(display_text(target.name, QUOTE_LIMIT)),
        code(display_text(tags, QUOTE_LIMIT)) if tags else "",
        md(label("target-failed" if report is None else "target-read", lang), cell=True),
        "–" if score is None else str(score),
        "–" if report is None else f"{report.stats.keys:,}",
        "–" if memory is None else human_bytes(memory),
        *(f"{counts.get(severity, 0):,}" if report is not None else "–" for severity in severities),
    ))  # fmt: skip


def fleet_markdown(fleet: FleetReport, lang: str = "en", limit: int = DOCUMENT_LIMIT) -> str:
    """The fleet as Markdown: who could not be read, the preset, then one row per target, worst first."""
    title = label("fleet-title", lang, n=len(fleet.targets), failed=len(fleet.failed))
    head = [f"### {md(title)}", ""]
    head += _failed_lines(fleet, lang, int(limit * FAILED_SHARE))
    preset = f"- **{md(label('md-preset', lang))}:** {md(display_text(fleet.preset, QUOTE_LIMIT), code=True)} · "
    head += [preset + md(f"{fleet.command} · rediscipline {fleet.tool_version}"), ""]
    severities = sorted(Severity, reverse=True)
    headers = (
        label("target", lang), label("tags", lang), label("status", lang), label("score-column", lang),
        label("keys-column", lang), label("memory", lang), *(SEVERITY[s].in_(lang) for s in severities),
    )  # fmt: skip
    table = table_head(headers, ("left", "left", "left", *("right",) * (len(headers) - 3)))
    budget = limit - sum(size(line) + 1 for line in (*head, *table)) - 300
    shown = fleet.targets[:FLEET_ROWS]
    rows, left = fitting((_fleet_row(target, lang, severities) for target in shown), budget)
    lines = [*head, *table, *rows, ""]
    more = left + len(fleet.targets) - len(shown)
    if more:
        lines.append(md(label("md-more-targets", lang, n=f"{more:,}")))
    return "\n".join(lines).rstrip("\n") + "\n"


def render_fleet_markdown(fleet: FleetReport, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    stream.write(fleet_markdown(fleet, lang))


FLEET_RENDERERS: dict[str, FleetRenderer] = {
    "text": render_fleet_text,
    "json": render_fleet_json,
    "html": render_fleet_html,
    "markdown": render_fleet_markdown,
}

__all__ = ["FLEET_RENDERERS", "fleet_markdown", "fleet_to_dict", "render_fleet_json", "render_fleet_text"]
