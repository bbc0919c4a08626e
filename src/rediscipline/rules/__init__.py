"""The rule catalog. `ALL_RULES` is an explicit list: no import-time scanning, no entry points."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.batch import ALL as BATCH_RULES
from rediscipline.rules.cluster import ALL as CLUSTER_RULES
from rediscipline.rules.command import ALL as COMMAND_RULES
from rediscipline.rules.config import ALL as CONFIG_RULES
from rediscipline.rules.eviction import ALL as EVICTION_RULES
from rediscipline.rules.expiry import ALL as EXPIRY_RULES
from rediscipline.rules.hot import ALL as HOT_RULES
from rediscipline.rules.key import ALL as KEY_RULES
from rediscipline.rules.pubsub import ALL as PUBSUB_RULES
from rediscipline.rules.registry import Registry
from rediscipline.rules.security import ALL as SECURITY_RULES
from rediscipline.rules.suppression import ALL as SUPPRESSION_RULES
from rediscipline.rules.ttl import ALL as TTL_RULES
from rediscipline.rules.value import ALL as VALUE_RULES

ALL_RULES: tuple[type[Rule[Any]], ...] = (
    *KEY_RULES,
    *VALUE_RULES,
    *TTL_RULES,
    *COMMAND_RULES,
    *BATCH_RULES,
    *PUBSUB_RULES,
    *CONFIG_RULES,
    *SECURITY_RULES,
    *CLUSTER_RULES,
    *HOT_RULES,
    *EXPIRY_RULES,
    *EVICTION_RULES,
    *SUPPRESSION_RULES,
)


def default_registry() -> Registry:
    return Registry(ALL_RULES)
