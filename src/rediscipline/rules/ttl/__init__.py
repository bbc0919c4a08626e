"""TTL: expiry rules, one module each."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.ttl.big_key_sync_expire import BigKeySyncExpire
from rediscipline.rules.ttl.constant_ttl import ConstantTtl
from rediscipline.rules.ttl.expiry_cliff import ExpiryCliff
from rediscipline.rules.ttl.idle_persistent import IdlePersistent
from rediscipline.rules.ttl.missing_ttl import MissingTtl
from rediscipline.rules.ttl.set_then_expire import SetThenExpire
from rediscipline.rules.ttl.ttl_range import TtlRange
from rediscipline.rules.ttl.write_without_ttl import WriteWithoutTtl

#: Every TTL rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    MissingTtl,  # TTL001
    ExpiryCliff,  # TTL002
    TtlRange,  # TTL003
    IdlePersistent,  # TTL004
    BigKeySyncExpire,  # TTL005
    WriteWithoutTtl,  # TTL006
    ConstantTtl,  # TTL007
    SetThenExpire,  # TTL008
)
