"""EXP: expiry risk, one module each. Judged once per expiry simulation, from every database's series and the
expire cycle's cost per step."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.expiry.expire_storm import ExpireStorm
from rediscipline.rules.expiry.expired_memory import ExpiredMemory

#: Every EXP rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (ExpiredMemory, ExpireStorm)  # EXP001, EXP002
