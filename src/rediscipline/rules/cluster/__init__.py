"""CLU: cluster, one module each. Judged once per cluster scan, from what every shard's scan found."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.cluster.config_drift import ShardConfigDrift
from rediscipline.rules.cluster.hashtag_share import HashtagShare
from rediscipline.rules.cluster.shard_skew import ShardSkew
from rediscipline.rules.cluster.shard_without_replica import ShardWithoutReplica
from rediscipline.rules.cluster.slot_concentration import SlotConcentration
from rediscipline.rules.cluster.uncovered_slots import UncoveredSlots

#: Every CLU rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    ShardSkew,  # CLU001
    HashtagShare,  # CLU002
    SlotConcentration,  # CLU003
    ShardConfigDrift,  # CLU004
    ShardWithoutReplica,  # CLU005
    UncoveredSlots,  # CLU006
)
