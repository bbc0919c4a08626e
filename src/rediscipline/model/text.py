"""Bilingual text: every message and title exists in English and Chinese."""

from __future__ import annotations

from dataclasses import dataclass

LANGUAGES = ("en", "zh")


@dataclass(frozen=True, slots=True)
class Text:
    """A message in English and Chinese; renderers pick one with `in_(lang)`."""

    en: str
    zh: str

    def in_(self, lang: str) -> str:
        return self.zh if lang == "zh" else self.en
