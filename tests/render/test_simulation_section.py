"""A simulation's section in every format: exact text, Markdown and JSON for a small trace replayed at three
sizes and four policies (a fixed seed: the replays are deterministic), escaped names, and the Markdown valid."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest

from rediscipline.api.defaults import settings_for
from rediscipline.api.simulate import EvictionOptions, simulate_eviction
from rediscipline.model.report import Report
from rediscipline.render import RENDERERS
from rediscipline.settings.loader import Overrides
from tests.render.test_snapshots import _check

TRACE = Path("tests/simulate/data/zipf300.txt")


def _report() -> Report:
    options = EvictionOptions(
        trace=TRACE,
        policies=("allkeys-lru", "allkeys-lfu", "volatile-ttl", "noeviction"),
        maxmemory=(1_000_000, 1_040_000, 1_100_000),
    )
    report = simulate_eviction(options, settings_for(Overrides(isolated=True)))
    return replace(report, stats=replace(report.stats, elapsed_seconds=0.0))


def _rendered(report: Report, fmt: str, lang: str = "en") -> str:
    out = io.StringIO()
    RENDERERS[fmt](report, out, lang, False)
    return out.getvalue()


@pytest.mark.parametrize(("fmt", "lang"), [("text", "en"), ("text", "zh"), ("json", "en"), ("markdown", "en")])
def test_simulation_snapshot(fmt: str, lang: str) -> None:
    extension = {"text": "txt", "json": "json", "markdown": "md"}[fmt]
    _check(f"simulation.{lang}.{extension}", _rendered(_report(), fmt, lang))


def test_a_hostile_key_name_is_escaped_everywhere() -> None:
    report = _report()
    for fmt in ("text", "markdown", "html"):
        shown = _rendered(report, fmt)
        assert "\x1b" not in shown, fmt
    document = json.loads(_rendered(report, "json"))
    patterns = {n["pattern"] for r in document["simulation"]["eviction"]["results"] for n in r["namespaces"]}
    # the name's pattern is a glob (its backslash and `[` escaped); the JSON keeps the text, ESC as a JSON escape
    assert "bin:\\\\xff\x1b\\[31m" in patterns, patterns


def test_every_field_of_the_simulation_is_documented() -> None:
    """docs/json-report.md: the `simulation` table names each field of the trace, the settings and a result."""
    docs = (Path(__file__).parents[2] / "docs" / "json-report.md").read_text(encoding="utf-8")
    section = docs[docs.index("### `simulation`") : docs.index("### `patterns`")]
    table = section[section.index("| field |") :]
    eviction = json.loads(_rendered(_report(), "json"))["simulation"]["eviction"]
    for part in ("trace", "settings"):
        row = next(line for line in table.splitlines() if line.startswith(f"| `eviction.{part}`"))
        assert all(f"`{name}`" in row for name in eviction[part]), (part, row)
    row = next(line for line in table.splitlines() if line.startswith("| `eviction.results[]`"))
    assert all(f"`{name}`" in row for name in eviction["results"][0]), row
