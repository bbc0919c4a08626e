"""`--format html` for a fleet: the targets ranked worst first, a chart of their scores, each target's findings.

The page is the single report's page with one level more: a row per target in the table, and a section per
target holding its findings by rule, under the same filters and search. The rows per target are bounded
(TARGET_OCCURRENCE_LIMIT) and so is the page (OCCURRENCE_LIMIT over all targets), as for one report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from rediscipline.model.display import QUOTE_LIMIT, display_text, inert
from rediscipline.model.fleet import FleetReport, TargetResult
from rediscipline.render.html.charts import BarChart, bars
from rediscipline.render.html.findings import (
    OCCURRENCE_LIMIT,
    FindingsView,
    LongNameTable,
    PageLimits,
    RuleView,
    findings_view,
)
from rediscipline.render.html.header import SeverityCount, severity_counts
from rediscipline.render.html.page import render_page, written_at
from rediscipline.render.html.words import word, words_for
from rediscipline.render.numbers import human_bytes

TARGET_OCCURRENCE_LIMIT = 300


@dataclass(frozen=True, slots=True)
class TargetView:
    index: int
    name: str
    tags: str
    score: int | None
    keys: str
    memory: str
    counts: tuple[SeverityCount, ...]
    error: str
    findings: FindingsView | None


def _target(index: int, target: TargetResult, lang: str, names: LongNameTable, limit: int) -> TargetView:
    report = target.report
    memory = target.memory
    return TargetView(
        index=index,
        name=display_text(target.name, QUOTE_LIMIT),
        tags=", ".join(f"{display_text(k, QUOTE_LIMIT)}={display_text(v, QUOTE_LIMIT)}" for k, v in target.tags),
        score=report.stats.score if report is not None else None,
        keys="" if report is None else f"{report.stats.keys:,}",
        memory="" if memory is None else human_bytes(memory),
        counts=severity_counts(target.count_by_severity(), lang),
        error="" if target.error is None else word("fleet-error", lang, error=inert(target.error)),
        findings=None if report is None else findings_view(report, lang, names, PageLimits(rows=limit)),
    )


def _scores(targets: tuple[TargetView, ...], lang: str) -> BarChart:
    scored = [t for t in targets if t.score is not None]
    return bars(
        "fleet-scores",
        word("fleet-scores", lang),
        [(t.name, float(t.score or 0) or 0.5, str(t.score)) for t in scored],
        empty=word("no-data", lang, why=word("why-no-keys", lang)),
    )


def render_fleet_html(fleet: FleetReport, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    names = LongNameTable()
    budget = OCCURRENCE_LIMIT
    targets = []
    for index, target in enumerate(fleet.targets):
        view = _target(index, target, lang, names, min(TARGET_OCCURRENCE_LIMIT, budget))
        budget -= view.findings.shown if view.findings is not None else 0
        targets.append(view)
    views = tuple(targets)
    families: dict[str, str] = {}
    rules: dict[str, RuleView] = {}  # each rule once, for the rules section
    for view in views:
        if view.findings is not None:
            families.update(view.findings.families)
            rules.update((rule.rule_id, rule) for rule in view.findings.rules if rule.rule_id not in rules)
    stream.write(
        render_page(
            "fleet.html.j2",
            html_lang="zh-CN" if lang == "zh" else "en",
            title=word("fleet-title", lang, n=len(views), failed=len(fleet.failed)),
            preset=display_text(fleet.preset, QUOTE_LIMIT),
            time=written_at(),
            took=word("took", lang, seconds=f"{fleet.elapsed_seconds:,.2f}"),
            counts=severity_counts(fleet.count_by_severity(), lang),
            scores=_scores(views, lang),
            targets=views,
            families=tuple(sorted(families.items())),
            rules=tuple(rules[rule_id] for rule_id in sorted(rules)),
            shown=sum(v.findings.shown for v in views if v.findings is not None),
            total=sum(v.findings.total for v in views if v.findings is not None),
            long_names=names.script_json(),
            footer=word("footer", lang, version=display_text(fleet.tool_version, QUOTE_LIMIT)),
            w=words_for(lang),
        )
    )
