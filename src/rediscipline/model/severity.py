"""Severity levels, ordered, following the documents' own 强制 / 推荐 / 建议 levels."""

from __future__ import annotations

import enum


class Severity(enum.IntEnum):
    """How serious a finding is: `error` = 强制 (mandatory), `warning` = 推荐, `note` = 建议."""

    NOTE = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        """Parse `note` / `warning` / `error`; raises ValueError naming the allowed values."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (allowed: note, warning, error)") from None

    @classmethod
    def choices(cls) -> tuple[str, ...]:
        return tuple(s.label for s in cls)
