"""An expiry simulation's charts in a real Chromium: three line charts drawn inside their drawing, coloured by
the page's style (light and dark), a hover target lit under the pointer with its values in its tooltip, the
table of the same numbers there for screen readers only, no overflow on a narrow window, the Chinese page; a
dump name made of script payloads shown as text, with and without the Content-Security-Policy."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pytest

from rediscipline.render.html import render_html
from rediscipline.render.html.words import WORDS
from tests.browser.conftest import OpenPage
from tests.browser.harness import XSS_PAYLOADS, assert_clean
from tests.render.expiry_reports import expiry_report, expiry_simulation

CHARTS = ("expiry-waiting", "expiry-waiting-bytes", "expiry-cpu")
HOSTILE = "".join(XSS_PAYLOADS) + ".rdb"


@dataclass(frozen=True)
class Pages:
    en: Path
    zh: Path


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Pages:
    report = expiry_report(expiry_simulation(path=HOSTILE))
    folder = tmp_path_factory.mktemp("expiry")
    paths = {}
    for lang in ("en", "zh"):
        stream = io.StringIO()
        render_html(report, stream, lang)
        paths[lang] = folder / f"expiry.{lang}.html"
        paths[lang].write_text(stream.getvalue(), encoding="utf-8")
    return Pages(paths["en"], paths["zh"])


def test_the_page_is_clean_and_the_dump_name_is_text(pages: Pages, open_page: OpenPage) -> None:
    for bypass in (False, True):  # without the CSP, only the escaping stands between a payload and the page
        page = open_page(pages.en, bypass_csp=bypass)
        page.settle()
        assert_clean(page)
        assert page.count_visible("section.traffic svg.lines") == 3
        assert page.text("#traffic-1 > h2").startswith(f"Expiry simulation of {HOSTILE[:250]}")


def test_the_lines_are_drawn_inside_their_charts(pages: Pages, open_page: OpenPage) -> None:
    page = open_page(pages.en)
    for chart in CHARTS:
        boxes = page.page.locator(f"figure[data-chart={chart}] svg.lines").evaluate(
            """svg => {
                const view = svg.viewBox.baseVal;
                return Array.from(svg.querySelectorAll("polyline")).map(line => {
                    const box = line.getBBox();
                    return [box.x, box.y, box.x + box.width, box.y + box.height, view.width, view.height,
                            line.points.numberOfItems, Number(line.dataset.points)];
                });
            }"""
        )
        assert boxes, chart
        for x0, y0, x1, y1, width, height, drawn, said in boxes:
            assert 0 <= x0 < x1 <= width and 0 <= y0 <= y1 <= height, (chart, x0, y0, x1, y1)
            assert drawn == said > 1
    # the table of the same numbers is in the page for screen readers, not shown
    assert page.count("figure[data-chart=expiry-cpu] table.chart-data tbody tr") == 120
    box = page.page.locator("figure[data-chart=expiry-cpu] .sr-only").bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1


def test_colours_follow_the_scheme_and_the_storm_is_red(pages: Pages, open_page: OpenPage) -> None:
    page = open_page(pages.en, color_scheme="light")
    first = "figure[data-chart=expiry-waiting] polyline[data-series=db0-waiting]"
    second = "figure[data-chart=expiry-waiting] polyline[data-series=db2-waiting]"
    light = page.style(first, "stroke")
    assert light == "rgb(9, 105, 218)" and page.style(second, "stroke") != light
    assert page.style(first, "fill") == "none"
    assert page.style("figure[data-chart=expiry-waiting] polyline[data-series=db0-reclaimed]", "stroke") == light
    assert page.style("figure[data-chart=expiry-cpu] rect.mark.hot", "fill") == "rgb(207, 34, 46)"
    page.color_scheme("dark")
    assert page.style(first, "stroke") not in (light, "none")
    assert_clean(page)


def test_a_hover_target_lights_up_and_names_its_values(pages: Pages, open_page: OpenPage) -> None:
    page = open_page(pages.en)
    target = page.page.locator("figure[data-chart=expiry-waiting] rect.hover").nth(40)
    assert target.evaluate("el => getComputedStyle(el).opacity") == "0"
    target.hover()
    assert float(target.evaluate("el => getComputedStyle(el).opacity")) > 0
    title = target.locator("title").text_content() or ""
    assert " · db 0: " in title and " · db 2: " in title and "expired still in memory" in title
    # the lines let the pointer through to the targets under them
    assert page.style("figure[data-chart=expiry-waiting] polyline[data-series=db0-waiting]", "pointer-events") == (
        "none"
    )


def test_a_narrow_window_scales_the_charts_without_overflow(pages: Pages, open_page: OpenPage) -> None:
    page = open_page(pages.en, width=520)
    overflow = page.page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    width = page.page.locator("figure[data-chart=expiry-cpu] svg.lines").evaluate("el => el.clientWidth")
    assert 300 < width < 520
    page.print_media()
    assert page.count_visible("svg.lines") == 3


def test_the_chinese_page(pages: Pages, open_page: OpenPage) -> None:
    page = open_page(pages.zh)
    for chart in CHARTS:
        assert page.text(f"figure[data-chart={chart}] figcaption") == WORDS[chart].zh
    legend = page.texts("figure[data-chart=expiry-cpu] .legend .key")
    assert legend == ["占服务端时间", "慢周期达到时间上限的步长"]
    ticks = page.page.locator("figure[data-chart=expiry-cpu] svg text").evaluate_all(
        "els => els.map(e => e.textContent)"
    )
    assert "10 分钟" in ticks
    assert_clean(page)
