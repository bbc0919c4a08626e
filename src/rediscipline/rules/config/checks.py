"""Helpers shared by the server-configuration rules.

The settings they need most (`maxmemory`, `maxmemory-policy`) are read by `ServerFact`, from CONFIG first and
from INFO second, because managed services often refuse `CONFIG GET` but still print them in `INFO memory`.
"""

from __future__ import annotations

#: Where a rule on server settings can be checked: a live server, or a redis.conf / parameter export.
CONFIG_CHECKS = ("live", "config")


def percent(share: float) -> str:
    """`0.875` → `88%`."""
    return f"{share * 100:.0f}%"
