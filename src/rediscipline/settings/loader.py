"""Find and load the team's convention file and combine it with command-line overrides.

Discovery, closest first from the working directory up to the filesystem root: `rediscipline.toml`,
`.rediscipline.toml`, then a `pyproject.toml` that has a `[tool.rediscipline]` table (one without the
table is skipped, as ruff does). `--config FILE` names the file explicitly; `--isolated` ignores all files.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rediscipline.rules.registry import Registry
from rediscipline.settings.errors import ConfigError
from rediscipline.settings.layering import DEFAULT_PRESET, Layer, Settings, _strings, resolve_settings
from rediscipline.settings.toml import load_toml_file

FILE_NAMES = ("rediscipline.toml", ".rediscipline.toml")


@dataclass(frozen=True)
class Overrides:
    """What the command line says; None / empty means "not given"."""

    config: Path | None = None
    isolated: bool = False
    preset: str | None = None
    overlays: tuple[str, ...] = ()
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: str | None = None
    lang: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def layer(self) -> Layer | None:
        data: dict[str, Any] = dict(self.extra)
        if self.select is not None:
            data["select"] = list(self.select)
        if self.extend_select:
            data["extend-select"] = list(self.extend_select)
        if self.ignore:
            data["ignore"] = list(self.ignore)
        if self.fail_on is not None:
            data["fail-on"] = self.fail_on
        if self.lang is not None:
            data["lang"] = self.lang
        return Layer("command line", data) if data else None


def discover(start: Path) -> Path | None:
    for folder in (start, *start.parents):
        for name in FILE_NAMES:
            candidate = folder / name
            if candidate.is_file():
                return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and _tool_table(load_toml_file(pyproject)) is not None:
            return pyproject
    return None


def _tool_table(data: dict[str, Any]) -> dict[str, Any] | None:
    tool = data.get("tool")
    table = tool.get("rediscipline") if isinstance(tool, dict) else None
    return table if isinstance(table, dict) else None


def read_file(path: Path) -> Layer:
    if not path.exists():
        raise ConfigError(f"{path}: no such file")
    data = load_toml_file(path)
    if path.name == "pyproject.toml":
        table = _tool_table(data)
        if table is None:
            raise ConfigError(f"{path}: no [tool.rediscipline] table")
        return Layer(f"{path} [tool.rediscipline]", table, allow_preset_keys=True)
    return Layer(str(path), data, allow_preset_keys=True)


def load_settings(registry: Registry, overrides: Overrides, cwd: Path | None = None) -> Settings:
    """Settings for one run: built-in < preset chain < overlays < file < command line.

    `Settings.root`, the folder `per-file-ignores` globs are relative to, is the convention file's folder,
    or the working directory when no file is used.
    """
    file_layer: Layer | None = None
    here = (cwd or Path.cwd()).resolve()
    root = here
    if overrides.config is not None:
        file_layer = read_file(overrides.config)
        root = overrides.config.resolve().parent
    elif not overrides.isolated:
        found = discover(here)
        file_layer = read_file(found) if found is not None else None
        root = found.parent if found is not None else here
    preset = overrides.preset
    overlays: Sequence[str] = overrides.overlays
    preset_origin = "command line" if preset else "built-in"
    overlays_origin = "command line" if overlays else "built-in"
    if file_layer is not None:
        raw_preset = file_layer.data.get("preset")
        if raw_preset is not None and not isinstance(raw_preset, str):
            raise ConfigError(f"{file_layer.origin}: preset: expected a preset name")
        if preset is None and raw_preset is not None:
            preset, preset_origin = raw_preset, file_layer.origin
        if "overlays" in file_layer.data:
            file_overlays = _strings(file_layer.data["overlays"], f"{file_layer.origin}: overlays")
            overlays = (*file_overlays, *(o for o in overlays if o not in file_overlays))
            overlays_origin = file_layer.origin if not overrides.overlays else f"{file_layer.origin} + command line"
    settings = resolve_settings(
        registry,
        preset=preset or DEFAULT_PRESET,
        overlays=tuple(overlays),
        file_layer=file_layer,
        cli_layer=overrides.layer(),
        origins=(preset_origin, overlays_origin),
    )
    return replace(settings, root=str(root))
