"""A keyspace of more families than the pattern cap: memory stays bounded and every format says so."""

from __future__ import annotations

import io
import json
from dataclasses import replace

from rediscipline.api import check_key_names, settings_for
from rediscipline.render.json_output import render_json
from rediscipline.render.text import render_text
from rediscipline.settings.loader import Overrides

CAP = 100
WORDS = [f"{a}{b}{c}" for a in "bcdfghjklm" for b in "aeiou" for c in "nprstvwxyz"]  # 500 words


def test_more_families_than_the_cap() -> None:
    # Three levels of 15 words: no level has the 24 values that make it a variable, so every family stays.
    names = [
        f"{a}:{b}:{c}:{n}".encode() for a in WORDS[:15] for b in WORDS[15:30] for c in WORDS[30:45] for n in (1, 2)
    ]
    settings = replace(settings_for(Overrides(isolated=True, select=("KEY005",))), pattern_cap=CAP)
    report = check_key_names(names, settings)
    stats = report.stats
    assert stats.keys == len(names)
    assert stats.patterns <= CAP + 1 and stats.overflow_keys > 0  # the cap held: the rest is one overflow row
    assert sum(row.count for row in stats.pattern_stats) == len(names)
    data = json.loads(_rendered(render_json, report))
    assert data["patterns"]["capped"] is True and data["patterns"]["overflow_keys"] == stats.overflow_keys
    assert len(data["patterns"]["items"]) == stats.patterns <= CAP + 1
    assert any(item["pattern"] == "<other patterns>" for item in data["patterns"]["items"])
    text = _rendered(render_text, report)
    assert f"pattern cap reached ({CAP:,}): {stats.overflow_keys:,} keys are counted under <other patterns>" in text


def _rendered(render: object, report: object) -> str:
    stream = io.StringIO()
    render(report, stream)  # type: ignore[operator]
    return stream.getvalue()
