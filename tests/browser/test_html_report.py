"""The HTML report in a real Chromium: charts drawn from the same run's JSON report, filters, search, no script
from data, no network, light and dark, the Chinese page.

One real server (Debian's Redis 7.0, else another installed kind) is filled with the seeded dataset of
tests/support/dataset.py plus key names built to break pages, scanned once with the full summary; the HTML
and JSON renderings of that one Report are what every test reads.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rediscipline.api import scan_live
from rediscipline.model.report import Report
from rediscipline.render.html import render_html
from rediscipline.render.html.words import WORDS
from rediscipline.render.json_output import report_to_dict
from rediscipline.sources.live.source import LiveScanOptions
from tests.browser.conftest import OpenPage
from tests.browser.harness import XSS_PAYLOADS, WatchedPage, assert_clean
from tests.live.conftest import serve
from tests.support.dataset import populate
from tests.support.servers import ServerProcess, available_kinds

SCALE = 3_000


@dataclass(frozen=True)
class Rendered:
    report: Report
    data: dict[str, Any]
    en: Path
    zh: Path


@pytest.fixture(scope="module")
def seeded() -> Iterator[ServerProcess]:
    kind = next((k for k in ("redis70", "valkey91", "redis82", "redis62") if k in available_kinds()), "redis70")
    yield from serve(kind)


@pytest.fixture(scope="module")
def rendered(seeded: ServerProcess, tmp_path_factory: pytest.TempPathFactory) -> Rendered:
    with seeded.client() as client:
        populate(client, SCALE)
        for index, payload in enumerate(XSS_PAYLOADS):
            client.set(f"xss:{payload}:{index}".encode(), b"v")
        client.set(b"bin:\xff\xfe\x1b[2J:1", b"v")
    report = scan_live(LiveScanOptions(url=seeded.url), summary=True)
    folder = tmp_path_factory.mktemp("html")
    paths = {}
    for lang in ("en", "zh"):
        stream = io.StringIO()
        render_html(report, stream, lang)
        paths[lang] = folder / f"report.{lang}.html"
        paths[lang].write_text(stream.getvalue(), encoding="utf-8")
    return Rendered(report, report_to_dict(report), paths["en"], paths["zh"])


def _values(page: WatchedPage, selector: str) -> list[int]:
    return [int(v) for v in page.page.locator(selector).evaluate_all("els => els.map(e => e.dataset.value)")]


def test_page_is_clean_with_and_without_its_csp(rendered: Rendered, open_page: OpenPage) -> None:
    for bypass in (False, True):  # without the CSP, only the escaping stands between a payload and the page
        page = open_page(rendered.en, bypass_csp=bypass)
        page.settle()
        assert_clean(page)
        assert page.external_references() == []
        assert page.attribute("html", "data-ready") == "1"


def test_hostile_names_are_shown_as_text(rendered: Rendered, open_page: OpenPage) -> None:
    page = open_page(rendered.en)
    text = page.page.locator("body").inner_text()
    assert "bin:\\xff\\xfe\\x1b[2J:" in text
    # the pattern table shows each pattern the payloads made (how many depends on how inference groups them)
    patterns = [row["pattern"] for row in rendered.data["patterns"]["items"] if row["pattern"].startswith("xss:")]
    assert patterns
    for pattern in patterns:
        assert pattern[:60] in text, pattern
    examples = " ".join(page.texts("ul.examples li"))
    assert any(f"xss:{payload}:{index}" in examples for index, payload in enumerate(XSS_PAYLOADS))


def test_charts_match_the_json_report(rendered: Rendered, open_page: OpenPage) -> None:
    page = open_page(rendered.en)
    keyspace = rendered.data["keyspace"]
    by_keys = sorted((t for t in keyspace["by_type"] if t["keys"]), key=lambda t: (-t["keys"], t["type"]))
    assert _values(page, "[data-chart=keys-by-type] .mark") == [t["keys"] for t in by_keys]
    by_memory = sorted((t for t in keyspace["by_type"] if t["memory"]), key=lambda t: (-t["memory"], t["type"]))
    assert _values(page, "[data-chart=memory-by-type] .mark") == [t["memory"] for t in by_memory]
    namespaces = sorted((n["memory"] for n in keyspace["namespaces"] if n["memory"]), reverse=True)[:30]
    top_rows = "[data-chart=memory-by-namespace] > .bars > details > summary .mark"
    flat_rows = "[data-chart=memory-by-namespace] > .bars > div.bar-row .mark"
    assert sorted(_values(page, top_rows) + _values(page, flat_rows), reverse=True) == namespaces
    sizes = [b for b in keyspace["size_buckets"] if b["keys"]]
    assert _values(page, "[data-chart=size-keys] .mark") == [b["keys"] for b in sizes]
    expiry = keyspace["expiry"]
    minutes = page.page.locator("[data-chart=expiry-timeline-minutes] .mark").evaluate_all(
        "els => els.map(e => [Number(e.dataset.index), Number(e.dataset.value)])"
    )
    assert minutes == [[i, v] for i, v in enumerate(expiry["per_minute"]) if v]
    assert sum(_values(page, "[data-chart=expiry-timeline-hours] .mark")) == sum(expiry["per_hour"])
    assert _values(page, "[data-chart=top-by-memory] .mark") == [k["memory"] for k in keyspace["top_by_memory"]]
    assert _values(page, "[data-chart=top-by-length] .mark") == [k["length"] for k in keyspace["top_by_length"]]
    assert page.count("[data-chart=ttl-coverage] .mark") == 4
    assert page.text("[data-field=score]") == str(rendered.data["summary"]["score"])
    for severity, count in rendered.data["summary"]["by_severity"].items():
        assert page.text(f"[data-severity-count={severity}]") == str(count)
    assert page.count("figure.chart svg") >= 3


def test_namespace_opens_onto_its_patterns(rendered: Rendered, open_page: OpenPage) -> None:
    page = open_page(rendered.en)
    first = "[data-chart=memory-by-namespace] > .bars > details.drill >> nth=0"
    assert page.count_visible("[data-chart=patterns-of-namespace]") == 0
    page.page.locator(first).locator("summary").click()
    assert page.count_visible("[data-chart=patterns-of-namespace]") == 1
    assert page.count_visible("[data-chart=patterns-of-namespace] .bar-row") >= 1


def test_filters_and_search(rendered: Rendered, open_page: OpenPage) -> None:
    page = open_page(rendered.en)
    total = page.count("li.occurrence")
    assert int(page.text("#shown-count").replace(",", "")) == total == page.count_visible("li.occurrence")
    page.click("input[name=severity][value=error]")
    visible = page.page.locator("li.occurrence:visible")
    assert visible.count() == total - page.count("li.occurrence[data-severity=error]")
    assert page.count_visible("li.occurrence[data-severity=error]") == 0
    assert int(page.text("#shown-count").replace(",", "")) == visible.count()
    page.click("input[name=severity][value=error]")
    page.page.select_option("#family", "TTL")
    assert page.count_visible("article.finding") == page.count("article.finding[data-family=TTL]")
    page.page.select_option("#family", "")
    page.search("no-such-text-anywhere")
    assert page.count_visible("li.occurrence") == 0
    assert page.count_visible("#no-match") == 1
    page.search("xss")
    rows = page.texts("li.occurrence:visible")
    assert rows and all("xss" in row.lower() for row in rows)
    assert_clean(page)


def test_dark_and_print(rendered: Rendered, open_page: OpenPage) -> None:
    page = open_page(rendered.en)
    light = page.style("body", "background-color")
    page.color_scheme("dark")
    dark = page.style("body", "background-color")
    assert light == "rgb(255, 255, 255)" and dark != light
    page.print_media()
    assert page.count_visible(".controls") == 0
    assert_clean(page)


def test_chinese_page(rendered: Rendered, open_page: OpenPage) -> None:
    page = open_page(rendered.zh)
    assert page.attribute("html", "lang") == "zh-CN"
    assert page.text("#findings > h2").startswith("问题")
    assert page.text("figure[data-chart=keys-by-type] figcaption") == "按类型的 Key 数"
    buckets = page.texts("figure[data-chart=ttl-buckets] .bar-label")
    assert "不过期" in buckets and not [label for label in buckets if "expiry" in label or " h" in label]
    for english in WORDS.values():  # every fixed word of the page, outside the quoted documents
        if "{" not in english.en and english.en != english.zh:
            assert page.count(f"#summary :text-is({english.en!r}), .chart figcaption:text-is({english.en!r})") == 0
    assert_clean(page)
