"""SEC: security, one module each."""

from __future__ import annotations

from typing import Any

from rediscipline.rules.base import Rule
from rediscipline.rules.security.dangerous_commands import DangerousCommands
from rediscipline.rules.security.nopass_user import NopassUser

#: Every SEC rule, in rule-id order.
ALL: tuple[type[Rule[Any]], ...] = (
    DangerousCommands,  # SEC001
    NopassUser,  # SEC002
)
