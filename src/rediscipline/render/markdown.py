"""Markdown output (`--format markdown`): a compact report for pull-request comments, wikis and the step
summary of a GitHub Actions job (`>> "$GITHUB_STEP_SUMMARY"`), in GitHub-flavoured Markdown.

The document holds a summary (what was read, the preset, the score, the findings by severity, the keys and
patterns, and the notes that say what could not be checked, led by a warning when the results are partial),
a table of the findings in the report's own order (most worth fixing first) with their rules' cited
sources, for scans a short keyspace block, and for a `traffic` run its windows as `render.traffic` words them
(cut at TRAFFIC_SHARE of the document). It stays bounded whatever the report: at most FINDING_ROWS
findings, and at most DOCUMENT_LIMIT characters counted as GitHub counts them (UTF-16 code units), well
under the 65,536 a comment may hold; what is left out is counted and the JSON report named.

Every string someone else wrote is shown as every renderer shows it (`model.display`), then made inert as
Markdown by `markdown_escape.md`, the only escaping in this module: names in code spans, messages and notes
as escaped prose.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TextIO

from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, TEXT_LIMIT, display_bytes, display_text, inert
from rediscipline.model.finding import CONTEXT_TEST, Finding
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.report import LAYOUT_SITES, Report, ServerSummary
from rediscipline.render.labels import SEVERITY, label
from rediscipline.render.libraries import with_advice
from rediscipline.render.markdown_escape import md
from rediscipline.render.notes import note_text
from rediscipline.render.numbers import human_bytes, share
from rediscipline.render.sites import is_site, more_places, path_bytes, relative_path
from rediscipline.render.text_sites import LABELS as SITE_LABELS
from rediscipline.render.text_sites import site_count
from rediscipline.render.traffic import Items, Part, Table, traffic_section

#: The most characters (UTF-16 code units, as GitHub counts them) a Markdown report holds.
DOCUMENT_LIMIT = 50_000
#: The findings the table lists at most, in the report's order.
FINDING_ROWS = 50
#: Shares of DOCUMENT_LIMIT the notes, and the sources with the keyspace block, may take at most.
NOTES_SHARE = 0.2
TAIL_SHARE = 0.2
#: Share of DOCUMENT_LIMIT the traffic windows may take at most (their tables are bounded in rows already).
TRAFFIC_SHARE = 0.3
#: Inputs named in the summary, namespaces in the keyspace block, databases on the server line.
INPUTS_SHOWN = 5
NAMESPACES_SHOWN = 5
DBS_SHOWN = 8
#: Characters of a message in the table, and of a note (the JSON report has them whole).
MESSAGE_CELL_LIMIT = 500
NOTE_LIMIT = 1000
_ALIGN = {"left": "---", "right": "--:"}


def size(text: str) -> int:
    """Characters as GitHub counts them: UTF-16 code units."""
    return len(text.encode("utf-16-le")) // 2


def fitting(lines: Iterable[str], budget: int) -> tuple[list[str], int]:
    """The first `lines` that fit together in `budget` (each with its newline), and how many were left out;
    `lines` is read to its end (to count them), so give it bounded input."""
    kept: list[str] = []
    used = 0
    left = 0
    for line in lines:
        cost = size(line) + 1
        if left or used + cost > budget:
            left += 1
            continue
        kept.append(line)
        used += cost
    return kept, left


def table_head(headers: Sequence[str], aligns: Sequence[str]) -> list[str]:
    """The header and delimiter rows of a table; `headers` are our own words, escaped all the same."""
    return [
        "| " + " | ".join(md(header, cell=True) for header in headers) + " |",
        "|" + "|".join(_ALIGN[align] for align in aligns) + "|",
    ]


def table_row(cells: Sequence[str]) -> str:
    """One row of cells already made inert (by `md(..., cell=True)`)."""
    return "| " + " | ".join(cells) + " |"


def code(text: str) -> str:
    """A name in a table cell: a code span."""
    return md(text, code=True, cell=True)


# ---- the summary -------------------------------------------------------------------------------------------


def _partial_lines(server: ServerSummary | None, lang: str) -> list[str]:
    """The warning at the top of a report that covers less than the server holds."""
    if server is None or not (server.partial or server.stopped or server.resume_cursor):
        return []
    lines = ["> [!WARNING]"]
    if server.partial:
        lines.append("> **" + md(label("partial", lang, reasons=", ".join(server.partial))) + "**")
    if server.cluster_masters is not None and server.cluster_masters != 1:
        masters = server.cluster_masters or "?"
        lines.append("> - " + md(label("cluster-node", lang, masters=masters)))
    if server.resumed_from is not None:
        lines.append("> - " + md(label("resumed-from", lang, cursor=display_text(server.resumed_from, QUOTE_LIMIT))))
    if server.stopped:
        lines.append("> - " + md(label("md-stopped", lang, reason=inert(server.stopped, TEXT_LIMIT))))
    if server.resume_cursor:
        lines.append("> - " + md(label("resume", lang, cursor=display_text(server.resume_cursor, QUOTE_LIMIT))))
    return [*lines, ""]


def _server_line(server: ServerSummary, lang: str) -> str:
    parts = [md(display_text(server.flavor, QUOTE_LIMIT) + " " + display_text(server.version, QUOTE_LIMIT))]
    if server.role:
        parts[0] += " (" + md(display_text(server.role, QUOTE_LIMIT)) + ")"
    parts.append(md(display_text(server.address), code=True))
    memory = f"used {human_bytes(server.used_memory)}" if server.used_memory is not None else ""
    if server.maxmemory is not None:
        memory += f" / maxmemory {human_bytes(server.maxmemory) if server.maxmemory else '0 (unset)'}"
    if memory:
        parts.append(md(memory.strip()))
    if server.maxmemory_policy:
        parts.append(md(display_text(server.maxmemory_policy, QUOTE_LIMIT), code=True))
    if server.dbs:
        dbs = ", ".join(f"db{db} {keys:,}" for db, keys in server.dbs[:DBS_SHOWN])
        parts.append(md(dbs + (", …" if len(server.dbs) > DBS_SHOWN else "")))
    return f"- **{md(label('md-server', lang))}:** " + " · ".join(parts)


def _inputs_line(report: Report, lang: str) -> str | None:
    inputs = report.run.inputs
    if not inputs or report.stats.server is not None:  # a server: its address is on the server line
        return None
    shown = [md(display_bytes(path_bytes(path), NAME_LIMIT), code=True) for path in inputs[:INPUTS_SHOWN]]
    more = len(inputs) - len(shown)
    if more:
        shown.append(md(label("md-more-inputs", lang, n=f"{more:,}")))
    return f"- **{md(label('md-inputs', lang))}:** " + ", ".join(shown)


def _cluster_line(report: Report, lang: str) -> str | None:
    cluster = report.stats.cluster
    if cluster is None:
        return None
    statuses = [shard.status for shard in cluster.shards]
    counts = {status: statuses.count(status) for status in ("complete", "partial", "failed")}
    text = label("md-shards", lang, n=len(statuses), **counts)
    return f"- **{md(label('md-cluster', lang))}:** " + md(text)


def _summary_lines(report: Report, lang: str, sites: bool) -> list[str]:
    stats, run = report.stats, report.run
    lines = [f"### rediscipline {md(run.command)}", ""]
    lines += _partial_lines(stats.server, lang)
    if stats.server is not None:
        lines.append(_server_line(stats.server, lang))
    for line in (_inputs_line(report, lang), _cluster_line(report, lang)):
        if line is not None:
            lines.append(line)
    preset = md(display_text(run.preset, QUOTE_LIMIT), code=True)
    preset += "".join(" + " + md(display_text(overlay, QUOTE_LIMIT), code=True) for overlay in run.overlays)
    lines.append(
        f"- **{md(label('md-preset', lang))}:** {preset} · "
        + md(f"{run.rules_enabled} {label('rules', lang)} · rediscipline {run.tool_version}")
    )
    if stats.score is not None and (stats.keyspace is not None or stats.server is not None):
        score = f"{stats.score}/100 · " + label("flagged", lang, n=f"{stats.keys_flagged:,}")
        lines.append(f"- **{md(label('md-score', lang))}:** " + md(score))
    if not sites or (stats.keys and run.layout != LAYOUT_SITES):  # code has templates, not keys
        keys = label("scanned", lang, keys=f"{stats.keys:,}", patterns=f"{stats.patterns:,}")
        sampling = stats.keyspace.sampling if stats.keyspace is not None else None
        if sampling is not None:
            population, rate = f"{sampling.population:,}", f"{sampling.rate:.4g}"
            keys += " · " + label("md-sampled", lang, sampled=f"{sampling.sampled:,}", population=population, rate=rate)
        lines.append(f"- **{md(label('md-keys', lang))}:** " + md(keys))
    counts = report.count_by_severity()
    by_severity = " · ".join(f"{SEVERITY[s].in_(lang)} {counts[s]:,}" for s in sorted(counts, reverse=True))
    total = len(report.findings)
    count = site_count(total, lang) if sites else label("finding-count", lang, n=f"{total:,}")
    lines.append(f"- **{md(label('md-findings', lang))}:** " + md(f"{by_severity} · {count}"))
    return [*lines, ""]


def _note_lines(report: Report, lang: str, budget: int) -> list[str]:
    if not report.notes:
        return []
    items = (f"- {md(inert(note_text(note, lang), NOTE_LIMIT))}" for note in report.notes)
    kept, left = fitting(items, budget - 200)
    if left:
        kept.append("- " + md(label("md-more-notes", lang, n=f"{left:,}")))
    return [f"**{md(label('notes', lang))}**", "", *kept, ""]


# ---- the findings ------------------------------------------------------------------------------------------


def _place(finding: Finding, lang: str, cwd: str) -> str:
    """Where: `path:line` for a finding in a file (with its key template), else the key pattern or what the
    finding is about (a command, a setting)."""
    parts: list[str] = []
    if is_site(finding):
        location = finding.location
        path = display_bytes(path_bytes(relative_path(location.path or "", cwd)[0]), NAME_LIMIT)
        parts.append(code(path + (f":{location.line}" if location.line is not None else "")))
    if finding.pattern is not None:
        parts.append(code(display_bytes(finding.pattern, NAME_LIMIT)))
    elif finding.subject is not None and not parts:
        parts.append(code(display_text(finding.subject, NAME_LIMIT)))
    if finding.context == CONTEXT_TEST:
        parts.append(md(f"({label('md-test-code', lang)})", cell=True))
    return " · ".join(parts) if parts else "–"


def _count(finding: Finding) -> str:
    if finding.estimate is not None:
        return f"{finding.count:,} (≈ {finding.estimate[0]:,.0f})"
    return f"{finding.count:,}"


def _message(finding: Finding, lang: str) -> str:
    text = with_advice(finding.message.in_(lang), finding.library, lang)
    more = more_places(finding, lang)
    if more is not None:
        text += f" ({more})"
    return md(inert(text, MESSAGE_CELL_LIMIT), cell=True)


def _rule(finding: Finding, report: Report, lang: str) -> str:
    meta = report.rules.get(finding.rule_id)
    name = f"**{md(finding.rule_id, cell=True)}**"
    return name if meta is None else f"{name} {md(meta.title.in_(lang), cell=True)}"


def _row(finding: Finding, report: Report, lang: str, cwd: str) -> str:
    worst = "" if finding.worst is None else f"{finding.worst:,.6g}"
    cells = (
        md(SEVERITY[finding.severity].in_(lang), cell=True),
        _rule(finding, report, lang),
        _place(finding, lang, cwd),
        _count(finding),
        worst,
        _message(finding, lang),
    )
    return table_row(cells)


def _finding_lines(report: Report, lang: str, budget: int, sites: bool, cwd: str) -> list[str]:
    if not report.findings:
        text = SITE_LABELS["no-findings"].in_(lang) if sites else label("no-findings", lang)
        return [md(text), ""]
    headers = tuple(label(name, lang) for name in ("md-severity", "md-rule", "md-place", "md-count", "md-worst"))
    head = table_head((*headers, label("md-message", lang)), ("left", "left", "left", "right", "right", "left"))
    shown = report.findings[:FINDING_ROWS]
    rows, left = fitting((_row(f, report, lang, cwd) for f in shown), budget - sum(size(h) + 1 for h in head) - 300)
    lines = [f"#### {md(label('findings', lang))}", "", *head, *rows, ""]
    more = left + len(report.findings) - len(shown)
    if more:
        lines += [md(label("md-more-findings", lang, n=f"{more:,}")), ""]
    return lines


def _source_lines(report: Report, lang: str, budget: int) -> list[str]:
    """Each rule with findings, in the order of its first finding, with the convention sections it cites."""
    rule_ids = list(dict.fromkeys(finding.rule_id for finding in report.findings))
    items = []
    for rule_id in rule_ids:
        meta = report.rules.get(rule_id)
        if meta is None:
            continue
        sources = " · ".join(md(inert(source, TEXT_LIMIT)) for source in meta.sources)
        slug = md(meta.slug, code=True)
        items.append(f"- **{md(rule_id)}** {slug}: {sources or md(label('md-no-sources', lang))}")
    if not items:
        return []
    kept, left = fitting(items, budget - 200)
    if left:
        kept.append("- " + md(label("md-more-rules", lang, n=f"{left:,}")))
    return [f"#### {md(label('md-sources', lang))}", "", *kept, ""]


# ---- the keyspace ------------------------------------------------------------------------------------------


def _keyspace_lines(keyspace: KeyspaceStats, lang: str) -> list[str]:
    """Keys, memory and TTL coverage in one line, then the namespaces holding the most memory."""
    has_memory = "memory" in keyspace.measured
    memory = human_bytes(keyspace.memory if has_memory else None)
    if keyspace.memory_model:
        memory += " " + label("estimated", lang, model=display_text(keyspace.memory_model, QUOTE_LIMIT))
    coverage = label(
        "ttl-coverage", lang, keys=share(keyspace.ttl_coverage), memory=share(keyspace.memory_ttl_coverage)
    )
    line = label("md-keyspace-line", lang, keys=f"{keyspace.keys:,}", memory=memory, coverage=coverage)
    lines = [f"#### {md(label('keyspace', lang))}", "", md(line), ""]
    if keyspace.not_measured:
        lines += [md(label("not-measured", lang, fields=", ".join(keyspace.not_measured))), ""]
    namespaces = keyspace.namespaces[:NAMESPACES_SHOWN]
    if namespaces:
        headers = (label("namespace", lang), label("keys-column", lang), label("memory", lang))
        lines += table_head(headers, ("left", "right", "right"))
        for bucket in namespaces:
            # a namespace is a declared glob or a pattern's first level, already escaped where not UTF-8
            memory_cell = human_bytes(bucket.memory if has_memory else None)
            lines.append(table_row((code(inert(bucket.label, QUOTE_LIMIT)), f"{bucket.keys:,}", memory_cell)))
        lines.append("")
    return lines


# ---- the traffic windows -----------------------------------------------------------------------------------


def _traffic_part(part: Part) -> list[str]:
    if isinstance(part, Table):
        aligns = tuple("left" if index in part.names else "right" for index in range(len(part.headers)))
        rows = [
            table_row(tuple(code(cell) if at in part.names else md(cell, cell=True) for at, cell in enumerate(row)))
            for row in part.rows
        ]
        return [f"**{md(part.title)}**", "", *table_head(part.headers, aligns), *rows, ""]
    if isinstance(part, Items):
        return [*(f"- {md(line)}" for line in part.lines), ""]
    if part.kind == "heading":
        return [f"**{md(part.text)}**", ""]
    if part.kind == "warning":
        return ["> [!WARNING]", f"> {md(part.text)}", ""]
    return [md(part.text), ""]


def _traffic_lines(report: Report, lang: str, budget: int) -> list[str]:
    """Each traffic window as `render.traffic` words it, and each simulation as `render.simulation` does, cut
    at a line when it would pass `budget` (the JSON report has all of it)."""
    lines: list[str] = []
    for view in report.stats.traffic:
        section = traffic_section(view, lang)
        title = label("tr-title", lang, address=f"`{section.address}`", window=section.window)  # the address quoted
        lines += [f"#### {md(title)}", ""]
        for part in section.parts:
            lines += _traffic_part(part)
    if report.stats.eviction or report.stats.expiry:
        from rediscipline.render.simulation import simulation_sections  # a simulation's report only

        for section in simulation_sections(report, lang):
            lines += [f"#### {md(section.title)}", ""]
            for part in section.parts:
                lines += _traffic_part(part)
    kept, left = fitting(lines, budget - 200)
    if left:
        kept += [md(label("md-traffic-cut", lang)), ""]
    return kept


# ---- the document ------------------------------------------------------------------------------------------


def markdown_document(report: Report, lang: str = "en", limit: int = DOCUMENT_LIMIT, cwd: str | None = None) -> str:
    """The whole report as Markdown, at most `limit` characters (UTF-16 code units) for any report whose
    summary fits in it (the summary is a few hundred characters: every part of it is bounded). Paths under
    `cwd` (default: the working directory) are shown relative to it."""
    sites = report.run.layout == LAYOUT_SITES or any(is_site(f) for f in report.findings)
    head = _summary_lines(report, lang, sites)
    notes = _note_lines(report, lang, int(limit * NOTES_SHARE))
    tail_budget = int(limit * TAIL_SHARE)
    keyspace = _keyspace_lines(report.stats.keyspace, lang) if report.stats.keyspace is not None else []
    sources = _source_lines(report, lang, tail_budget - sum(size(line) + 1 for line in keyspace))
    traffic = _traffic_lines(report, lang, int(limit * TRAFFIC_SHARE))
    used = sum(size(line) + 1 for line in (*head, *notes, *sources, *keyspace, *traffic))
    findings = _finding_lines(report, lang, limit - used, sites, os.getcwd() if cwd is None else cwd)
    return "\n".join([*head, *notes, *findings, *sources, *keyspace, *traffic]).rstrip("\n") + "\n"


def render_markdown(report: Report, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    stream.write(markdown_document(report, lang))


__all__ = [
    "DOCUMENT_LIMIT",
    "FINDING_ROWS",
    "code",
    "fitting",
    "markdown_document",
    "render_markdown",
    "size",
    "table_head",
    "table_row",
]
