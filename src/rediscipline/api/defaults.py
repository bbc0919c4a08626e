"""Shared by the library entry points: the settings a call runs with when the caller gives none, and the
baseline file it compares with."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides, load_settings

if TYPE_CHECKING:
    from rediscipline.suppress.baseline import Baseline


def settings_for(overrides: Overrides | None = None, registry: Registry | None = None) -> Settings:
    return load_settings(registry or default_registry(), overrides or Overrides())


def baseline_at(path: Path | None) -> Baseline | None:
    """The baseline file at `path` (None: none); the baseline module loads only for runs that use one."""
    if path is None:
        return None
    from rediscipline.suppress.baseline import load_baseline

    return load_baseline(path)
