"""Human output: a summary, then findings grouped by rule and key pattern, with examples and sources.

Findings at places in files (a report whose layout is `sites`: code and config files) are printed one line
each, by file, by `text_sites`, and the summary follows them, as linters do. The windows a `traffic` run
observed follow the findings (`text_traffic`).

Everything printed goes into rich `Text` objects (never markup: the console has markup, emoji and
highlighting off as well), and everything that someone else wrote goes through `model.display` first:
keys and patterns through `display_bytes`, messages and notes through `inert`, paths and server strings
through `display_text`. So a key holding a terminal escape sequence, a bidi override or rich markup is
shown as visible, bounded text.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TextIO

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text as RichText

from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, display_bytes, display_text, inert
from rediscipline.model.finding import Finding
from rediscipline.model.location import SOURCE_TRAFFIC
from rediscipline.model.report import LAYOUT_SITES, Report, RuleMeta
from rediscipline.model.severity import Severity
from rediscipline.render.citations import quoted
from rediscipline.render.labels import SEVERITY, label
from rediscipline.render.libraries import advice, family_of
from rediscipline.render.notes import note_text
from rediscipline.render.sites import example_place, is_site
from rediscipline.render.text_live import keyspace_section, score_line, server_line
from rediscipline.render.text_patterns import patterns_section
from rediscipline.render.text_sites import site_count, site_lines

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.NOTE: "cyan"}
MARK = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.NOTE: "●"}


def _summary(report: Report, console: Console, lang: str, sites: bool = False) -> None:
    """The header and the counts. For site findings (code, config) keys are counted only if some were read,
    and findings are not `rule × pattern` groups but places."""
    stats = report.stats
    head = RichText()
    head.append(f"rediscipline {report.run.tool_version}", style="bold")
    head.append(f" · {report.run.command} · {label('preset', lang)} {display_text(report.run.preset, QUOTE_LIMIT)}")
    if report.run.overlays:
        head.append(" + " + " + ".join(display_text(overlay, QUOTE_LIMIT) for overlay in report.run.overlays))
    head.append(f" · {report.run.rules_enabled} {label('rules', lang)}")
    console.print(head)
    if stats.server is not None:
        console.print(server_line(stats.server, lang))
    if not sites or (stats.keys and report.run.layout != LAYOUT_SITES):  # code has templates, not keys
        keys = label("scanned", lang, keys=f"{stats.keys:,}", patterns=f"{stats.patterns:,}")
        console.print(RichText(f"{keys} ({stats.elapsed_seconds:.2f} s)", style="dim"))
    score = score_line(report, lang)
    if score is not None:
        console.print(score)
    console.print()
    counts = report.count_by_severity()
    line = RichText(f"{label('summary', lang)}: ", style="bold")
    for severity in sorted(counts, reverse=True):
        line.append(
            f"{SEVERITY[severity].in_(lang)} {counts[severity]}", style=STYLE[severity] if counts[severity] else "dim"
        )
        line.append("  ")
    count = (
        site_count(len(report.findings), lang) if sites else label("finding-count", lang, n=f"{len(report.findings):,}")
    )
    line.append("· " + count, style="dim")
    console.print(line)
    families: dict[str, int] = defaultdict(int)
    titles: dict[str, str] = {}
    for finding in report.findings:
        meta = report.rules.get(finding.rule_id)
        if meta is not None:
            families[meta.family] += 1
            titles[meta.family] = meta.family_title.in_(lang)
    if families:
        parts = [f"{family} ({titles[family]}) {count}" for family, count in sorted(families.items())]
        console.print(RichText(f"{label('by-family', lang)}: " + ", ".join(parts), style="dim"))


def _finding(finding: Finding, console: Console, lang: str, counted: str | None = "call") -> None:
    """One finding; a finding about something other than keys counts `counted`s (calls of a command, or
    servers: the shards of a cluster, the nodes of a run that share a setting), or nothing (None: a finding
    about one thing a traffic window saw, a client, a hot key, a queue)."""
    line = RichText("  ")
    line.append(MARK[finding.severity] + " ", style=STYLE[finding.severity])
    shape = is_sent_shape(finding)
    if finding.pattern is not None:
        line.append(display_bytes(finding.pattern, NAME_LIMIT), style="bold")
    if finding.pattern is not None and not shape:
        unit = label("key" if finding.count == 1 else "keys", lang)
        line.append(f"  {finding.count:,} {unit}", style="magenta")
        if finding.estimate is not None:
            value, low, high = (f"{v:,.0f}" for v in finding.estimate)
            line.append("  " + label("estimate", lang, value=value, low=low, high=high), style="magenta")
    elif (
        counted is not None and not shape and (finding.examples or finding.count > 1)
    ):  # a command: how often it ran; a
        # setting: on how many servers
        unit = label(counted if finding.count == 1 else counted + "s", lang)
        line.append(f"{finding.count:,} {unit}", style="magenta")
    line.append("  " + inert(finding.message.in_(lang)))
    if finding.namespace:
        line.append(f"  [{label('namespace', lang)} {inert(finding.namespace, NAME_LIMIT)}]", style="dim")
    console.print(line)
    family = family_of(finding.library)
    if family is not None:
        console.print(RichText("      " + inert(f"{family.library}: {advice(family, lang)}"), style="cyan"))
    if finding.examples and not shape:
        examples = RichText(f"      {label('examples', lang)} ", style="dim")
        for index, example in enumerate(finding.examples):
            if index:
                examples.append(", ", style="dim")
            examples.append('"' + display_bytes(example.name, NAME_LIMIT) + '"')
            where = example_place(example.location)
            if where:
                examples.append(f" ({where})", style="dim")
        if finding.pattern is not None and finding.count > len(finding.examples):
            examples.append(" … " + label("more", lang, n=f"{finding.count - len(finding.examples):,}"), style="dim")
        console.print(examples)


def is_sent_shape(finding: Finding) -> bool:
    """A finding about one shape of what a server was sent (`MGET user:*` in a MONITOR sample): its pattern
    names the keys, but it counts no keys and has no example beyond the pattern."""
    return finding.pattern is not None and finding.location.source == SOURCE_TRAFFIC


def console_for(stream: TextIO, color: bool) -> Console:
    """The console every text report is written with: no markup, no highlighting, 120 columns in files."""
    return Console(
        file=stream,
        force_terminal=color,
        no_color=not color,
        highlight=False,
        emoji=False,
        markup=False,
        width=120 if not color else None,
        soft_wrap=not color,
    )


#: Families whose findings about something other than keys count the calls of a command.
COUNTED_IN_CALLS = frozenset({"CMD", "BAT", "PUB"})


def _by_rule(findings: list[Finding], report: Report, console: Console, lang: str) -> None:
    by_rule: dict[str, list[Finding]] = defaultdict(list)
    for finding in findings:
        by_rule[finding.rule_id].append(finding)
    order = sorted(by_rule, key=lambda r: (-max(f.severity for f in by_rule[r]), r))
    for rule_id in order:
        group = by_rule[rule_id]
        meta = report.rules.get(rule_id)
        worst = max(f.severity for f in group)
        header = RichText()
        header.append(rule_id, style=STYLE[worst])
        if meta is not None:
            header.append(f" {meta.slug}", style="bold")
            header.append(f"  {meta.title.in_(lang)}")
        keyed = sum(f.count for f in group if f.pattern is not None and not is_sent_shape(f))
        if keyed:
            header.append(f"  ({keyed:,} {label('keys', lang)})", style="dim")
        console.print(header)
        if meta is not None:
            _sources(meta, console, lang)
        counted: str | None = "call" if meta is None or meta.family in COUNTED_IN_CALLS else "server"
        if meta is not None and meta.where in (("traffic",), ("simulation",)):
            counted = None
        for finding in group:
            _finding(finding, console, lang, counted)
        console.print()


def _sources(meta: RuleMeta, console: Console, lang: str) -> None:
    """`source:` and each convention section the rule cites, one a line with its sentence in `lang`; the
    sections the citation table lacks follow on one line."""
    head = f"  {label('source', lang)}: "
    lines = [f"{c.source}: {quoted(c.text.in_(lang))}" for c in meta.citations]
    cited = {c.source for c in meta.citations}
    uncited = [source for source in meta.sources if source not in cited]
    if uncited:
        lines.append(" · ".join(uncited))
    indent = " " * cell_len(head)
    for number, line in enumerate(lines):
        console.print(RichText((indent if number else head) + line, style="dim"))


def _notes(report: Report, console: Console, lang: str) -> None:
    if report.notes:
        console.print()
        console.print(RichText(label("notes", lang), style="bold"))
        for note in report.notes:
            console.print(RichText("  " + inert(note_text(note, lang))))


def _traffic(report: Report, console: Console, lang: str) -> None:
    if report.stats.traffic:
        from rediscipline.render.text_traffic import traffic_sections  # a traffic window's report only

        traffic_sections(report.stats.traffic, console, lang)
    if report.stats.eviction or report.stats.expiry:
        from rediscipline.render.simulation import simulation_sections  # a simulation's report only
        from rediscipline.render.text_traffic import print_section

        for section in simulation_sections(report, lang):
            print_section(section, console)


def _render_sites(report: Report, console: Console, lang: str) -> None:
    """Code and config findings: one line per place, by file (`text_sites`); the summary comes last."""
    site_lines(report, [f for f in report.findings if is_site(f)], console, lang)
    others = [f for f in report.findings if not is_site(f)]
    if others:
        _by_rule(others, report, console, lang)
    _traffic(report, console, lang)
    _summary(report, console, lang, sites=True)
    _notes(report, console, lang)


def render_text(report: Report, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    console = console_for(stream, color)
    if report.run.layout == LAYOUT_SITES or any(is_site(f) for f in report.findings):
        _render_sites(report, console, lang)
        return
    _summary(report, console, lang)
    console.print()
    if not report.findings:
        console.print(RichText(label("no-findings", lang), style="green"))
    _by_rule(list(report.findings), report, console, lang)
    if report.stats.cluster is not None:
        from rediscipline.render.text_cluster import cluster_section  # a cluster's report only

        cluster_section(report.stats.cluster, console, lang)
    _traffic(report, console, lang)
    if report.stats.keyspace is not None:
        keyspace_section(report.stats.keyspace, console, lang, report.stats.cluster)
    patterns_section(report, console, lang)
    _notes(report, console, lang)
    server = report.stats.server
    if server is not None and server.resume_cursor:
        console.print(RichText(label("resume", lang, cursor=display_text(server.resume_cursor)), style="bold"))
