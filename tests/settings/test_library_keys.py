"""`library-keys`: a mode for every library or a table by library, layered, validated, shown with its origin."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rediscipline.rules import default_registry
from rediscipline.settings.errors import ConfigError
from rediscipline.settings.loader import Overrides, load_settings

REGISTRY = default_registry()


def _settings(tmp_path: Path, text: str, **overrides: object) -> object:
    (tmp_path / "rediscipline.toml").write_text(text, encoding="utf-8")
    return load_settings(REGISTRY, Overrides(**overrides), cwd=tmp_path)  # type: ignore[arg-type]


def test_default_skips_every_library(tmp_path: Path) -> None:
    settings = load_settings(REGISTRY, Overrides(isolated=True), cwd=tmp_path)
    assert (settings.library_keys, settings.library_modes) == ("skip", {})


def test_a_table_sets_libraries_apart_and_shows_its_origin(tmp_path: Path) -> None:
    settings = _settings(tmp_path, 'library-keys = { sidekiq = "judge", Resque = "judge", default = "skip" }\n')
    assert (settings.library_keys, settings.library_modes) == ("skip", {"sidekiq": "judge", "resque": "judge"})  # type: ignore[attr-defined]
    shown = {p.key: (p.value, p.origin) for p in settings.provenance}  # type: ignore[attr-defined]
    assert shown["library-keys"][1].endswith("rediscipline.toml")


def test_the_command_line_wins(tmp_path: Path) -> None:
    settings = _settings(tmp_path, 'library-keys = { sidekiq = "skip" }\n', extra={"library-keys": "judge"})
    assert (settings.library_keys, settings.library_modes) == ("judge", {})  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('library-keys = "sometimes"\n', r"library-keys: 'sometimes' is not allowed \(allowed: skip, judge\)"),
        ('library-keys = { nosuchlib = "judge" }\n', r"library-keys: unknown library 'nosuchlib' \(known: .*Sidekiq"),
        ('library-keys = { sidekiq = "maybe" }\n', r"library-keys.sidekiq: 'maybe' is not allowed"),
        ("library-keys = 3\n", r'library-keys: expected "skip", "judge" or a table of library = mode'),
    ],
)
def test_bad_values_name_the_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        _settings(tmp_path, text)


def test_bad_value_is_one_line_and_exit_2(tmp_path: Path) -> None:
    config = tmp_path / "rediscipline.toml"
    config.write_text('library-keys = "sometimes"\n', encoding="utf-8")
    (tmp_path / "keys.txt").write_text("user:1\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "rediscipline", "keys", "keys.txt", "--config", str(config)],
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
        check=False,
        text=True,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "library-keys" in result.stderr and "Traceback" not in result.stderr
