"""The notes of `rediscipline diff`: every code a comparison makes has a text in both languages that uses every
parameter, and the parameters, which come from report files, are shown escaped."""

from __future__ import annotations

import pytest

from rediscipline.model.report_diff import DIFF_NOTES, NOTE_CAPPED, NOTE_COMMANDS, NOTE_PARTIAL, DiffNote
from rediscipline.render.diff_labels import NOTES, note_line

EXAMPLES = {
    NOTE_COMMANDS: {"old": "keys", "new": "scan"},
    NOTE_PARTIAL: {"side": "new", "reasons": ("connection-lost", "unreadable-keys")},
    NOTE_CAPPED: {"side": "old"},
}


def test_every_code_has_a_text_and_an_example() -> None:
    assert set(NOTES) == set(DIFF_NOTES) == set(EXAMPLES)


@pytest.mark.parametrize("code", DIFF_NOTES)
def test_both_languages_use_every_parameter(code: str) -> None:
    params = EXAMPLES[code]
    for lang in ("en", "zh"):
        text = note_line(DiffNote(code, params), lang)
        assert "{" not in text
        for name, value in params.items():
            other = (
                "old" if value == "new" else "new" if value == "old" else ("x",) if isinstance(value, tuple) else "x"
            )
            assert note_line(DiffNote(code, {**params, name: other}), lang) != text, f"{code} {lang}: {name}"


def test_parameters_are_escaped() -> None:
    shown = note_line(DiffNote(NOTE_COMMANDS, {"old": "keys\x1b[2J", "new": "scan\u202e"}), "en")
    assert shown.startswith("the reports come from different commands (keys\\x1b[2J, scan\\u202e)")
