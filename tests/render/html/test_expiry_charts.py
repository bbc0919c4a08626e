"""The charts of an expiry simulation in the HTML report: one SVG per chart with a bounded line per database (and
its reclaimed count), the memory of the expired keys, the expire cycle's share of the server's time as stairs
with the storm marked; axes with round values and times; both languages; no chart without keys with a TTL;
hostile input shown as text. The geometry's helpers are checked on their own first."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rediscipline.render.html import charts
from rediscipline.render.html.charts import (
    HOVERS,
    LINE_HEIGHT,
    LINE_POINTS,
    LINE_WIDTH,
    decimated,
    merged_runs,
    nice_levels,
    time_ticks,
)
from rediscipline.render.html.simulation_charts import MAX_DATABASES, byte_level, compact, elapsed, percent
from rediscipline.render.html.words import WORDS
from tests.render.expiry_reports import expiry_report, expiry_simulation
from tests.render.html.page_parts import Element, Page, parse, render
from tests.render.html.test_html_escaping import OUR_TAGS
from tests.support.rdbwriter import RdbBuilder

CHARTS = ["expiry-waiting", "expiry-waiting-bytes", "expiry-cpu"]
#: The fixed words of these charts (their English must not be left in the Chinese page).
CHART_WORDS = ("expiry-waiting", "expiry-waiting-bytes", "expiry-cpu", "time-column", "limit-band", "longest-cycle")


# ---- the geometry's helpers -----------------------------------------------------------------------------------


def test_levels_are_round_and_reach_the_top() -> None:
    assert nice_levels(5_144, whole=True) == [0, 2_000, 4_000, 6_000]
    assert nice_levels(60_000, whole=True) == [0, 20_000, 40_000, 60_000]
    assert nice_levels(3, whole=True) == [0, 1, 2, 3]  # keys: no quarter of a key
    assert nice_levels(1, whole=True) == [0, 1]
    assert nice_levels(2.7 * 2**20, binary=True) == [0, 2**20, 2 * 2**20, 3 * 2**20]  # 0, 1 MB, 2 MB, 3 MB
    shares = nice_levels(0.24)
    assert [round(level, 6) for level in shares] == [0, 0.1, 0.2, 0.3]
    for top in (0.0007, 0.5, 7, 99, 1_000_001, 3.3e9):
        levels = nice_levels(top)
        assert levels[0] == 0 and levels[-1] >= top and levels[-2] < top and 2 <= len(levels) <= 6, (top, levels)


def test_time_ticks_are_round_and_at_most_eight_intervals() -> None:
    assert time_ticks(60) == [0, 10, 20, 30, 40, 50, 60]
    assert time_ticks(3_600) == [0, 600, 1_200, 1_800, 2_400, 3_000, 3_600]
    assert time_ticks(86_400) == [index * 10_800 for index in range(9)]
    for span in (1, 7, 59, 61, 899, 7_201, 86_401, 30 * 86_400, 400 * 86_400):
        ticks = time_ticks(span)
        assert ticks[0] == 0 and ticks[-1] <= span and 1 <= len(ticks) - 1 <= 8, (span, ticks)


def test_decimation_keeps_the_ends_and_every_spike() -> None:
    assert decimated([1.0] * 10) == list(range(10))
    values = [0.0] * 1_000
    values[337] = 9.0  # one spike in a flat line
    values[338] = -1.0
    kept = decimated(values)
    assert len(kept) <= LINE_POINTS and kept == sorted(set(kept))
    assert {0, 337, 338, 999} <= set(kept)


def test_runs_are_merged_across_their_smallest_gaps() -> None:
    runs = [(index * 3, index * 3) for index in range(100)]
    merged = merged_runs(runs, 10)
    assert len(merged) == 10 and merged[0][0] == 0 and merged[-1][1] == 297
    assert all(a[1] < b[0] for a, b in itertools.pairwise(merged))
    assert merged_runs([(1, 2), (8, 9)], 10) == [(1, 2), (8, 9)]


def test_numbers_and_times_for_people() -> None:
    assert [compact(v) for v in (0, 250, 1_000, 2_500, 12_500, 1_250_000)] == [
        "0",
        "250",
        "1k",
        "2.5k",
        "12.5k",
        "1.25M",
    ]
    assert [byte_level(v) for v in (0, 512, 700 * 1024, 2.5 * 2**20)] == ["0", "512 B", "700 KB", "2.5 MB"]
    assert [percent(v) for v in (0, 0.00025, 0.125)] == ["0", "0.025%", "12.5%"]
    times = (0, 0.5, 45, 60, 90, 5_400, 2 * 86_400, 90_061)
    assert [elapsed(t, "en") for t in times] == [
        "0", "0.5 s", "45 s", "1 min", "1 min 30 s", "1 h 30 min", "2 d", "1 d 1 h"
    ]  # fmt: skip
    assert elapsed(5_400, "zh") == "1 小时 30 分钟"


# ---- the page -------------------------------------------------------------------------------------------------


def _figures(page: Page) -> list[Element]:
    return [f for f in page.all("figure") if (f.attrs.get("data-chart") or "").startswith("expiry-")]


def _lines(page: Page, chart: str) -> list[Element]:
    return [e for e in page.all("polyline") if e.chart == chart]


def _points(line: Element) -> list[tuple[float, float]]:
    pairs = (pair.split(",") for pair in (line.attrs["points"] or "").split())
    return [(float(x), float(y)) for x, y in pairs]


def _texts(page: Page, chart: str, tag: str) -> list[str]:
    return ["".join(e.text) for e in page.all(tag) if e.chart == chart]


def test_a_simulation_draws_three_line_charts_bounded_and_in_the_drawing() -> None:
    page = render(expiry_report(expiry_simulation()))
    assert [f.attrs["data-chart"] for f in _figures(page)] == CHARTS
    assert all("empty" not in (f.attrs.get("class") or "") for f in _figures(page))
    # keys: a solid line (still in memory) and a dashed one (reclaimed) per database; memory: one per database
    assert [e.attrs["data-series"] for e in _lines(page, "expiry-waiting")] == [
        "db0-waiting", "db0-reclaimed", "db2-waiting", "db2-reclaimed"
    ]  # fmt: skip
    assert ["dashed" in (e.attrs["class"] or "") for e in _lines(page, "expiry-waiting")] == [False, True] * 2
    assert [e.attrs["data-series"] for e in _lines(page, "expiry-waiting-bytes")] == ["db0-bytes", "db2-bytes"]
    assert [e.attrs["data-series"] for e in _lines(page, "expiry-cpu")] == ["cpu-share"]
    for chart in CHARTS:
        [svg] = [e for e in page.all("svg") if e.chart == chart]
        assert svg.attrs["viewbox"] == f"0 0 {LINE_WIDTH} {LINE_HEIGHT}" and svg.attrs["role"] == "img"
        for line in _lines(page, chart):
            points = _points(line)
            assert len(points) == int(line.attrs["data-points"] or 0) <= LINE_POINTS  # 901 points: cut
            assert all(0 <= x <= LINE_WIDTH and 0 <= y <= LINE_HEIGHT for x, y in points)
            assert [x for x, _y in points] == sorted(x for x, _y in points)  # in time order
        hovers = [e for e in page.with_class("hover") if e.chart == chart]
        rows = [e for e in page.all("tr") if e.chart == chart][1:]  # the chart's table, under its head
        assert len(hovers) == len(rows) == HOVERS
    # one solid line on the cycle's chart: the area under it is filled; several on the others: none is
    assert [e.chart for e in page.all("polygon")] == ["expiry-cpu"]


def test_the_hover_targets_name_the_peak_of_their_stretch_in_keys_and_bytes() -> None:
    page = render(expiry_report(expiry_simulation()))
    titles = _texts(page, "expiry-waiting", "title")
    # the burst at 5 min: 5,000 keys of 750 bytes in db 2, none reclaimed yet; db 0's trickle beside it
    burst = (
        "5 min · db 0: 144 expired still in memory (77.3 KB), 900 reclaimed · "
        "db 2: 5,000 expired still in memory (3.6 MB), 0 reclaimed"
    )
    assert burst in titles
    assert burst in _texts(page, "expiry-waiting-bytes", "title")  # keys and bytes together, on both charts
    caption = _texts(page, "expiry-waiting", "p")
    assert "Most at once: 5,144 expired keys still in memory (3.7 MB) at 5 min." in caption, caption


def test_the_storm_is_marked_with_its_cycles_at_their_time_limit() -> None:
    page = render(expiry_report(expiry_simulation()))
    marks = [e for e in page.with_class("mark") if e.chart == "expiry-cpu"]
    # the steps ending at 301 s … 419 s: one run of 119 steps of 10 cycles each
    assert [int(m.attrs["data-value"] or 0) for m in marks] == [1_190]
    [title] = ["".join(e.text) for e in page.all("title") if e.chart == "expiry-cpu" and "stopped" in "".join(e.text)]
    assert title == "5 min – 6 min 59 s: 1,190 slow cycles stopped at their time limit"
    [caption] = [e for e in page.with_class("chart-caption") if e.chart == "expiry-cpu"]
    assert "alert" in (caption.attrs["class"] or "")
    assert "".join(caption.text) == (
        "Slow cycles stopped at their time limit in 119 of 900 steps (1,190 cycles); the busiest step took 24% "
        "of the server's time."
    )
    # stairs: each step's share is held from its start to its end
    page = render(expiry_report(expiry_simulation(points=60, step=60.0)))
    [line] = _lines(page, "expiry-cpu")
    points = _points(line)
    assert len(points) == 120 and all(points[i][1] == points[i + 1][1] for i in range(0, 120, 2))
    assert _texts(page, "expiry-cpu", "th") == ["Time", "share of the server's time", "cycles at their time limit",
                                                "longest cycle"]  # fmt: skip


def test_axes_have_round_levels_and_times_with_units() -> None:
    page = render(expiry_report(expiry_simulation()))
    texts = _texts(page, "expiry-waiting", "text")
    assert texts[:4] == ["0", "20k", "40k", "60k"]  # the levels, then the times
    assert texts[4:] == ["0", "2 min", "4 min", "6 min", "8 min", "10 min", "12 min", "14 min"]
    assert _texts(page, "expiry-waiting-bytes", "text")[:5] == ["0", "1 MB", "2 MB", "3 MB", "4 MB"]
    assert _texts(page, "expiry-cpu", "text")[:4] == ["0", "10%", "20%", "30%"]
    assert "time since 2026-11-18 11:06:40 UTC" in _texts(page, "expiry-cpu", "p")


def test_few_points_are_all_drawn() -> None:
    page = render(expiry_report(expiry_simulation(points=60, step=60.0)))
    for chart in ("expiry-waiting", "expiry-waiting-bytes"):
        assert {int(e.attrs["data-points"] or 0) for e in _lines(page, chart)} == {61}
    assert len([e for e in page.with_class("hover") if e.chart == "expiry-waiting"]) == 61
    assert len([e for e in page.with_class("hover") if e.chart == "expiry-cpu"]) == 60  # one per step


def test_databases_beyond_the_bound_are_left_out_and_said() -> None:
    page = render(expiry_report(expiry_simulation(dbs=tuple(range(9)), points=120, step=30.0)))
    lines = _lines(page, "expiry-waiting")
    assert len(lines) == 2 * MAX_DATABASES
    drawn = [e.attrs["data-series"] for e in _lines(page, "expiry-waiting-bytes")]
    # the most memory held: db 2's burst, then db 8 … db 4 (the bytes per key grow with the database's number)
    assert drawn == [f"db{db}-bytes" for db in (2, 4, 5, 6, 7, 8)]
    assert "3 more databases are not drawn; the tables below list each one." in _texts(page, "expiry-waiting", "p")
    assert len([t for t in page.all("table") if t.attrs.get("data-table") == "expiry-series"]) == 9
    assert len({(e.attrs["class"] or "").split()[1] for e in lines}) == MAX_DATABASES  # a colour each


def test_no_key_with_a_ttl_draws_no_chart() -> None:
    page = render(expiry_report(expiry_simulation(volatile=False)))
    assert _figures(page) == [] and not page.all("polyline")
    assert "no key has a TTL: nothing expires" in page.text


def test_nothing_expiring_within_the_span_says_so_instead_of_a_line_of_zeros() -> None:
    page = render(expiry_report(expiry_simulation(quiet=True, points=60, step=60.0)))
    figures = _figures(page)
    assert [f.attrs["data-chart"] for f in figures] == ["expiry-waiting", "expiry-cpu"]
    assert "empty" in (figures[0].attrs["class"] or "")
    assert "Nothing to draw: no TTL ends within the 1 h simulated." in page.text
    assert [e.chart for e in page.all("polyline")] == ["expiry-cpu"]  # the cycle still samples the keys
    assert "No slow cycle reached its time limit" in page.text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_charts_speak_the_page_language(lang: str) -> None:
    page = render(expiry_report(expiry_simulation(points=60, step=60.0)), lang)
    captions = [
        "".join(e.text) for e in page.all("figcaption") if (e.chart or "").startswith("expiry-")
    ]  # fmt: skip
    assert captions == [WORDS[name].in_(lang) for name in CHARTS]
    ticks = _texts(page, "expiry-cpu", "text")
    unit = "分钟" if lang == "zh" else "min"
    assert f"10 {unit}" in ticks
    legend = [
        "".join(e.text) for e in page.with_class("key") if e.chart == "expiry-waiting"
    ]  # fmt: skip
    assert legend[0] == ("db 0：已过期仍在内存" if lang == "zh" else "db 0: expired, still in memory")
    if lang == "zh":
        section = "".join(
            "".join(e.text) for e in page.elements if (e.chart or "").startswith("expiry-") and e.tag != "title"
        )
        left = [WORDS[n].en for n in CHART_WORDS if re.search(rf"\b{re.escape(WORDS[n].en)}\b", section)]
        assert left == []
        assert "自 2026-11-18 11:06:40 UTC 起的时间" in section


def test_a_hostile_dump_name_is_text_and_only_our_markup_is_drawn() -> None:
    hostile = '<img src=x onerror="window.__pwned=1">\x1b[31m</svg><script>x</script>.rdb'
    page = render(expiry_report(expiry_simulation(path=hostile, points=60, step=60.0)))
    assert {e.tag for e in page.elements} <= OUR_TAGS, {e.tag for e in page.elements} - OUR_TAGS
    assert not page.all("img") and len(page.all("script")) == 2
    assert not [e for e in page.elements for name in e.attrs if name.startswith("on")]
    assert "\x1b" not in page.source
    [heading] = [e for e in page.all("h2") if "Expiry simulation" in "".join(e.text)]
    assert "".join(heading.text) == (
        'Expiry simulation of <img src=x onerror="window.__pwned=1">\\x1b[31m</svg><script>x</script>.rdb'
    )
    assert len(_figures(page)) == 3


def test_the_charts_keep_the_page_small() -> None:
    """Sixteen databases of 1,000 points each: six drawn, 500 points a line at most, the page well under its
    bound."""
    page = render(expiry_report(expiry_simulation(dbs=tuple(range(16)), points=1_000, step=3.6)))
    assert len(page.source.encode()) < 600_000
    assert sum(int(e.attrs["data-points"] or 0) for e in page.all("polyline")) <= (3 * MAX_DATABASES + 1) * LINE_POINTS
    assert len(page.with_class("band")) <= charts.BANDS


# ---- from a dump, as a user runs it ---------------------------------------------------------------------------

CTIME = 1_795_000_000


def test_simulate_expiry_writes_the_charts_of_its_series(tmp_path: Path) -> None:
    builder = RdbBuilder().aux(b"ctime", str(CTIME).encode()).select(0)
    for number in range(4_000):
        builder.string(b"bg:%d" % number, b"v" * 50, expire_ms=(CTIME + 3600) * 1000)
    for number in range(200):
        builder.string(b"session:%d" % number, b"v" * 50, expire_ms=(CTIME + 5) * 1000)
    dump = tmp_path / "dump.rdb"
    dump.write_bytes(builder.build())
    outputs = {}
    for fmt in ("json", "html"):
        done = subprocess.run(
            [sys.executable, "-m", "rediscipline", "simulate", "expiry", str(dump), "--seconds", "60", "--step", "10",
             "--format", fmt, "--isolated"],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        outputs[fmt] = done.stdout
    expiry = json.loads(outputs["json"])["simulation"]["expiry"]
    page = parse(outputs["html"])
    assert [f.attrs["data-chart"] for f in _figures(page)] == CHARTS
    waiting = _lines(page, "expiry-waiting")
    assert [e.attrs["data-series"] for e in waiting] == ["db0-waiting", "db0-reclaimed"]
    assert {int(e.attrs["data-points"] or 0) for e in waiting} == {len(expiry["series"])}  # 0, 10, … 60 s
    [cpu] = _lines(page, "expiry-cpu")
    assert int(cpu.attrs["data-points"] or 0) == 2 * len(expiry["steps"])
    assert _texts(page, "expiry-cpu", "text")[-7:] == ["0", "10 s", "20 s", "30 s", "40 s", "50 s", "1 min"]
