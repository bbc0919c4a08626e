"""The text layout of findings at places in files (source code, redis.conf): one line each, ranked.

`src/app.py:12:5: CMD001 [error] message` is what compilers and linters print, so editors and terminals
turn it into a link. Lines come in the report's order (most severe first, then the facts shared by the most
places), library code first and test code after it under its own heading, so the first screen is what is
most worth fixing; a key-name fact found at several places of a file is one line that says how many more
(`and 9 more in this file (line 12, 40, …)`). The rules broken follow, with their titles, since a line only
names the rule's id. Paths and messages go through the same escaping as key names: nothing in a file name or
a quoted template can reach the terminal as a control sequence.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text as RichText

from rediscipline.model.display import NAME_LIMIT, display_bytes, inert
from rediscipline.model.finding import CONTEXT_TEST, Finding
from rediscipline.model.report import Report
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.render.labels import SEVERITY
from rediscipline.render.sites import more_places, shown_path

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.NOTE: "cyan"}
LABELS = {
    "no-findings": Text(
        "No findings: every call and setting follows the enabled rules.",
        "未发现问题：所有调用和配置均符合已启用的规则。",
    ),
    "key": Text("key {name}", "Key {name}"),
    "rules": Text("Rules broken", "违反的规则"),
    "finding-count": Text("{n} findings", "{n} 个问题"),
    "library": Text("Library code", "业务代码"),
    "test": Text("Test code", "测试代码"),
}


def _line(finding: Finding, lang: str) -> RichText:
    location = finding.location
    line = RichText()
    line.append(shown_path(location.path or ""), style="bold")
    if location.line is not None:
        line.append(f":{location.line}", style="dim")
        if location.column is not None:
            line.append(f":{location.column}", style="dim")
    line.append(": ", style="dim")
    line.append(finding.rule_id, style=STYLE[finding.severity])
    line.append(f" [{SEVERITY[finding.severity].in_(lang)}]", style=STYLE[finding.severity])
    line.append(" " + inert(finding.message.in_(lang)))
    if finding.pattern is not None:
        name = display_bytes(finding.pattern, NAME_LIMIT)
        line.append("  (" + LABELS["key"].in_(lang).format(name=name) + ")", style="dim")
    more = more_places(finding, lang)
    if more is not None:
        line.append(f"  {more}", style="magenta")
    return line


def site_count(count: int, lang: str) -> str:
    """`5 findings`: the summary's count when findings are places, not `rule × pattern` groups."""
    return LABELS["finding-count"].in_(lang).format(n=f"{count:,}")


def site_lines(report: Report, findings: Sequence[Finding], console: Console, lang: str) -> None:
    """Print `findings` (all at places in files, in report order): library code, then test code under its
    own heading, then the rules they broke."""
    if not report.findings:
        console.print(RichText(LABELS["no-findings"].in_(lang), style="green"))
        console.print()
        return
    tests = [f for f in findings if f.context == CONTEXT_TEST]
    library = [f for f in findings if f.context != CONTEXT_TEST]
    for label, part in (("library", library), ("test", tests)):
        if not part:
            continue
        if tests:
            console.print(RichText(LABELS[label].in_(lang), style="bold underline"))
        for finding in part:
            console.print(_line(finding, lang), soft_wrap=True)  # one line: the terminal wraps, links stay whole
        console.print()
    counts = Counter(f.rule_id for f in findings)
    if not counts:
        return
    console.print(RichText(LABELS["rules"].in_(lang), style="bold"))
    worst: dict[str, Severity] = {}
    for finding in findings:
        worst[finding.rule_id] = max(finding.severity, worst.get(finding.rule_id, Severity.NOTE))
    for rule_id in sorted(counts, key=lambda r: (-worst[r], r)):
        meta = report.rules.get(rule_id)
        line = RichText("  ")
        line.append(rule_id, style=STYLE[worst[rule_id]])
        if meta is not None:
            line.append(f" {meta.slug}", style="bold")
            line.append(f"  {meta.title.in_(lang)}")
        line.append(f"  ×{counts[rule_id]:,}", style="magenta")
        console.print(line)
    console.print()
