"""Helpers shared by the VAL rules: sizes in messages, element nouns per type, what a value's head looks like."""

from __future__ import annotations

import re

from rediscipline.model.severity import Severity
from rediscipline.model.text import Text

#: Values are judged where they are written (the runtime guard), by the live scanner and by the dump reader.
VALUE_CHECKS = ("runtime", "live", "rdb")
#: Sizes that need MEMORY USAGE, OBJECT ENCODING or a sample of elements: a server or a dump only.
STORED_CHECKS = ("live", "rdb")

#: Core collection types, and what one element of each is called in a message.
ELEMENT_NOUNS: dict[str, Text] = {
    "hash": Text("fields", "个字段"),
    "list": Text("elements", "个元素"),
    "set": Text("members", "个成员"),
    "zset": Text("members", "个成员"),
    "stream": Text("entries", "条消息"),
}
COLLECTIONS = frozenset(ELEMENT_NOUNS)

#: A dense HyperLogLog is a string of exactly this many bytes (16-byte header + 16384 six-bit registers),
#: starting with `HYLL`. It is a fixed-size structure, not a value anyone chose to make big.
DENSE_HLL_BYTES = 12304
HLL_MAGIC = b"HYLL"

# Bytes that never occur in text: C0 controls other than tab, newline, carriage return, form feed, and DEL.
_BINARY = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f\x7f]")


def count_text(count: int) -> str:
    """`12,345`: thousands separated, so element counts read at a glance."""
    return f"{count:,}"


def is_text(head: bytes) -> bool:
    """True when `head` is UTF-8 text: no control bytes, and valid UTF-8 but for a character cut at the end."""
    if _BINARY.search(head):
        return False
    for cut in range(4):  # the head may end inside a multi-byte character
        try:
            head[: len(head) - cut].decode("utf-8")
        except UnicodeDecodeError:
            continue
        return True
    return False


def is_dense_hll(length: int, head: bytes | None) -> bool:
    """A dense HyperLogLog (12 304 bytes): certain when the head shows the magic, assumed when it was not read."""
    return length == DENSE_HLL_BYTES and (head is None or head.startswith(HLL_MAGIC))


def over_limit(value: int, warn_limit: int, error_limit: int) -> tuple[str, int, Severity] | None:
    """The two-level size check shared by the size rules: (code, limit, severity), or None within limits.

    A limit of 0 is off. Codes stay `over-limit`/`far-over-limit` whatever the numbers, so presets can move
    limits without changing fingerprints.
    """
    if error_limit and value > error_limit:
        return "far-over-limit", error_limit, Severity.ERROR
    if warn_limit and value > warn_limit:
        return "over-limit", warn_limit, Severity.WARNING
    return None
