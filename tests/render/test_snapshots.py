"""Rendered output is compared byte for byte with snapshots (UPDATE_SNAPSHOTS=1 rewrites them).

The key list mixes clean keys, one violation of most naming rules, non-UTF-8 bytes, Chinese text, a
terminal escape sequence and rich markup, so escaping is part of what the snapshots pin down. Reports are
made with the rules the snapshots were recorded with (`tests.support.catalog`): adding a rule changes none.
"""

from __future__ import annotations

import io
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from rediscipline.api import check_key_names, settings_for
from rediscipline.model.report import Report
from rediscipline.render import RENDERERS
from rediscipline.rules import default_registry
from rediscipline.settings.loader import Overrides
from tests.support.catalog import SNAPSHOT_RULES, later_rules

SNAPSHOTS = Path(__file__).parent / "snapshots"
KEYS = [
    b"user:profile:id:12345",
    b"user:profile:id:67890",
    b"order:status:order_id:98765",
    b"user name:1",
    b"AID:15:player:ranking",
    b"orderStatusOrderId98765",
    b"usr:prf:id:12345",
    b"user-profile:123",
    b"a::b",
    b"a{aa{xxx}bb}b",
    b"user#profile#name",
    b"order:summary:date:2024-11-22",
    b"user:\xe5\xbc\xa0\xe4\xb8\x89:1",
    b"bin:\xff\xfe:1",
    b"esc:\x1b[31mred\x1b[0m:1",
    b"markup:[bold]x[/bold]:1",
    b"report:" + b"a" * 130 + b":1",
]


def _report() -> Report:
    registry = default_registry()
    report = check_key_names(KEYS, settings_for(Overrides(isolated=True, ignore=later_rules(registry)), registry))
    return replace(report, stats=replace(report.stats, elapsed_seconds=0.0))


def _check(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing snapshot {name}: run with UPDATE_SNAPSHOTS=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its snapshot"


@pytest.mark.parametrize(("fmt", "lang"), [("text", "en"), ("text", "zh"), ("json", "en")])
def test_snapshot(fmt: str, lang: str) -> None:
    out = io.StringIO()
    RENDERERS[fmt](_report(), out, lang, False)
    _check(f"report.{lang}.{'txt' if fmt == 'text' else 'json'}", out.getvalue())


def test_text_output_has_no_raw_control_characters() -> None:
    out = io.StringIO()
    RENDERERS["text"](_report(), out, "en", False)
    text = out.getvalue()
    assert "\x1b" not in text
    assert "esc:\\x1b[31mred\\x1b[0m:1" in text
    assert "markup:[bold]x[/bold]:1" in text  # shown literally, not as rich markup


def test_json_keeps_exact_bytes() -> None:
    out = io.StringIO()
    RENDERERS["json"](_report(), out, "en", False)
    data = json.loads(out.getvalue())
    examples = {e.get("key_b64"): e["key"] for f in data["findings"] for e in f["examples"] if "key_b64" in e}
    assert examples == {"YmluOv/+OjE=": "bin:\\xff\\xfe:1"}
    keys = {e["key"] for f in data["findings"] for e in f["examples"]}
    assert "esc:\x1b[31mred\x1b[0m:1" in keys  # valid UTF-8: the exact text, JSON-escaped


def test_every_recorded_rule_is_registered() -> None:
    """A recorded rule that is gone (renamed, renumbered) fails here, not as a silent change of the snapshots."""
    assert sorted(SNAPSHOT_RULES - set(default_registry().ids())) == []
