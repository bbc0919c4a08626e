"""A server reply's scalar as the traffic modules read it: an integer (None when it is not one: an error, nil,
text) and text (bytes decoded, undecodable ones kept as `\\xNN` escapes)."""

from __future__ import annotations


def reply_int(value: object) -> int | None:
    try:
        return int(value) if isinstance(value, int | bytes | str) else None
    except ValueError:
        return None


def reply_text(value: object) -> str:
    return value.decode("utf-8", "backslashreplace") if isinstance(value, bytes) else str(value)
