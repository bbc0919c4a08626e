"""What the HTML report of a 1M-key scan costs: rendering it, loading it in a browser, and its size.

The report comes from one real run: `scan_rdb` (the library's dump audit, default preset, no convention file)
over the 1M-key dump of benchmarks/report_keyspace.py (built once with the local Redis 7.0, ~1 min, then
cached in `--dir`). Then, on that one Report object:

  render    `render_html` and `render_json` (the reference) into memory, `--repeat` times each, alternating
            (html json html json ...), so a slow phase of this shared machine hits both alike; perf_counter
  size      bytes of each output, and gzip -6 of them (what a mail attachment or a CI artefact store holds)
  load      the HTML file opened `--loads` times in headless Chromium (Debian's, tests/support/chromium.py), a
            fresh browser context each: from navigation start (the Performance API's time origin) to the end
            of the `load` event (PerformanceNavigationTiming.loadEventEnd), to DOMContentLoaded, and to the
            moment the last `figure.chart svg` was in the document (a MutationObserver installed before the
            page's first byte records performance.now() whenever their number grows)

Medians with min–max. The load rows are skipped, with the reason, when Chromium is not installed (apt-get
install chromium).

    .venv/bin/python benchmarks/html_report.py [--dir ~/.cache/rediscipline-bench] [--repeat 5] [--loads 5]
        [--lang en|zh] [--keep DIR] [--json FILE] [--force]
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from playwright.sync_api import Route
from rdb_datasets import DEFAULT_DIR, REDIS_CLI, Dataset, build, load_cached
from report_keyspace import REPORT_SPEC

from rediscipline.api import RdbScanOptions, scan_rdb, settings_for
from rediscipline.model.report import Report
from rediscipline.render import RENDERERS
from rediscipline.settings.loader import Overrides

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests.support: the project's real servers and its Chromium

from tests.support import chromium  # noqa: E402
from tests.support.servers import binary_version  # noqa: E402

# Installed before the page's first byte: counts `figure.chart svg` as the parser (or a script) adds them.
CHART_CLOCK_JS = """(() => {
  const clock = { charts: 0, last: null };
  window.__chartClock = clock;
  const count = () => {
    const n = document.querySelectorAll("figure.chart svg").length;
    if (n > clock.charts) { clock.charts = n; clock.last = performance.now(); }
  };
  new MutationObserver(count).observe(document, { childList: true, subtree: true });
})();"""
LOAD_TIMES_JS = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  return {
    load_ms: nav.loadEventEnd,
    dom_ms: nav.domContentLoadedEventEnd,
    first_paint_ms: paint ? paint.startTime : null,
    last_chart_ms: window.__chartClock.last,
    charts: window.__chartClock.charts,
  };
}"""


def dataset(folder: Path, force: bool) -> Dataset:
    folder = folder.expanduser()
    cached = None if force else load_cached(folder, REPORT_SPEC.name)
    if cached is not None:
        return cached
    print(f"building {REPORT_SPEC.name} ({REPORT_SPEC.description}) in {folder} ...", flush=True)
    return build(REPORT_SPEC, folder)


def time_render(render: Callable[..., None], report: Report, lang: str) -> tuple[float, str]:
    out = io.StringIO()
    started = time.perf_counter()
    render(report, out, lang, False)
    return time.perf_counter() - started, out.getvalue()


def load_times(path: Path, loads: int) -> list[dict[str, Any]]:
    """Open `path` `loads` times, each in a new context of one Chromium; the Performance API's numbers."""
    runs = []
    url = path.resolve().as_uri()

    def only_the_page(route: Route) -> None:
        route.continue_() if route.request.url == url else route.abort()

    with chromium.chromium_browser() as browser:
        for _ in range(loads):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            try:
                context.set_default_timeout(120_000)
                context.route("**/*", only_the_page)
                page = context.new_page()
                page.add_init_script(CHART_CLOCK_JS)
                page.goto(url, wait_until="load")
                page.wait_for_function("performance.getEntriesByType('navigation')[0].loadEventEnd > 0")
                runs.append(page.evaluate(LOAD_TIMES_JS))
            finally:
                context.close()
    return runs


def spread(values: Sequence[float], unit: str = "s", scale: float = 1.0) -> str:
    if not values:
        return "n/a"
    m, lo, hi = (v * scale for v in (statistics.median(values), min(values), max(values)))
    return f"{m:,.3f} {unit} ({lo:,.3f}–{hi:,.3f})" if unit == "s" else f"{m:,.0f} {unit} ({lo:,.0f}–{hi:,.0f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=f"dump cache (default {DEFAULT_DIR})")
    parser.add_argument("--repeat", type=int, default=5, help="renderings of each format (at least 3; default 5)")
    parser.add_argument("--loads", type=int, default=5, help="page loads in Chromium (at least 3; default 5)")
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--keep", type=Path, help="write report.html and report.json into this folder")
    parser.add_argument("--json", type=Path, help="also write the results as JSON to this file (- for stdout)")
    parser.add_argument("--force", action="store_true", help="rebuild the dump even when a cached one is valid")
    args = parser.parse_args(argv)
    repeat, loads = max(args.repeat, 3), max(args.loads, 3)
    if not REDIS_CLI.exists() or binary_version("redis70") is None:
        print("needs Debian's redis-server and redis-cli 7.0 to build the dump: apt-get install redis-server")
        return 2

    dump = dataset(args.dir, args.force)
    print(dump.summary())
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} CPUs; load {os.getloadavg()}")
    started = time.perf_counter()
    report = scan_rdb(RdbScanOptions((str(dump.path),)), settings_for(Overrides(isolated=True)))
    scan_seconds = time.perf_counter() - started
    print(f"scan_rdb: {scan_seconds:.1f} s, {len(report.findings)} findings\n")

    formats = ["html", "json"]
    seconds: dict[str, list[float]] = {name: [] for name in formats}
    texts: dict[str, str] = {}
    for _ in range(repeat):
        for name in formats:
            elapsed, texts[name] = time_render(RENDERERS[name], report, args.lang)
            seconds[name].append(elapsed)

    with tempfile.TemporaryDirectory(prefix="rediscipline-html-bench-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        paths = {name: folder / f"report.{name}" for name in formats}
        for name, path in paths.items():
            path.write_text(texts[name], encoding="utf-8")
        runs: list[dict[str, Any]] = []
        load_skipped = None
        if not chromium.installed():
            load_skipped = f"{chromium.CHROMIUM} not installed ({chromium.INSTALL_HINT})"
        else:
            runs = load_times(paths["html"], loads)

    sizes = {name: len(text.encode("utf-8")) for name, text in texts.items()}
    gzipped = {name: len(gzip.compress(text.encode("utf-8"), 6)) for name, text in texts.items()}
    print(f"{'':<34} {'median (min–max)':>32}")
    for name in formats:
        print(f"{'render_' + name:<34} {spread(seconds[name]):>32}   x{repeat}")
    for name in formats:
        print(f"{name + ' size':<34} {sizes[name] / 1e6:>28,.2f} MB   gzip {gzipped[name] / 1e6:,.2f} MB")
    if load_skipped:
        print(f"page load: skipped, {load_skipped}")
    else:
        charts = {run["charts"] for run in runs}
        for label, key in (("to DOMContentLoaded", "dom_ms"), ("to load event end", "load_ms")):
            print(f"{'page ' + label:<34} {spread([r[key] for r in runs], 'ms'):>32}   x{loads}")
        last = [r["last_chart_ms"] for r in runs if r["last_chart_ms"] is not None]
        print(f"{'page to last figure.chart svg':<34} {spread(last, 'ms'):>32}   charts: {sorted(charts)}")
        paint = [r["first_paint_ms"] for r in runs if r["first_paint_ms"] is not None]
        print(f"{'page to first contentful paint':<34} {spread(paint, 'ms'):>32}")
    ratio = statistics.median(seconds["html"]) / statistics.median(seconds["json"])
    print(f"\nrender_html / render_json (medians): {ratio:.2f}")

    if args.json:
        result = {
            "dataset": {"name": dump.name, "keys": dump.keys, "bytes": dump.bytes, "path": str(dump.path)},
            "scan_seconds": round(scan_seconds, 3),
            "findings": len(report.findings),
            "lang": args.lang,
            "render_seconds": seconds,
            "bytes": sizes,
            "gzip_bytes": gzipped,
            "page_loads": runs,
            "page_load_skipped": load_skipped,
            "chromium": str(chromium.CHROMIUM),
        }
        text = json.dumps(result, indent=1) + "\n"
        if str(args.json) == "-":
            sys.stdout.write(text)
        else:
            args.json.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
