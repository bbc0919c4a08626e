"""The sentences the rules cite (`citations.toml` beside this module), read once when the first rule is defined.

A rule's `sources` name sections of the convention documents; the table holds, for each such reference, the
passages of that section the rules enforce, quoted in Chinese and translated. Rules citing one reference may
enforce different sentences of it (000 §Key 名字如何设计 — 命名 holds the character, prefix, split-key,
abbreviation and hashtag advice): a passage's `rules` names the rules it is for, and a passage without
`rules` is for every other rule citing the reference.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rediscipline.model.report import Citation
from rediscipline.model.text import Text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

#: The table, shipped in the package next to this module (the wheel includes it).
TABLE = Path(__file__).with_name("citations.toml")
#: Marks text left out between two pieces of a Chinese passage (the English says ` … `).
OMISSION = "……"


@dataclass(frozen=True, slots=True)
class Passage:
    """One passage of a reference: its words, and the rules it is for (empty: every rule no other names)."""

    text: Text
    rules: frozenset[str] = frozenset()


@cache
def citation_table() -> dict[str, tuple[Passage, ...]]:
    """Reference → its passages, in the order of the file. Parsed on the first call only."""
    with TABLE.open("rb") as table:
        data = tomllib.load(table)
    return {
        source: tuple(Passage(Text(row["en"], row["zh"]), frozenset(row.get("rules", ()))) for row in rows)
        for source, rows in data.items()
    }


def passage_for(rule_id: str, source: str) -> Passage | None:
    """The passage of `source` that rule `rule_id` enforces: the one naming it, else the one naming no rule."""
    passages = citation_table().get(source, ())
    for passage in passages:
        if rule_id in passage.rules:
            return passage
    return next((passage for passage in passages if not passage.rules), None)


def citations_for(rule_id: str, sources: Sequence[str]) -> tuple[Citation, ...]:
    """The citation of each of a rule's sources, in their order; a source the table lacks has none
    (tests/rules/test_citations.py fails on it)."""
    found = ((source, passage_for(rule_id, source)) for source in sources)
    return tuple(Citation(source, passage.text) for source, passage in found if passage is not None)
