"""CFG: server configuration, one module each."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.config.eviction_policy import EvictionPolicy
from rediscipline.rules.config.fragmentation import Fragmentation
from rediscipline.rules.config.hz import Hz
from rediscipline.rules.config.instance_size import InstanceSize
from rediscipline.rules.config.lazyfree import Lazyfree
from rediscipline.rules.config.maxmemory import Maxmemory
from rediscipline.rules.config.multiple_databases import MultipleDatabases

#: Every CFG rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    Maxmemory,  # CFG001
    EvictionPolicy,  # CFG002
    Lazyfree,  # CFG003
    Hz,  # CFG004
    InstanceSize,  # CFG005
    Fragmentation,  # CFG006
    MultipleDatabases,  # CFG007
)
