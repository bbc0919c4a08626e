"""Lint key lists: files, standard input, or names in memory."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from rediscipline.api.defaults import baseline_at, settings_for
from rediscipline.api.driver import run
from rediscipline.model.report import Report
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides
from rediscipline.sources.keylist import KeyListSource, NameSource


@dataclass(frozen=True, slots=True)
class KeyInput:
    """A key list to read: a file path or `-` for standard input, and its format."""

    path: str
    input_format: str = "raw"


def check_keys(
    inputs: Sequence[KeyInput],
    settings: Settings | None = None,
    *,
    stdin: BinaryIO | None = None,
    registry: Registry | None = None,
    baseline: Path | None = None,
) -> Report:
    """Lint key lists (files or standard input) against the naming rules and return the report.

    `baseline`: hide the findings recorded in this baseline file (`rediscipline baseline create --keys`).
    """
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    source = KeyListSource([(i.path, i.input_format) for i in inputs], stdin)
    known = baseline_at(baseline)
    return run([source], settings, command="keys", registry=registry, baseline=known)


def check_key_names(names: Iterable[bytes | str], settings: Settings | None = None) -> Report:
    """Lint key names given in memory (bytes, or str encoded as UTF-8)."""
    registry = default_registry()
    settings = settings or settings_for(Overrides(isolated=True), registry)
    return run([NameSource(names)], settings, command="keys", registry=registry)
