"""The findings of a report as the HTML page shows them: by rule and pattern, or by file for code and config.

A rule is shown once, with the sentence of the convention it enforces, the fix and its documentation, and
under it one row per finding (a key pattern, a command, a setting or a place in a file). The page is bounded
whatever the report holds: at most OCCURRENCE_LIMIT rows (RULE_OCCURRENCE_LIMIT per rule), taken in the
report's own ranking, and the page says how many it left out. A cut key name keeps its full text in the
page's table of long names (`LongNameTable`) up to a budget, so the copy button gives the exact name.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from markupsafe import Markup

from rediscipline.model.display import (
    NAME_LIMIT,
    QUOTE_LIMIT,
    TEXT_LIMIT,
    display_bytes,
    display_cut,
    display_text,
    inert,
)
from rediscipline.model.finding import Example, Finding
from rediscipline.model.report import Report, RuleMeta
from rediscipline.render.html.code_lines import SourceLines
from rediscipline.render.html.rule_docs import RuleDoc, rule_doc
from rediscipline.render.html.words import keys_word, word
from rediscipline.render.labels import SEVERITY
from rediscipline.render.libraries import advice, family_of
from rediscipline.render.sites import example_place, is_site, shown_path

#: Rows of findings a page shows, in all and per rule; the JSON report has every one.
OCCURRENCE_LIMIT = 1500
RULE_OCCURRENCE_LIMIT = 200
#: Bytes of full key names the page keeps for its copy buttons (a 1 MB name fits once).
LONG_NAME_BUDGET = 1_100_000
#: Characters of a cut name shown in its tooltip.
TITLE_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class PageLimits:
    """How much of a report one page shows: finding rows, pattern rows, patterns per namespace, bytes of whole
    names behind copy buttons, characters of a cut name's tooltip. The page is written with the first limits
    of `render_html`'s steps under which it stays below its size bound."""

    rows: int = OCCURRENCE_LIMIT
    patterns: int = 2000
    drill: int = 25
    names: int = LONG_NAME_BUDGET
    title: int = TITLE_LIMIT


class LongNameTable:
    """The full display text of every cut name in the page, each once, while the budget lasts."""

    def __init__(self, budget: int = LONG_NAME_BUDGET) -> None:
        self._budget = budget
        self._index: dict[bytes, int] = {}
        self._names: list[str] = []

    def ref(self, data: bytes) -> int | None:
        index = self._index.get(data)
        if index is not None:
            return index
        text = display_bytes(data)
        size = len(json.dumps(text, ensure_ascii=True))  # what it takes in the page's JSON
        if size > self._budget:
            return None
        self._budget -= size
        index = self._index[data] = len(self._names)
        self._names.append(text)
        return index

    def script_json(self) -> Markup:
        """The table as JSON that is safe inside a `<script type="application/json">` element."""
        text = json.dumps(self._names, ensure_ascii=True)
        return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


@dataclass(frozen=True, slots=True)
class ExampleView:
    text: str
    title: str
    where: str = ""
    ref: int | None = None
    length: int = 0  # bytes of a cut name (0: shown whole)
    not_in_page: str = ""  # where the full name is, when the page's budget for long names ran out


@dataclass(frozen=True, slots=True)
class OccurrenceView:
    severity: str
    severity_word: str
    rule_id: str
    subject: str  # the pattern, the subject, or `path:line`
    subject_title: str
    place: str  # `line:column` of a finding in a file (the page groups those by file)
    message: str
    count: str
    worst: str = ""
    namespace: str = ""
    advice: str = ""
    examples: tuple[ExampleView, ...] = ()
    code_line: str = ""


@dataclass(frozen=True, slots=True)
class CitationView:
    source: str  # `000 §Key 名字如何设计 — 大小`
    sentence: str  # in the page's language
    original: str = ""  # the Chinese original, on an English page


@dataclass(frozen=True, slots=True)
class RuleView:
    rule_id: str
    slug: str
    title: str
    family: str
    family_title: str
    severity: str
    severity_word: str
    citations: tuple[CitationView, ...]
    doc: RuleDoc
    occurrences: tuple[OccurrenceView, ...]
    more: str = ""


@dataclass(frozen=True, slots=True)
class FileView:
    path: str
    occurrences: tuple[OccurrenceView, ...]


@dataclass(frozen=True, slots=True)
class FindingsView:
    rules: tuple[RuleView, ...]  # every rule that found something (the findings by rule, or the rules' section)
    files: tuple[FileView, ...]  # code and config: the findings by file
    families: tuple[tuple[str, str], ...]  # (family, title) of the rules shown
    total: int
    shown: int
    left_out: str = ""


def _example(example: Example, names: LongNameTable, lang: str, tooltip: int) -> ExampleView:
    shown, cut = display_cut(example.name, NAME_LIMIT)
    if not cut:
        return ExampleView(shown, shown, example_place(example.location))
    ref = names.ref(example.name)
    return ExampleView(
        shown,
        display_bytes(example.name, tooltip) if tooltip else shown,
        example_place(example.location),
        ref=ref,
        length=len(example.name),
        not_in_page=word("not-in-page", lang, length=f"{len(example.name):,}") if ref is None else "",
    )


def _count(finding: Finding, lang: str) -> str:
    if finding.pattern is not None:
        return keys_word(finding.count, lang)
    if is_site(finding):
        return word("count-places", lang, n=f"{finding.count:,}") if finding.count > 1 else ""
    return word("count-times", lang, n=f"{finding.count:,}") if finding.count > 1 else ""


def _occurrence(finding: Finding, lang: str, names: LongNameTable, lines: SourceLines, tooltip: int) -> OccurrenceView:
    site = is_site(finding)
    if finding.pattern is not None:
        subject, title = display_bytes(finding.pattern, QUOTE_LIMIT), display_bytes(finding.pattern, NAME_LIMIT)
    elif site:
        subject = title = ""
    else:
        subject = title = display_text(finding.subject or "", QUOTE_LIMIT)
    place = ""
    if site and finding.location.line is not None:
        place = f"{finding.location.line}" + (f":{finding.location.column}" if finding.location.column else "")
    family = family_of(finding.library)
    code_line = ""
    if site and finding.location.path and finding.location.line:
        code_line = lines.line(finding.location.path, finding.location.line)
    worst = ""
    if finding.worst is not None and finding.pattern is not None and not site:
        worst = word(
            "worst",
            lang,
            value=f"{finding.worst:,.0f}" if finding.worst == int(finding.worst) else f"{finding.worst:,.2f}",
        )
    return OccurrenceView(
        severity=finding.severity.label,
        severity_word=SEVERITY[finding.severity].in_(lang),
        rule_id=finding.rule_id,
        subject=subject,
        subject_title=title,
        place=place,
        message=inert(finding.message.in_(lang)),
        count=_count(finding, lang),
        worst=worst,
        namespace="" if finding.namespace is None else inert(finding.namespace, QUOTE_LIMIT),
        advice="" if family is None else inert(f"{family.library}: {advice(family, lang)}"),
        examples=tuple(_example(example, names, lang, tooltip) for example in finding.examples),
        code_line=code_line,
    )


def _rule(meta: RuleMeta | None, rule_id: str, lang: str) -> tuple[str, str, str, str]:
    """(slug, title, family, family title) of a rule; a rule the report has no metadata for shows its id."""
    if meta is None:
        return ("", rule_id, "?", "?")
    return (meta.slug, meta.title.in_(lang), meta.family, meta.family_title.in_(lang) or meta.family)


def _citations(meta: RuleMeta | None, lang: str) -> tuple[CitationView, ...]:
    """Each source the rule cites with its sentence: in Chinese the document's own words; in English the
    translation, then the original."""
    if meta is None:
        return ()
    quoted = {citation.source: citation.text for citation in meta.citations}
    out = []
    for source in meta.sources:
        text = quoted.get(source)
        out.append(
            CitationView(
                source=display_text(source, TEXT_LIMIT),
                sentence="" if text is None else inert(text.in_(lang)),
                original="" if text is None or lang == "zh" else inert(text.zh),
            )
        )
    return tuple(out)


def findings_view(report: Report, lang: str, names: LongNameTable, limits: PageLimits) -> FindingsView:
    """Group the report's findings for the page (see the module docstring), keeping its ranking; at most
    `limits.rows` rows."""
    lines = SourceLines(report.run.root)
    by_rule: dict[str, list[Finding]] = defaultdict(list)
    for finding in report.findings:
        by_rule[finding.rule_id].append(finding)
    kept: dict[str, list[OccurrenceView]] = defaultdict(list)
    budget = limits.rows
    shown = 0
    site_rows: dict[str, list[tuple[int, int, OccurrenceView]]] = defaultdict(list)  # by line in each file
    for finding in report.findings:  # the report's ranking decides what a bounded page keeps
        if budget == 0 or len(kept[finding.rule_id]) >= RULE_OCCURRENCE_LIMIT:  # site rows count in `budget` only
            continue
        view = _occurrence(finding, lang, names, lines, limits.title)
        if is_site(finding):
            where = finding.location
            site_rows[shown_path(where.path or "")].append((where.line or 0, where.column or 0, view))
        else:
            kept[finding.rule_id].append(view)
        budget -= 1
        shown += 1
    order = sorted(by_rule, key=lambda rule_id: (-max(f.severity for f in by_rule[rule_id]), rule_id))
    rules = []
    families: dict[str, str] = {}
    for rule_id in order:
        group = by_rule[rule_id]
        meta = report.rules.get(rule_id)
        slug, title, family, family_title = _rule(meta, rule_id, lang)
        families[family] = family_title
        worst = max(f.severity for f in group)
        more = sum(not is_site(f) for f in group) - len(kept[rule_id])
        rules.append(
            RuleView(
                rule_id=rule_id,
                slug=slug,
                title=title,
                family=family,
                family_title=family_title,
                severity=worst.label,
                severity_word=SEVERITY[worst].in_(lang),
                citations=_citations(meta, lang),
                doc=rule_doc(meta, lang),
                occurrences=tuple(kept[rule_id]),
                more=word("occurrences-cut", lang, n=f"{more:,}") if more else "",
            )
        )
    files = tuple(
        FileView(path, tuple(view for _line, _column, view in sorted(rows, key=lambda row: row[:2])))
        for path, rows in sorted(site_rows.items())
    )
    left = len(report.findings) - shown
    return FindingsView(
        rules=tuple(rules),
        files=files,
        families=tuple(sorted(families.items())),
        total=len(report.findings),
        shown=shown,
        left_out=word("findings-cut", lang, n=f"{left:,}") if left else "",
    )
