"""Byte sizes for people, the same in rule messages and in every renderer."""

from __future__ import annotations

_UNITS = ("B", "KB", "MB", "GB", "TB")


def human_bytes(size: float) -> str:
    """`512 B`, `24.0 KB`, `1.5 MB`: binary units, as Redis prints `*_human` fields and as the convention
    documents write their limits (10 KB = 10240 bytes)."""
    value = float(size)
    for unit in _UNITS:
        if abs(value) < 1024 or unit == _UNITS[-1]:
            return f"{value:.0f} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")
