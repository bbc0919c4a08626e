"""Rule selection by specificity and the layering of presets, files and the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from rediscipline.rules import default_registry
from rediscipline.rules.selector import SelectionLayer, resolve
from rediscipline.settings.errors import ConfigError
from rediscipline.settings.loader import Overrides, load_settings

REGISTRY = default_registry()


@pytest.mark.parametrize(
    ("select", "ignore", "expected"),
    [
        (("KEY",), ("KEY006",), {i for i in REGISTRY.ids() if i.startswith("KEY")} - {"KEY006"}),
        (("KEY006",), ("KEY",), {"KEY006"}),
        (("ALL",), ("uppercase", "KEY01"), {i for i in REGISTRY.ids() if not i.startswith("KEY01")} - {"KEY006"}),
        (("key-length",), (), {"KEY005"}),
    ],
)
def test_specificity(select: tuple[str, ...], ignore: tuple[str, ...], expected: set[str]) -> None:
    assert resolve(REGISTRY, [SelectionLayer("test", select, (), ignore)]) == expected


def test_later_layer_select_replaces_and_ignore_adjusts() -> None:
    layers = [SelectionLayer("a", ("KEY005",)), SelectionLayer("b", None, ("KEY006",), ("KEY005",))]
    assert resolve(REGISTRY, layers) == {"KEY006"}


def _ids(settings: object) -> set[str]:
    return {r.id for r in settings.rules}  # type: ignore[attr-defined]


def test_preset_chain_file_and_cli(tmp_path: Path) -> None:
    (tmp_path / "rediscipline.toml").write_text(
        'preset = "redis-oss"\noverlays = ["cluster"]\n[rules.key-length]\nwarning-bytes = 64\n'
    )
    settings = load_settings(REGISTRY, Overrides(ignore=("KEY002",)), cwd=tmp_path)
    assert settings.preset == "redis-oss" and settings.overlays == ("cluster",)
    assert "KEY006" not in _ids(settings) and "KEY002" not in _ids(settings)
    length = next(r for r in settings.rules if r.id == "KEY005")
    assert length.options.warning_bytes == 64  # type: ignore[attr-defined]
    skew = next(r for r in settings.rules if r.id == "KEY013")
    assert skew.severity.label == "error" and skew.forced
    origins = {p.key: p.origin for p in settings.provenance}
    assert origins["rules.key-length.warning-bytes"] == str(tmp_path / "rediscipline.toml")
    assert origins["rules.key-length.error-bytes"] == "preset:redis-oss"
    assert origins["rules.key-length.mget-bytes"] == "built-in"
    assert origins["rules.hashtag-slot-skew.severity"] == "preset:cluster"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[namespaces."s:*"]\ntype = "map"\n', "namespaces.'s:*'.type: 'map' is not allowed (allowed: string, list"),
        ('[namespaces."s:*"]\nttl-max = "soon"\n', "is not a duration"),
        ("[rules.nosuch]\nx = 1\n", "unknown rule 'nosuch'"),
        ('[per-key-ignores]\n"a:*" = ["KEY999"]\n', "unknown rule selector 'KEY999'"),
        ('lang = "fr"\n', "lang: 'fr' is not allowed (allowed: en, zh)"),
    ],
)
def test_config_errors_name_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "rediscipline.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_settings(REGISTRY, Overrides(config=path))
    assert str(path) in str(caught.value) and message in str(caught.value)
