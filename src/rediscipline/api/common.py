"""Shared by the library entry points: the settings a call runs with when the caller gives none."""

from __future__ import annotations

from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides, load_settings


def settings_for(overrides: Overrides | None = None, registry: Registry | None = None) -> Settings:
    return load_settings(registry or default_registry(), overrides or Overrides())
