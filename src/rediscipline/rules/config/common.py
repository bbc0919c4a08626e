"""Helpers shared by the server-configuration rules: reading a setting where the server exposes it, sizes.

Managed services often refuse `CONFIG GET` but still print `maxmemory` and `maxmemory_policy` in
`INFO memory`, so the settings the rules need most are read from CONFIG first and from INFO second.
"""

from __future__ import annotations

from rediscipline.model.server import ServerFact

#: Where a rule on server settings can be checked: a live server, or a redis.conf / parameter export.
CONFIG_CHECKS = ("live", "config")

_UNITS = ("B", "KB", "MB", "GB", "TB")


def maxmemory(server: ServerFact) -> int | None:
    """`maxmemory` in bytes from CONFIG, else from INFO memory; None when the server shows neither."""
    value = server.config_int("maxmemory")
    return value if value is not None else server.info_int("maxmemory")


def maxmemory_policy(server: ServerFact) -> str | None:
    """`maxmemory-policy` from CONFIG, else `maxmemory_policy` from INFO memory."""
    value = server.config_value("maxmemory-policy")
    return value if value is not None else server.info.get("maxmemory_policy")


def human_bytes(size: float) -> str:
    """`6442450944` → `6.0 GB` (binary units, as Redis prints them in `*_human` fields)."""
    value = float(size)
    unit = _UNITS[0]
    for unit in _UNITS:
        if abs(value) < 1024 or unit == _UNITS[-1]:
            break
        value /= 1024
    return f"{value:.0f} B" if unit == "B" else f"{value:.1f} {unit}"


def percent(share: float) -> str:
    """`0.875` → `88%`."""
    return f"{share * 100:.0f}%"
