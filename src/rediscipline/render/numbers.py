"""Numbers for people in reports: byte sizes (possibly unmeasured), shares, counts."""

from __future__ import annotations

from rediscipline.model.units import human_bytes as model_human_bytes


def human_bytes(size: float | None) -> str:
    """1536 → `1.5 KB` (see `model.units.human_bytes`); None (not measured) → `?`."""
    return "?" if size is None else model_human_bytes(size)


def share(part: float | None) -> str:
    """0.4567 → `45.7%`; None → `–`."""
    return "–" if part is None else f"{part * 100:.1f}%"


def human_count(value: float) -> str:
    return f"{value:,.0f}"


def score_grade(score: int) -> str:
    """How a report colours its 0–100 score: `good` from 90, `fair` from 60, `poor` below."""
    return "good" if score >= 90 else "fair" if score >= 60 else "poor"
