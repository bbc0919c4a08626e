"""The rule catalog. `ALL_RULES` is an explicit list: no import-time scanning, no entry points."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.key import ALL as KEY_RULES
from rediscipline.rules.registry import Registry

ALL_RULES: tuple[type[Rule[Any]], ...] = (*KEY_RULES,)


def default_registry() -> Registry:
    return Registry(ALL_RULES)
