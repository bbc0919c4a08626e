"""Markdown output (`--format markdown`) read back through GitHub's own Markdown implementation (cmark-gfm):
hostile key names, patterns, paths and messages stay text inside their table cell, the table keeps its rows
and columns, nothing that data wrote becomes a link, an image, HTML, a mention or an issue reference, and
the document stays bounded whatever the report."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rediscipline.api import check_key_names, settings_for
from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, display_bytes, display_text, inert
from rediscipline.model.fleet import FleetReport, TargetResult
from rediscipline.model.report import Report
from rediscipline.render import RENDERERS
from rediscipline.render.fleet import FLEET_ROWS, fleet_markdown
from rediscipline.render.labels import SEVERITY
from rediscipline.render.markdown import DOCUMENT_LIMIT, FINDING_ROWS, markdown_document, size
from rediscipline.render.markdown_escape import md
from rediscipline.settings.loader import Overrides
from tests.render.gfm import ZERO_WIDTH, Cell, Page, render

#: Key names made to break a Markdown table or turn into something else on GitHub.
HOSTILE: tuple[bytes, ...] = (
    b"pipe|in|the|name:1",
    b"line\nbreak|row:1",
    b"[link](http://evil.example/a):1",
    b"![image](http://evil.example/i.png):1",
    b"<http://evil.example/auto>:1",
    b"http://evil.example/bare:1",
    b"www.evil.example:1",
    b"someone@evil.example:1",
    b"@octocat:team",
    b"#123:issue",
    b"<img src=x onerror=alert(1)>:1",
    b"<script>alert(1)</script>:1",
    b"</script><!--:1",
    b"&lt;entity&amp;:1",
    b"**bold**_em_~~del~~:1",
    b"# heading:1",
    b"```fence:````four:1",
    b"`tick`:``two``:1",
    b"{{7*7}}:${7*7}:1",
    b"$x^2$:math:1",
    b"\x1b[31mred\x1b[0m:1",
    b"\xff\xfebin:1",
    b"back\\\\\\slash:1",
    b"back\\|pipe:1",
    b"trailing\\",
    b"Long:" + b"Q" * 1_000_000,
)
HEADERS = ["severity", "rule", "place", "count", "worst", "message"]


def _markdown(report: Report, lang: str = "en", cwd: str | None = None) -> str:
    return markdown_document(report, lang, cwd=cwd)


def _findings_table(page: Page) -> list[list[Cell]]:
    tables = [table for table in page.tables if [cell.text for cell in table[0]][:1] == ["severity"]]
    assert len(tables) == 1, page.html[:2000]
    return tables[0]


def _plain(text: str) -> str:
    """Text as the reader sees it, less what only differs between Markdown and its source: the zero-width
    spaces that keep @ and # inert, and the backticks that quote code."""
    return text.replace(ZERO_WIDTH, "").replace("`", "")


def _assert_inert(page: Page) -> None:
    assert page.foreign == set(), page.foreign
    assert page.github_links == []


def test_hostile_key_names_stay_text_in_their_cells() -> None:
    report = check_key_names(HOSTILE)
    page = render(_markdown(report))
    _assert_inert(page)
    table = _findings_table(page)
    assert [cell.text for cell in table[0]] == HEADERS
    rows = table[1:]
    assert len(rows) == len(report.findings) == 47
    assert all(len(row) == len(HEADERS) for row in rows)
    for row, finding in zip(rows, report.findings, strict=True):
        severity, rule, place, count, worst, message = row
        assert severity.text == SEVERITY[finding.severity].en
        assert rule.text.startswith(finding.rule_id + " ")
        assert finding.pattern is not None
        assert place.codes == [display_bytes(finding.pattern, NAME_LIMIT)]
        assert count.text == f"{finding.count:,}"
        assert worst.text == ("" if finding.worst is None else f"{finding.worst:,.6g}")
        assert _plain(message.text) == _plain(inert(finding.message.en, 500))
    # every hostile name has its pattern in the table, shown as every renderer shows it
    shown = {row[2].codes[0] for row in rows}
    assert len(shown) == 26
    assert {"pipe|in|the|name:*", "line\\nbreak|row:*", "back\\\\\\\\|pipe:*", "`tick`:``two``:*", "#*:issue"} <= shown
    assert "Long:" + "Q" * 195 + "…(1,000,005 bytes)" in shown
    assert "more findings" not in page.html


def test_every_pattern_of_a_table_without_cut_is_in_its_row() -> None:
    """Fewer findings than the table holds: one row each, in the report's order, and no `more` line."""
    report = check_key_names([b"User|Name:`x`:@octocat", b"order#12|[a](http://e.example):1"])
    page = render(_markdown(report))
    _assert_inert(page)
    rows = _findings_table(page)[1:]
    assert [row[2].codes for row in rows] == [[display_bytes(f.pattern or b"")] for f in report.findings]
    assert not [text for text in page.text_nodes if "more findings" in text]


def test_a_code_check_names_files_and_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    (project / "src").mkdir(parents=True)
    (project / "tests").mkdir()
    (project / "src" / "cart|[x](http:e).py").write_text(
        "import redis\n\nr = redis.Redis()\n\n\ndef load(uid):\n"
        "    r.keys('user:*')\n"
        "    return r.hgetall(f'Cart|<img src=x onerror=alert(1)>:{uid}')\n",
        encoding="utf-8",
    )
    (project / "tests" / "test_cart.py").write_text(
        "import redis\n\n\ndef test_keys():\n    redis.Redis().keys('@octocat*')\n", encoding="utf-8"
    )
    monkeypatch.chdir(project)
    result = check_code(CodeCheckOptions((".",)), settings_for(Overrides(isolated=True)))
    report = result.report
    page = render(_markdown(report))
    _assert_inert(page)
    rows = _findings_table(page)[1:]
    places = [row[2].codes for row in rows]
    assert places == [
        ["src/cart|[x](http:e).py:7"],
        ["src/cart|[x](http:e).py:8", "Cart|<img src=x onerror=alert(*)>:*"],
        ["tests/test_cart.py:5"],
        ["src/cart|[x](http:e).py:8"],
        ["src/cart|[x](http:e).py:8", "Cart|<img src=x onerror=alert(*)>:*"],
        ["src/cart|[x](http:e).py:8", "Cart|<img src=x onerror=alert(*)>:*"],
        ["src/cart|[x](http:e).py:8", "Cart|<img src=x onerror=alert(*)>:*"],
    ]
    assert [row[1].text.split()[0] for row in rows] == [f.rule_id for f in report.findings]
    assert rows[2][2].text == "tests/test_cart.py:5 · (test code)"
    # the rules' cited sources follow the table, one line per rule
    sources = [item for item in page.text_nodes if item.startswith(": 00")]
    assert len(sources) == len({f.rule_id for f in report.findings})


def test_summary_and_notes() -> None:
    report = check_key_names([b"User:1", b"ok:key:1"])
    text = _markdown(report)
    lines = text.splitlines()
    assert lines[:7] == [
        "### rediscipline keys",
        "",
        "- **Inputs:** `<memory>`",
        f"- **Preset:** `default` · {report.run.rules_enabled} rules · rediscipline {md(report.run.tool_version)}",
        "- **Keys:** 2 keys in 2 patterns",
        "- **Findings:** error 0 · warning 1 · note 0 · 1 findings \\(rule × pattern\\)",
        "",
    ]
    page = render(text)
    notes = [item for item in page.text_nodes if "were not checked" in item]
    assert len(notes) == 1 and notes[0].startswith(f"{len(report.notes[0].params['rules'])} rules need code")


def test_chinese() -> None:
    report = check_key_names([b"User|x:1"])
    page = render(_markdown(report, "zh"))
    _assert_inert(page)
    table = _findings_table_zh(page)
    assert [cell.text for cell in table[0]] == ["级别", "规则", "位置", "数量", "最大值", "说明"]
    assert [row[2].codes for row in table[1:]] == [["User|x:*"]] * len(report.findings)
    assert "问题" in page.text_nodes  # the table's heading


def _findings_table_zh(page: Page) -> list[list[Cell]]:
    return next(table for table in page.tables if table[0][0].text == "级别")


def test_no_findings() -> None:
    text = _markdown(check_key_names([b"user:profile:1"]))
    assert "No findings\\: every key follows the enabled rules\\." in text.splitlines()
    assert render(text).tables == []


def test_the_document_stays_bounded() -> None:
    """Thousands of findings (long names, each full of what escaping makes longer): at most FINDING_ROWS of
    them, at most `limit` characters, and one line that counts the rest."""
    names = []
    for levels in range(1, 41):
        for separator in (b"|", b"#", b"@", b".", b"-", b"`"):
            part = b"@A|[x](http://e.example)<i>#1 &amp; $x$ ~~s~~ **b**"
            names.append(separator.join([part] * (levels + 8)) + b":@" + separator * levels)
    report = check_key_names(names)
    assert len(report.findings) > 1_000
    counts = []
    for limit in (4_000, 8_000, 16_000, DOCUMENT_LIMIT):
        text = markdown_document(report, "en", limit=limit)
        assert size(text) <= limit
        page = render(text)
        _assert_inert(page)
        rows = _findings_table(page)[1:]
        assert 0 < len(rows) <= FINDING_ROWS and all(len(row) == len(HEADERS) for row in rows)
        patterns = [[display_bytes(f.pattern or b"", NAME_LIMIT)] for f in report.findings[: len(rows)]]
        assert [row[2].codes for row in rows] == patterns
        more = [line for line in page.text().splitlines() if "more findings" in line]
        left = len(report.findings) - len(rows)
        assert more == [f"{left:,} more findings: see the JSON report (--format json), which lists every one"]
        counts.append(len(rows))
    assert counts == sorted(counts) and counts[0] < counts[-1] == FINDING_ROWS


def test_the_renderer_is_registered() -> None:
    report = check_key_names([b"User:1"])
    out = io.StringIO()
    RENDERERS["markdown"](report, out, "en", False)
    assert out.getvalue() == markdown_document(report, "en")


# ---- the escaping function on its own ----------------------------------------------------------------------

#: Texts made of the pieces that mean something in Markdown, GFM or on GitHub.
PIECES = [*"ab :|\\`*_[]()<>!#@&;~=$-+.{}'\"/x\n\x1b\u202e", "http://", "www.", "&lt;", "<!--", "@me", "#12", "```"]
NAMES = st.lists(st.sampled_from(PIECES), min_size=1, max_size=30).map("".join)


@settings(max_examples=400, deadline=None)
@given(names=st.lists(NAMES, min_size=1, max_size=4))
def test_any_text_stays_in_its_cell(names: list[str]) -> None:
    """A table of outside text, as a code span and as prose: one row per text, three cells each, each cell
    holding the text as shown (prose less its quoting backticks), and nothing else."""
    shown = [display_text(name, None) for name in names]
    rows = ["| a | b | c |", "|---|---|---|"]
    rows += [f"| {md(text, code=True, cell=True)} | x | {md(text, cell=True)} |" for text in shown]
    page = render("\n".join(rows) + "\n")
    _assert_inert(page)
    (table,) = page.tables
    assert len(table) == len(shown) + 1
    for row, text in zip(table[1:], shown, strict=True):
        assert len(row) == 3
        assert row[0].codes == [text]
        assert row[1].text == "x"
        # a table cell drops trailing spaces; a leading one is kept (prose writes it as an entity)
        lead = " " if text.startswith(" ") else ""
        assert _plain(row[2].text) == _plain(lead + text[len(lead) :].rstrip(" "))


@settings(max_examples=200, deadline=None)
@given(text=NAMES)
def test_any_text_stays_one_paragraph_or_list_item(text: str) -> None:
    """Outside a table: a list item with a code span and prose stays one list item with one code span."""
    shown = display_text(text, None)
    page = render(f"- {md(shown, code=True)} · {md(shown)}\n")
    _assert_inert(page)
    assert page.elements["li"] == 1 and page.elements["ul"] == 1
    assert page.codes[0] == shown


def test_a_fleet_stays_bounded_and_its_names_inert() -> None:
    """Hundreds of targets named by hostile names, some not read: the warning and the table stay bounded."""
    report = check_key_names([b"User|x:1"])
    targets = [
        TargetResult(
            display_text(HOSTILE[index % len(HOSTILE)].decode("utf-8", "surrogateescape"), None) + f"-{index}",
            (("team", "@octocat|[x](http://e.example)"),),
            (),
            report if index % 3 else None,
            None if index % 3 else "cannot connect: <img src=x onerror=alert(1)> #12 @me " + "|" * 500,
        )
        for index in range(400)
    ]
    fleet = FleetReport(tuple(targets), "0.1.0", "fleet", "default")
    text = fleet_markdown(fleet, "en", limit=20_000)
    assert size(text) <= 20_000
    page = render(text)
    _assert_inert(page)
    (table,) = page.tables
    rows = table[1:]
    assert 0 < len(rows) <= FLEET_ROWS and all(len(row) == 9 for row in rows)
    assert [row[0].codes for row in rows] == [[display_text(t.name, QUOTE_LIMIT)] for t in targets[: len(rows)]]
    assert rows[1][1].codes == ["team=@octocat|[x](http://e.example)"]
    assert f"{400 - len(rows):,} more targets: see the JSON report (--format json), which lists every one" in (
        page.text()
    )
    warning = page.text().split("Preset:")[0]
    assert "more targets" in warning and warning.count("cannot connect") < 134
