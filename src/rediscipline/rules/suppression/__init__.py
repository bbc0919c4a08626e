"""SUP: the tool's own suppression comments, judged after the suppressions were applied."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.suppression.unused_suppression import UnusedSuppressionRule

#: Every SUP rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    UnusedSuppressionRule,  # SUP001
)
