"""The HTML report shows outside text as text: hostile key names, paths and messages never become markup."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from rediscipline.api import check_key_names
from rediscipline.api.code import CodeCheckOptions, check_code
from rediscipline.render.html import words as words_module
from rediscipline.render.html.page import assets
from rediscipline.render.html.words import WORDS
from tests.render.html.page_parts import csp_hash, parse, render

HOSTILE = [
    b"<img src=x onerror=alert(1)>:1",
    b"</script><script>window.__pwned=1</script>:2",
    b"{{7*7}}:3",
    b"a\x1b[31mred\x07:4",
    b"bin:\xff\xfe\x00:5",
    b"rlo:\xe2\x80\xaetxt.exe:6",
    b'quote:"onmouseover=alert(1) x=":7',
    b"amp:&lt;b&gt;:8",
]
#: The tags our templates write: anything else in a page came from data.
OUR_TAGS = {
    "html", "head", "meta", "title", "style", "body", "main", "h1", "h2", "h3", "h4", "header", "dl", "dt", "dd",
    "div", "span", "b", "p", "section", "ul", "li", "figure", "figcaption", "svg", "rect", "line", "text",
    "details", "summary", "article", "blockquote", "cite", "label", "input", "select", "option", "button", "code",
    "pre", "table", "thead", "tbody", "tr", "th", "td", "a", "footer", "script", "em", "strong", "ol", "polyline",
    "polygon",
}  # fmt: skip


def test_hostile_key_names_are_text_and_only_our_markup_is_in_the_page() -> None:
    page = render(check_key_names(HOSTILE))
    tags = {element.tag for element in page.elements}
    assert tags <= OUR_TAGS, tags - OUR_TAGS
    assert not page.all("img")
    scripts = page.all("script")
    assert [s.attrs.get("type") for s in scripts] == ["application/json", None]
    assert page.script_bodies()[1] == str(assets().script)
    # no attribute from data: every on* attribute would be an event handler
    assert not [e for e in page.elements for name in e.attrs if name.startswith("on")]
    # the names are shown, escaped for display, as text
    assert "<img src=x onerror=alert(1)>:1" in page.text
    assert "</script><script>window.__pwned=1</script>:2" in page.text
    assert "{{7*7}}:3" in page.text
    assert "a\\x1b[31mred\\x07:4" in page.text
    assert "bin:\\xff\\xfe\\x00:5" in page.text
    assert "rlo:\\u202etxt.exe:6" in page.text
    assert "amp:&lt;b&gt;:8" in page.text  # the entity is the name's own text, not an entity
    assert "\x1b" not in page.source and "\u202e" not in page.source


def test_content_security_policy_allows_exactly_our_style_and_script() -> None:
    page = render(check_key_names([b"user:1"]))
    [policy] = [m.attrs["content"] for m in page.all("meta", http_equiv="Content-Security-Policy")]
    assert policy is not None
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    [style] = page.all("style")
    assert directives["default-src"] == "'none'"
    assert directives["style-src"] == csp_hash("".join(style.text))
    assert directives["script-src"] == csp_hash(page.script_bodies()[1])
    assert directives["base-uri"] == "'none'" and directives["form-action"] == "'none'"
    assert "http://" not in page.source.replace("http://www.w3.org", "") and "https://" not in page.source


def test_a_one_megabyte_name_is_cut_in_the_page_and_whole_behind_its_copy_button() -> None:
    name = b"big:" + b"A" * 1_000_000
    page = render(check_key_names([name, b"user:1"]))
    buttons = page.all("button", **{"class": "copy"})
    assert buttons and {b.attrs["data-ref"] for b in buttons} == {"0"}  # every finding of the name: one entry
    names = json.loads("".join(page.all("script", id="long-names")[0].text))
    assert names == [name.decode()]
    assert "…(1,000,004 bytes)" in page.text
    assert len(page.source) < 2_000_000


def test_long_names_beyond_the_budget_point_to_the_json_report() -> None:
    names = [prefix + b":" + b"B" * 600_000 for prefix in (b"alpha", b"beta", b"gamma")]
    page = render(check_key_names(names))
    refs = {button.attrs["data-ref"] for button in page.all("button", **{"class": "copy"})}
    assert refs == {"0"}  # 1.1 million characters hold one name of 600,006
    assert "The full name (600,006 bytes) is in the JSON report (--format json)." in page.text
    assert len(page.source) < 2_000_000


def test_page_stays_bounded_with_ten_thousand_patterns() -> None:
    # the pattern table keeps a level of at most 24 words as words: 22 × 22 × 22 patterns, upper case
    words = [f"Word{chr(97 + i)}{chr(97 + i)}" for i in range(22)]
    names = [f"{a}:{b}:{c}:{n}".encode() for a in words for b in words for c in words for n in (1, 2)]
    report = check_key_names(names)
    assert report.stats.patterns >= 10_000
    page = render(report)
    assert len(page.source.encode()) < 2_000_000
    rows = page.all("li", **{"class": "occurrence"})
    assert 0 < len(rows) <= 1500
    assert "more findings of lower rank are not in this page" in page.text
    assert "patterns with most keys of" in page.text


def test_empty_report_has_an_empty_state_and_no_broken_chart() -> None:
    page = render(check_key_names([]))
    assert page.all("p", id="no-findings")
    assert not page.all("input", id="search")
    figures = page.all("figure")
    assert figures and all("empty" in (f.attrs.get("class") or "") for f in figures)
    assert not page.with_class("mark")


def test_code_findings_are_grouped_by_file_with_their_line(tmp_path: Path) -> None:
    source = tmp_path / "svc" / "jobs.py"
    source.parent.mkdir()
    source.write_text(
        'import redis\n\nr = redis.Redis()\n\n\ndef purge():\n    r.flushall()\n    r.keys("<b>:*")\n',
        encoding="utf-8",
    )
    result = check_code(CodeCheckOptions(targets=(str(source.parent),)), root=tmp_path)
    page = render(result.report)
    [file] = page.all("section", **{"class": "file group"})
    assert file.attrs["data-path"] == "svc/jobs.py"
    lines = ["".join(e.text) for e in page.with_class("code-line")]
    assert "r.flushall()" in lines and 'r.keys("<b>:*")' in lines
    assert ["".join(e.text) for e in page.with_class("place")] == ["7:5", "8:5"]  # in line order
    assert page.all("section", id="rules")
    assert not page.all("figure")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_language(lang: str) -> None:
    page = render(check_key_names([b"User:Profile:1", b"user:1"]), lang)
    [root] = page.all("html")
    assert root.attrs["lang"] == ("zh-CN" if lang == "zh" else "en")
    findings = WORDS["findings"].in_(lang)
    assert f"{findings} (" in page.text


def test_chinese_page_has_no_english_fixed_word() -> None:
    report = check_key_names([b"User:Profile:1", b"user:1", b"big:" + b"x" * 300])
    page = render(report, "zh")
    # the documents' own words (section names such as `001 §1 key命名设计`) are quoted, not translated
    chrome = re.sub(
        r'<details class="rule-doc">.*?</details>|<blockquote class="citation">.*?</blockquote>',
        "",
        page.source,
        flags=re.S,
    )
    visible = parse(chrome).visible
    assert "正确做法" in visible
    left = [
        text.en
        for text in WORDS.values()
        if "{" not in text.en
        and text.en != text.zh
        and re.search(rf"(?<![A-Za-z]){re.escape(text.en)}(?![A-Za-z])", visible)
    ]
    assert left == []


def test_message_text_is_escaped_once() -> None:
    page = render(check_key_names([b"a b:<x>&y"]))
    assert "a b:<x>&y" in page.text
    assert html.escape("a b:<x>&y") in page.source


def test_every_fixed_word_is_used() -> None:
    folder = Path(words_module.__file__).parent
    sources = [p for p in folder.rglob("*") if p.suffix in {".py", ".j2"}]
    # the table's own rows name every word: only what reads them counts
    lines = (line for p in sources for line in p.read_text(encoding="utf-8").splitlines())
    text = "\n".join(line for line in lines if '": Text(' not in line)
    unused = [name for name in WORDS if f'"{name}"' not in text and f"w.{name.replace('-', '_')}" not in text]
    assert unused == []


@pytest.mark.parametrize("filler", ["<"])
def test_a_keyspace_built_to_fill_the_page_still_gives_a_bounded_page(filler: str) -> None:
    # 10,648 patterns of long names, each pattern three keys, and three names of 400 KB: every part of the
    # page at its usual limits would hold several MB (an escaped `<` takes four bytes)
    words = [f"Word{chr(97 + i)}{chr(97 + i)}" for i in range(22)]
    tail = filler * 400
    names = [f"{a}:{b}:{c}:{tail}:{n}".encode() for a in words for b in words for c in words for n in (1, 2, 3)]
    names += [b"big%d:" % i + b"Z" * 400_000 for i in range(3)]
    page = render(check_key_names(names))
    assert len(page.source.encode()) < 2_000_000
    assert "more findings of lower rank are not in this page" in page.text
    assert page.all("li", **{"class": "occurrence"}) and page.all("p", id="no-match")
