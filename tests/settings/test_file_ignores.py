"""`per-file-ignores`: validated like `per-key-ignores`, layered, shown with its origin, rooted at the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rediscipline.cli.config import config_command
from rediscipline.rules import default_registry
from rediscipline.settings.errors import ConfigError
from rediscipline.settings.loader import Overrides, load_settings

REGISTRY = default_registry()


def test_globs_expand_selectors_and_show_their_origin(tmp_path: Path) -> None:
    config = tmp_path / "rediscipline.toml"
    config.write_text('[per-file-ignores]\n"tests/**" = ["CMD001", "key-length"]\n"scripts/*.py" = ["ALL"]\n')
    settings = load_settings(REGISTRY, Overrides(), cwd=tmp_path)
    assert settings.file_ignores == {
        "tests/**": frozenset({"CMD001", "KEY005"}),
        "scripts/*.py": frozenset(REGISTRY.ids()),
    }
    shown = {p.key: (p.value, p.origin) for p in settings.provenance}
    assert shown["per-file-ignores.'tests/**'"] == ('["CMD001", "KEY005"]', str(config))
    assert settings.root == str(tmp_path.resolve())


def test_root_is_the_folder_of_the_discovered_file(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.rediscipline.per-file-ignores]\n"tests/**" = ["CMD"]\n')
    below = tmp_path / "src" / "pkg"
    below.mkdir(parents=True)
    settings = load_settings(REGISTRY, Overrides(), cwd=below)
    assert settings.root == str(tmp_path.resolve())
    assert settings.file_ignores["tests/**"] == {i for i in REGISTRY.ids() if i.startswith("CMD")}
    isolated = load_settings(REGISTRY, Overrides(isolated=True), cwd=below)
    assert (isolated.root, isolated.file_ignores) == (str(below.resolve()), {})


def test_command_line_layer_replaces_a_glob(tmp_path: Path) -> None:
    (tmp_path / "rediscipline.toml").write_text('[per-file-ignores]\n"tests/**" = ["CMD001"]\n')
    overrides = Overrides(extra={"per-file-ignores": {"tests/**": ["CMD002"], "docs/*": ["KEY"]}})
    settings = load_settings(REGISTRY, overrides, cwd=tmp_path)
    assert settings.file_ignores["tests/**"] == {"CMD002"}
    origins = {p.key: p.origin for p in settings.provenance}
    assert origins["per-file-ignores.'tests/**'"] == "command line"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '[per-file-ignores]\n"tests/**" = ["CMD999"]\n',
            "per-file-ignores.'tests/**': unknown rule selector 'CMD999'",
        ),
        ('[per-file-ignores]\n"tests/**" = [1]\n', "per-file-ignores.'tests/**': expected a list of strings"),
        ('per-file-ignores = ["tests/**"]\n', "per-file-ignores: expected a table of path glob = [rules]"),
        ('[per-file-ignores]\n"" = ["CMD001"]\n', "per-file-ignores: '' is not a path glob"),
        ('[per-files-ignores]\n"a" = ["CMD001"]\n', "unknown key 'per-files-ignores' (allowed: "),
    ],
)
def test_errors_name_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "rediscipline.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_settings(REGISTRY, Overrides(config=path))
    assert str(caught.value).startswith(f"{path}: ") and message in str(caught.value)


def test_config_show_lists_per_file_ignores(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rediscipline.toml").write_text('[per-file-ignores]\n"tests/**" = ["keys-command"]\n')
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(config_command, ["--show", "--format", "json"])
    assert done.exit_code == 0, done.output
    rows = json.loads(done.output)["values"]
    row = {"key": "per-file-ignores.'tests/**'", "value": '["CMD001"]', "origin": str(tmp_path / "rediscipline.toml")}
    assert row in rows
