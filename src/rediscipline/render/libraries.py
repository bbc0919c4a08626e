"""What every format says about keys a library wrote: the family's library, its setting and the advice.

Findings and pattern rows carry the catalog id of the family (`rq.job`); the rows of the catalog hold the
words, so each format shows the same library name and the same advice in the report's language.
"""

from __future__ import annotations

from typing import Any

from rediscipline.model.display import inert
from rediscipline.redis_meta.libraries import FAMILIES, KeyFamily

_BY_ID = {family.id: family for family in FAMILIES}


def family_of(family_id: str | None) -> KeyFamily | None:
    return _BY_ID.get(family_id) if family_id is not None else None


def library_name(family_id: str | None) -> str | None:
    """The library as its users name it (`rq`, `Celery`), or None for keys of no known library."""
    family = family_of(family_id)
    return family.library if family is not None else None


def advice(family: KeyFamily, lang: str) -> str:
    """The family's advice in `lang` (English or Chinese), as written: each format escapes it its own way."""
    return family.advice[1] if lang == "zh" else family.advice[0]


def with_advice(message: str, family_id: str | None, lang: str) -> str:
    """A one-line message followed by the library's fix, for formats that show one line per finding."""
    family = family_of(family_id)
    return message if family is None else f"{message} ({family.library}: {advice(family, lang)})"


def library_fields(family_id: str | None, lang: str) -> dict[str, Any] | None:
    """The JSON object of a finding's or a pattern's family: id, library, purpose, setting and advice."""
    family = family_of(family_id)
    if family is None:
        return None
    return {
        "family": family.id,
        "library": family.library,
        "persists": family.persists,
        "setting": family.setting or None,
        "advice": inert(advice(family, lang)),
        "advices": {"en": inert(family.advice[0]), "zh": inert(family.advice[1])},
    }
