"""`--format html`: one self-contained page (CSS, script and data inline) with charts, filters and search.

`render_html` builds the page's view from the bounded report (`header`, `scan_charts`, `findings`, and the
traffic windows as `render.traffic` words them for every format) and writes it with `page.render_page`; see
`page` for the one escaping path and the Content-Security-Policy, `charts` for why the charts are SVG drawn
here rather than by a chart library. A simulation's sections are laid out as the traffic windows'; an expiry
simulation's charts (`simulation_charts`) are drawn in its section.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, display_bytes, display_text
from rediscipline.model.report import LAYOUT_SITES, Report
from rediscipline.render.html.charts import BarChart, ColumnChart, LineChart, SplitChart
from rediscipline.render.html.findings import LongNameTable, PageLimits, findings_view
from rediscipline.render.html.header import header
from rediscipline.render.html.page import render_page
from rediscipline.render.html.scan_charts import scan_charts
from rediscipline.render.html.words import word, words_for
from rediscipline.render.numbers import human_bytes, share
from rediscipline.render.sites import is_site
from rediscipline.render.traffic import TrafficSection, traffic_section

#: The page's size bound, and the limits tried in turn until the page is under it: the first are the usual
#: ones (1,500 finding rows, 2,000 patterns, 25 patterns per namespace, 1.1 MB of whole names); the next ones
#: only matter for keyspaces built to fill a page (thousands of long names full of characters HTML escapes).
PAGE_BOUND = 1_950_000
LIMIT_STEPS = (
    PageLimits(),
    PageLimits(rows=500, patterns=500, drill=10, title=300),
    PageLimits(rows=200, patterns=200, drill=5, names=500_000, title=0),
    PageLimits(rows=50, patterns=50, drill=0, names=100_000, title=0),
)
#: Bar charts drawn across the whole width of the grid.
WIDE = frozenset({"memory-by-namespace", "keys-by-namespace", "top-by-memory", "top-by-length"})


@dataclass(frozen=True, slots=True)
class PatternRow:
    pattern: str
    title: str
    keys: str
    memory: str
    ttl: str
    types: str


@dataclass(frozen=True, slots=True)
class Page:
    charts: tuple[BarChart | ColumnChart | SplitChart, ...]
    chart_notes: tuple[str, ...]
    wide: frozenset[str]
    sites: bool
    families_of: dict[str, str]
    patterns: tuple[PatternRow, ...]
    patterns_caption: str
    traffic: tuple[TrafficSection, ...] = ()
    section_charts: tuple[tuple[LineChart, ...], ...] = ()  # beside `traffic`: the charts drawn in each section


def _simulations(report: Report, lang: str) -> tuple[tuple[TrafficSection, tuple[LineChart, ...]], ...]:
    """A simulation's sections, laid out as the traffic windows' (`render.simulation` words them, eviction first
    as in every format), each with its charts."""
    if not report.stats.eviction and not report.stats.expiry:
        return ()
    # a simulation's report only
    from rediscipline.render.html.simulation_charts import expiry_charts
    from rediscipline.render.simulation import eviction_section, expiry_section

    return (
        *((eviction_section(eviction, lang), ()) for eviction in report.stats.eviction),
        *((expiry_section(expiry, lang), expiry_charts(expiry, lang)) for expiry in report.stats.expiry),
    )


def _patterns(report: Report, lang: str, limit: int) -> tuple[tuple[PatternRow, ...], str]:
    stats = report.stats
    rows = tuple(
        PatternRow(
            pattern=display_bytes(row.pattern, QUOTE_LIMIT),
            title=display_bytes(row.pattern, NAME_LIMIT),
            keys=f"{row.count:,}",
            memory="" if row.memory is None else human_bytes(row.memory),
            ttl="" if row.ttl_coverage is None else share(row.ttl_coverage),
            types=", ".join(f"{display_text(kind, QUOTE_LIMIT)} {keys:,}" for kind, keys in row.types),
        )
        for row in stats.pattern_stats[:limit]
    )
    total = max(stats.patterns, len(stats.pattern_stats))
    caption = word("patterns-cut", lang, shown=f"{len(rows):,}", total=f"{total:,}") if total > len(rows) else ""
    return rows, caption


def _chart_notes(report: Report, lang: str) -> tuple[str, ...]:
    keyspace = report.stats.keyspace
    if keyspace is None:
        return ()
    notes = []
    if keyspace.sampling is not None:
        notes.append(
            word("sampled", lang, sampled=f"{keyspace.sampling.sampled:,}", rate=f"{keyspace.sampling.rate:g}")
        )
    if keyspace.memory_model:
        notes.append(word("estimated-memory", lang, model=display_text(keyspace.memory_model, QUOTE_LIMIT)))
    return tuple(notes)


def render_html(report: Report, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    for limits in LIMIT_STEPS:  # a page is rendered in tens of milliseconds: trying smaller limits is cheap
        page = _page(report, lang, limits)
        if len(page.encode("utf-8")) <= PAGE_BOUND:
            break
    stream.write(page)


def _page(report: Report, lang: str, limits: PageLimits) -> str:
    names = LongNameTable(limits.names)
    view = findings_view(report, lang, names, limits)
    sites = report.run.layout == LAYOUT_SITES or any(is_site(finding) for finding in report.findings)
    charts = () if sites else tuple(scan_charts(report, lang, limits.drill))
    patterns, caption = ((), "") if sites else _patterns(report, lang, limits.patterns)
    sections = (*((traffic_section(view, lang), ()) for view in report.stats.traffic), *_simulations(report, lang))
    page = Page(
        charts=charts,
        chart_notes=_chart_notes(report, lang),
        wide=WIDE,
        sites=sites,
        families_of={rule.rule_id: rule.family for rule in view.rules},
        patterns=patterns,
        patterns_caption=caption,
        traffic=tuple(section for section, _charts in sections),
        section_charts=tuple(section_charts for _section, section_charts in sections),
    )
    return render_page(
        "report.html.j2",
        html_lang="zh-CN" if lang == "zh" else "en",
        page=page,
        h=header(report, lang),
        f=view,
        w=words_for(lang),
        long_names=names.script_json(),
        footer=word("footer", lang, version=display_text(report.run.tool_version, QUOTE_LIMIT)),
    )


__all__ = ["render_html"]
