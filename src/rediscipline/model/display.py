"""Turn arbitrary key bytes into text that is safe to show on a terminal, in HTML or in JSON.

Keys come from production data and may be written by anyone: control characters, terminal escape
sequences, bidi overrides and invalid UTF-8 must never reach a terminal as-is.
"""

from __future__ import annotations

import re
import unicodedata

_PLAIN = re.compile(rb"[\x20-\x5b\x5d-\x7e]*")

_ASCII_ESCAPES = {0x5C: "\\\\", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}


def _escape_char(ch: str) -> str:
    code = ord(ch)
    if code in _ASCII_ESCAPES:
        return _ASCII_ESCAPES[code]
    if code < 0x20 or code == 0x7F:
        return f"\\x{code:02x}"
    if code < 0x80:
        return ch
    # Non-ASCII text (for example Chinese) is shown as is, but invisible and formatting characters
    # (bidi overrides, zero-width joiners, C1 controls) are escaped so they cannot disguise a key.
    if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"):
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return ch


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def display_bytes(data: bytes, limit: int | None = None) -> str:
    """Printable text for `data`: backslash escapes for controls and for bytes that are not UTF-8.

    `limit` truncates long names (a 1 MB key is shown as its first `limit` bytes plus a marker).
    """
    truncated = limit is not None and len(data) > limit
    if truncated:
        data = data[:limit]
    if _PLAIN.fullmatch(data):
        text = data.decode("ascii")
    else:
        parts: list[str] = []
        for chunk in data.decode("utf-8", errors="surrogateescape"):
            code = ord(chunk)
            if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte carried by surrogateescape
                parts.append(f"\\x{code - 0xDC00:02x}")
            else:
                parts.append(_escape_char(chunk))
        text = "".join(parts)
    return text + "…" if truncated else text
