"""Numbers for people: byte sizes and shares, the same in every renderer."""

from __future__ import annotations

_UNITS = ("B", "KB", "MB", "GB", "TB")


def human_bytes(size: float | None) -> str:
    """1536 → `1.5 KB` (binary multiples, as Redis reports them); None → `?`."""
    if size is None:
        return "?"
    value = float(size)
    for unit in _UNITS:
        if abs(value) < 1024 or unit == _UNITS[-1]:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def share(part: float | None) -> str:
    """0.4567 → `45.7%`; None → `–`."""
    return "–" if part is None else f"{part * 100:.1f}%"


def human_count(value: float) -> str:
    return f"{value:,.0f}"
