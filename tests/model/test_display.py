"""The one escaping and bounding path (`model.display`): exact outputs for hostile bytes and text."""

from __future__ import annotations

import json

import pytest

from rediscipline.model.display import (
    NAME_LIMIT,
    cut_text,
    display_bytes,
    display_cut,
    display_text,
    inert,
    is_unsafe,
    json_safe,
)


@pytest.mark.parametrize(
    ("data", "shown"),
    [
        (b"user:1", "user:1"),
        (b"a\\b", "a\\\\b"),
        (b"\x1b[2J", "\\x1b[2J"),
        (b"\x1b]8;;http://evil\x07", "\\x1b]8;;http://evil\\x07"),
        (b"a\x00b", "a\\x00b"),
        (b"\r\n\t\x7f", "\\r\\n\\t\\x7f"),
        (b"\xc2\x9b", "\\u009b"),  # C1 CSI as a character
        (b"\x9b", "\\x9b"),  # the same byte alone: not UTF-8
        (b"\xe2\x80\xae", "\\u202e"),  # RLO
        (b"\xe2\x80\x8b", "\\u200b"),  # zero-width space
        (b"\xe2\x81\xa6x\xe2\x81\xa9", "\\u2066x\\u2069"),  # bidi isolates
        (b"\xe2\x80\xa8", "\\u2028"),  # line separator
        (b"\xef\xbb\xbf", "\\ufeff"),
        (b"\xf3\xa0\x80\x81", "\\U000e0001"),  # a tag character (Cf, astral)
        (b"\xff\xfe", "\\xff\\xfe"),
        ("用户:张三".encode(), "用户:张三"),
        (b"[bold]x[/bold]", "[bold]x[/bold]"),
    ],
)
def test_display_bytes_escapes(data: bytes, shown: str) -> None:
    assert display_bytes(data) == shown
    assert all(not is_unsafe(ch) for ch in display_bytes(data))


def test_long_names_are_cut_with_their_length() -> None:
    assert display_bytes(b"user:" + b"A" * 1_048_576, 10) == "user:AAAAA…(1,048,581 bytes)"
    assert display_cut(b"x" * NAME_LIMIT, NAME_LIMIT) == ("x" * NAME_LIMIT, False)
    assert display_cut(b"x" * (NAME_LIMIT + 1), NAME_LIMIT)[1]
    # The limit counts shown characters: escapes are never split, multi-byte characters never cut in two.
    assert display_bytes(b"\x1b" * 10, 6) == "\\x1b…(10 bytes)"
    assert display_bytes("张三李四".encode() * 100, 3) == "张三李…(1,200 bytes)"
    assert display_bytes(b"\xff" * 1000, 8) == "\\xff\\xff…(1,000 bytes)"


def test_display_text_for_outside_strings() -> None:
    assert display_text("client\x1b[2J\u202e") == "client\\x1b[2J\\u202e"
    assert display_text("a\\b") == "a\\\\b"
    assert display_text("caf\udce9") == "caf\\xe9"  # an undecodable byte of an OS path
    assert display_text("y" * 1000, 5) == "yyyyy…(1,000 characters)"


def test_inert_escapes_controls_only() -> None:
    assert inert("plain `a\\x1b` 中文 text") == "plain `a\\x1b` 中文 text"
    assert inert("a\x1b[31m\tb\nc\u202ed\x85") == "a\\x1b[31m\\tb\\nc\\u202ed\\u0085"
    assert inert("m" * 3000) == "m" * 2000 + "…(3,000 characters)"


def test_cut_text_only_bounds() -> None:
    assert cut_text("a\x1bb") == "a\x1bb"
    assert cut_text("z" * 400, 3) == "zzz…(400 characters)"


def test_json_safe_keeps_values_and_writes_no_unsafe_character() -> None:
    value = {"k": "a\u202eb\x7f\x9b\u200b\U000e0001中文\udcff", "n": ["\u2028"]}
    text = json_safe(json.dumps(value, ensure_ascii=False))
    assert json.loads(text) == value
    assert not any(is_unsafe(ch) for ch in text)
    assert "中文" in text
