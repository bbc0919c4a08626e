"""VAL: value sizes, encodings and formats."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule

ALL: tuple[type[Rule[Any]], ...] = ()
