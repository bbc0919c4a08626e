"""A fleet report as text (one row per target, worst first, then the targets that could not be read) and as
JSON (`rediscipline.fleet`: a summary, and each target with its whole `rediscipline.report` document)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from rich.text import Text as RichText

from rediscipline.model.display import QUOTE_LIMIT, cut_text, display_text, inert, json_safe
from rediscipline.model.fleet import FLEET_SCHEMA, FleetReport, TargetResult
from rediscipline.model.severity import Severity
from rediscipline.model.units import human_bytes
from rediscipline.render.html.fleet import render_fleet_html
from rediscipline.render.json_output import report_to_dict
from rediscipline.render.labels import SEVERITY, label
from rediscipline.render.text import console_for
from rediscipline.render.text_live import table

FleetRenderer = Callable[[FleetReport, TextIO, str, bool], None]


def _by_severity(target: TargetResult) -> dict[Severity, int]:
    return target.report.count_by_severity() if target.report is not None else {}


def _memory(target: TargetResult) -> int | None:
    keyspace = target.report.stats.keyspace if target.report is not None else None
    return keyspace.memory if keyspace is not None and "memory" in keyspace.measured else None


def _tags(target: TargetResult) -> str:
    return ", ".join(f"{name}={value}" for name, value in target.tags)


def render_fleet_text(fleet: FleetReport, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    console = console_for(stream, color)
    failed = fleet.failed
    console.print(RichText(label("fleet-title", lang, n=len(fleet.targets), failed=len(failed)), style="bold"))
    severities = sorted(Severity, reverse=True)
    rows = []
    for target in fleet.targets:
        counts = _by_severity(target)
        report = target.report
        score = report.stats.score if report is not None else None
        memory = _memory(target)
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
    by_severity: dict[str, int] = {}
    for target in fleet.targets:
        for severity, count in _by_severity(target).items():
            by_severity[severity.label] = by_severity.get(severity.label, 0) + count
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
        "memory": _memory(target),
        "findings": len(report.findings) if report is not None else None,
        "by_severity": {s.label: n for s, n in sorted(_by_severity(target).items(), reverse=True)},
        "report": report_to_dict(report, lang) if report is not None else None,
    }


def render_fleet_json(fleet: FleetReport, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    stream.write(json_safe(json.dumps(fleet_to_dict(fleet, lang), ensure_ascii=False, indent=2)))
    stream.write("\n")


FLEET_RENDERERS: dict[str, FleetRenderer] = {
    "text": render_fleet_text,
    "json": render_fleet_json,
    "html": render_fleet_html,
}

__all__ = ["FLEET_RENDERERS", "fleet_to_dict", "render_fleet_json", "render_fleet_text"]
