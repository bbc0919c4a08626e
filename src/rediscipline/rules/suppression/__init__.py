"""SUP: the tool's own suppression comments (no facts to judge: `rediscipline.suppress` reports them)."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.suppression.unused_suppression import UnusedSuppression

#: Every SUP rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    UnusedSuppression,  # SUP001
)
