"""EVI: eviction risk, one module each. Judged once per eviction simulation, from every policy and size it
replayed."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.eviction.policy_gap import PolicyGap
from rediscipline.rules.eviction.refused_writes import RefusedWrites

#: Every EVI rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (PolicyGap, RefusedWrites)  # EVI001, EVI002
