"""Notes: what a report says about the run itself, as a code and parameters, never as finished prose.

A library caller reads `note.code` and `note.params` (counts, rule ids, paths, reasons); the renderers
turn them into English or Chinese text from one catalogue (`render.notes`), where the text may name the
command-line options a reader can act on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: A note parameter: text, a number, key bytes, or a tuple of those (rule ids, patterns with counts).
NoteValue = str | int | float | bool | bytes | None | tuple["NoteValue", ...]


@dataclass(frozen=True, slots=True)
class Note:
    """One remark about the run: `code` names it (`rules-not-checked`), `params` fill it in."""

    code: str
    params: Mapping[str, NoteValue] = field(default_factory=dict)


def note(code: str, **params: NoteValue) -> Note:
    return Note(code, params)


__all__ = ["Note", "NoteValue", "note"]
