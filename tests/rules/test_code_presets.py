"""The presets' choices for the code rules: every preset loads, and each sets what its document says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rediscipline.rules import default_registry
from rediscipline.settings.loader import Overrides, load_settings

REGISTRY = default_registry()
PRESETS = sorted(
    p.stem for p in (Path(__file__).parents[2] / "src" / "rediscipline" / "settings" / "presets").glob("*.toml")
)


def _rule(preset: str, rule_id: str, tmp_path: Path) -> Any:
    """The configured rule `rule_id` under `preset` (an overlay such as `cluster` goes on top of default)."""
    cluster = preset == "cluster"
    overrides = Overrides(isolated=True, preset=None if cluster else preset, overlays=("cluster",) if cluster else ())
    settings = load_settings(REGISTRY, overrides, cwd=tmp_path)
    return next(r for r in settings.rules if r.id == rule_id)


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_loads_with_the_code_rules(preset: str, tmp_path: Path) -> None:
    assert _rule(preset, "BAT001", tmp_path).options.max_keys in (100, 500)


@pytest.mark.parametrize(
    ("preset", "rule_id", "attr", "value"),
    [
        ("default", "BAT001", "max_keys", 100),
        ("default", "BAT003", "max_commands", 200),
        ("default", "BAT003", "unbounded", False),
        ("default", "CMD010", "max_count", 0),
        ("aliyun", "BAT001", "max_keys", 500),
        ("aliyun", "BAT003", "max_commands", 500),
        ("tencent", "BAT001", "max_keys", 500),
        ("tencent", "CMD010", "min_count", 100),
        ("aws", "CMD010", "max_count", 100_000),
        ("redis-oss", "BAT003", "max_commands", 10_000),
        ("redis-oss", "TTL006", "required", False),
    ],
)
def test_preset_options(preset: str, rule_id: str, attr: str, value: object, tmp_path: Path) -> None:
    assert getattr(_rule(preset, rule_id, tmp_path).options, attr) == value


@pytest.mark.parametrize(
    ("preset", "rule_id", "severity"),
    [
        ("default", "TTL006", "warning"),
        ("default", "TTL008", "note"),
        ("default", "CMD007", "warning"),
        ("strict", "TTL006", "error"),
        ("aliyun", "CMD007", "note"),
        ("cluster", "CMD007", "warning"),
    ],
)
def test_preset_severities(preset: str, rule_id: str, severity: str, tmp_path: Path) -> None:
    assert _rule(preset, rule_id, tmp_path).severity.label == severity
