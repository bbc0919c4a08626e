"""SARIF 2.1.0 output (`--format sarif`) for GitHub code scanning and other SARIF viewers (docs/sarif.md).

Follows what GitHub code scanning accepts: one run, stable `ruleId`s with their documentation as `help`,
paths relative to the repository root (`%SRCROOT%`), regions with 1-based lines and columns, and our own
fingerprint in `partialFingerprints` so an alert keeps its identity when lines move. Findings about key
patterns on a server or in a dump have no line of source: they get a logical location (and the dump or key
file as an artifact without a region). At most 25,000 results per run, the most severe first.

Result messages are plain text (`message.text`; no result carries a Markdown message): escaped and bounded
by `model.display.inert`, with literal `[` and `]` escaped as SARIF requires of plain-text messages, so a
key like `[x](https://…)` cannot become an embedded link. Names are written by `render.names` (bounded; a
cut example key has its length, and its exact bytes are in the JSON report).
"""

from __future__ import annotations

import json
import os
from pathlib import PurePath
from typing import Any, TextIO
from urllib.parse import quote

from rediscipline.model.display import NAME_LIMIT, cut_text, inert, json_safe
from rediscipline.model.finding import Finding
from rediscipline.model.location import FILE_SOURCES, SOURCE_KEYS, SOURCE_RDB, Location
from rediscipline.model.report import Report, RuleMeta
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.render.citations import with_citations
from rediscipline.render.libraries import library_fields, with_advice
from rediscipline.render.names import name_fields
from rediscipline.render.notes import note_text
from rediscipline.render.sites import (
    is_file_path,
    is_site,
    path_bytes,
    relative_path,
    shown_path,
)

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/rediscipline/rediscipline"
RULE_DOC_URI = INFORMATION_URI + "/blob/main/docs/rules/{id}-{slug}.md"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "rediscipline/v1"
MAX_RESULTS = 25_000  # GitHub code scanning's limit per run; it shows the 5,000 most severe

LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}
PROBLEM_SEVERITY = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "recommendation"}
# GitHub's 0–10 scale (9+ critical, 7–8.9 high, 4–6.9 medium, below low), for security rules only.
SECURITY_SEVERITY = {Severity.ERROR: "8.0", Severity.WARNING: "5.0", Severity.NOTE: "2.0"}
# How often a finding of the family is a true problem. Command calls are read straight from the call;
# key names, config values and security settings from literals and templates; the rest judge sizes, TTLs
# and loops that static analysis or sampling can only partly see.
PRECISION = {"CMD": "very-high", "KEY": "high", "CFG": "high", "SEC": "high", "SUP": "very-high"}
DEFAULT_PRECISION = "medium"
FILE_ARTIFACT_SOURCES = frozenset({SOURCE_RDB, SOURCE_KEYS})  # point at the file, but at no line in it

TRUNCATED = Text(
    "{dropped:,} of {total:,} results were left out: GitHub code scanning accepts at most {limit:,} per run. "
    "The {limit:,} kept are the most severe; see the text or JSON report for all of them.",
    "共 {total:,} 个结果，省略了 {dropped:,} 个：GitHub 代码扫描每次运行最多接受 {limit:,} 个。"
    "保留的 {limit:,} 个是最严重的；完整结果见文本或 JSON 报告。",
)


def _section(doc: str, title: str) -> str:
    """The body of a `## title` section of a rule docstring (rules' own parser is out of reach here)."""
    lines: list[str] = []
    inside = False
    for line in doc.splitlines():
        if line.startswith("## "):
            if inside:
                break
            inside = line[3:].strip() == title
        elif inside:
            lines.append(line)
    return "\n".join(lines).strip()


def _rule(meta: RuleMeta, lang: str) -> dict[str, Any]:
    title = meta.title.in_(lang)
    doc = meta.doc or title
    properties: dict[str, Any] = {
        "tags": [meta.family, "redis"] + (["security"] if meta.family == "SEC" else []),
        "precision": PRECISION.get(meta.family, DEFAULT_PRECISION),
        "problem.severity": PROBLEM_SEVERITY[meta.severity],
    }
    if meta.family == "SEC":
        properties["security-severity"] = SECURITY_SEVERITY[meta.severity]
    return {
        "id": meta.id,
        "name": meta.slug,
        "shortDescription": {"text": title},
        "fullDescription": {"text": _section(doc, "What it does") or title},
        "help": {
            "text": with_citations(doc, meta.citations, lang, markdown=False),
            "markdown": with_citations(doc, meta.citations, lang),
        },
        "helpUri": RULE_DOC_URI.format(id=meta.id, slug=meta.slug),
        "defaultConfiguration": {"level": LEVEL[meta.severity]},
        "properties": properties,
    }


def artifact_location(path: str, cwd: str) -> dict[str, str]:
    """A relative, percent-encoded URI under `%SRCROOT%`, or a `file://` URI for a path outside `cwd`."""
    posix, relative = relative_path(path, cwd)
    if not relative:
        return {"uri": _file_uri(path)}
    return {"uri": quote(path_bytes(posix), safe="/"), "uriBaseId": SRCROOT}


def _region(location: Location) -> dict[str, int] | None:
    if location.line is None:
        return None
    region = {"startLine": location.line}
    if location.column is not None:
        region["startColumn"] = location.column
    if location.end_line is not None:
        region["endLine"] = location.end_line
    if location.end_column is not None:
        region["endColumn"] = location.end_column
    return region


def message_text(text: str) -> str:
    """A plain-text SARIF message: escaped and bounded, `[` and `]` escaped so no embedded link is formed."""
    return inert(text).replace("[", "\\[").replace("]", "\\]")


def _subject_name(finding: Finding) -> str | None:
    if finding.pattern is not None:
        return str(name_fields("pattern", finding.pattern)["pattern"])
    return None if finding.subject is None else cut_text(finding.subject, NAME_LIMIT)


def _physical(location: Location, cwd: str) -> dict[str, Any]:
    assert location.path is not None
    physical: dict[str, Any] = {"artifactLocation": artifact_location(location.path, cwd)}
    region = _region(location)
    if region is not None:
        physical["region"] = region
    return {"physicalLocation": physical}


def _location(finding: Finding, cwd: str) -> dict[str, Any]:
    location = finding.location
    path = location.path
    if is_site(finding):
        return _physical(location, cwd)
    scope = shown_path(path) if path else location.source
    if location.db is not None:
        scope += f"/db{location.db}"
    name = _subject_name(finding)
    logical: dict[str, str] = {"kind": "resource", "fullyQualifiedName": f"{scope}/{name}" if name else scope}
    if name:
        logical["name"] = name
    out: dict[str, Any] = {"logicalLocations": [logical]}
    if location.source in FILE_ARTIFACT_SOURCES and is_file_path(path):
        assert path is not None
        out["physicalLocation"] = {"artifactLocation": artifact_location(path, cwd)}
    return out


def _result(finding: Finding, index: dict[str, int], lang: str, cwd: str) -> dict[str, Any]:
    result: dict[str, Any] = {"ruleId": finding.rule_id}
    if finding.rule_id in index:
        result["ruleIndex"] = index[finding.rule_id]
    result["level"] = LEVEL[finding.severity]
    result["message"] = {"text": message_text(with_advice(finding.message.in_(lang), finding.library, lang))}
    result["locations"] = [_location(finding, cwd)]
    if finding.related and is_site(finding):
        result["relatedLocations"] = [
            {"id": number, **_physical(location, cwd)} for number, location in enumerate(finding.related, 1)
        ]
    result["partialFingerprints"] = {FINGERPRINT_KEY: finding.fingerprint}
    properties: dict[str, Any] = {"code": finding.code}
    if finding.context is not None:
        properties["context"] = finding.context
    if finding.library is not None:
        properties["library"] = library_fields(finding.library, lang)
    if finding.pattern is not None:
        properties.update(name_fields("pattern", finding.pattern))
        properties["count"] = finding.count
    if finding.subject is not None:
        properties["subject"] = cut_text(finding.subject, NAME_LIMIT)
    if finding.namespace is not None:
        properties["namespace"] = cut_text(finding.namespace, NAME_LIMIT)
    if finding.examples and finding.location.source not in FILE_SOURCES:
        properties["examples"] = [name_fields("key", e.name) for e in finding.examples]
    result["properties"] = properties
    return result


def _kept(findings: tuple[Finding, ...]) -> list[Finding]:
    """The findings written: all of them, or the MAX_RESULTS most severe (report order among equals)."""
    if len(findings) <= MAX_RESULTS:
        return list(findings)
    order = sorted(range(len(findings)), key=lambda i: -findings[i].severity)[:MAX_RESULTS]
    return [findings[i] for i in sorted(order)]


def _run_properties(report: Report, lang: str) -> dict[str, Any]:
    run = report.run
    properties: dict[str, Any] = {
        "command": run.command,
        "inputs": [shown_path(path) for path in run.inputs],
        "preset": run.preset,
        "overlays": list(run.overlays),
        "configFile": run.config_file,
        "rulesEnabled": run.rules_enabled,
        "lang": lang,
    }
    if report.stats.server is not None:
        properties["server"] = cut_text(report.stats.server.address)
    return properties


def sarif_log(report: Report, lang: str = "en", cwd: str | None = None) -> dict[str, Any]:
    """The SARIF log as a dict; `cwd` (default: the current directory) is the root relative paths use."""
    root = os.getcwd() if cwd is None else cwd
    metas = [report.rules[rule_id] for rule_id in sorted(report.rules)]
    index = {meta.id: position for position, meta in enumerate(metas)}
    kept = _kept(report.findings)
    results = [_result(finding, index, lang, root) for finding in kept]
    notifications = [
        {"level": "note", "message": {"text": message_text(note_text(note, lang))}} for note in report.notes
    ]
    dropped = len(report.findings) - len(kept)
    if dropped:
        text = TRUNCATED.in_(lang).format(dropped=dropped, total=len(report.findings), limit=MAX_RESULTS)
        notifications.append({"level": "warning", "message": {"text": text}})
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "rediscipline",
                "informationUri": INFORMATION_URI,
                "semanticVersion": report.run.tool_version,
                "rules": [_rule(meta, lang) for meta in metas],
            }
        },
        "invocations": [invocation],
        "columnKind": "unicodeCodePoints",
    }
    if any(_under_srcroot(result) for result in results):
        run["originalUriBaseIds"] = {SRCROOT: {"uri": _file_uri(root).rstrip("/") + "/"}}
    run["results"] = results
    run["properties"] = _run_properties(report, lang)
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def _file_uri(path: str) -> str:
    """`file://` URI of an absolute path (percent-encoded bytes, so non-UTF-8 names survive)."""
    return PurePath(os.path.normpath(path)).as_uri()


def _under_srcroot(result: dict[str, Any]) -> bool:
    physical = result["locations"][0].get("physicalLocation", {})
    return bool(physical.get("artifactLocation", {}).get("uriBaseId") == SRCROOT)


def render_sarif(report: Report, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    stream.write(json_safe(json.dumps(sarif_log(report, lang), ensure_ascii=False, indent=2)))
    stream.write("\n")


__all__ = ["MAX_RESULTS", "SARIF_SCHEMA", "artifact_location", "message_text", "render_sarif", "sarif_log"]
