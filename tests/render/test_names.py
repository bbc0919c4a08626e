"""How JSON and SARIF write names (`render.names`) and how SARIF writes plain-text messages."""

from __future__ import annotations

import base64

from rediscipline.model.display import NAME_LIMIT
from rediscipline.render.names import LongNames, name_fields
from rediscipline.render.sarif import message_text


def test_short_names_are_exact_or_carry_their_bytes() -> None:
    assert name_fields("key", b"user:1") == {"key": "user:1"}
    assert name_fields("key", b"esc:\x1b[0m") == {"key": "esc:\x1b[0m"}  # exact: JSON escapes it
    assert name_fields("key", b"bin:\xff") == {"key": "bin:\\xff", "key_b64": "YmluOv8="}


def test_long_names_are_cut_and_kept_once() -> None:
    long_names = LongNames()
    key = b"user:" + b"A" * 1_000_000
    first = name_fields("key", key, long_names)
    assert first == {
        "key": "user:" + "A" * (NAME_LIMIT - 5) + "…(1,000,005 bytes)",
        "key_length": 1_000_005,
        "key_ref": 0,
    }
    assert name_fields("key", key, long_names)["key_ref"] == 0
    assert name_fields("key", b"x" * 500, long_names)["key_ref"] == 1
    table = long_names.table()
    assert [entry["length"] for entry in table] == [1_000_005, 500]
    assert base64.b64decode(table[0]["b64"]) == key
    assert name_fields("pattern", key) == {"pattern": first["key"], "pattern_length": 1_000_005}


def test_sarif_messages_cannot_form_links() -> None:
    assert message_text("key `[x](https://evil)` \x1b[2J") == "key `\\[x\\](https://evil)` \\x1b\\[2J"
