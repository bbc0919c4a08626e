"""The one way untrusted bytes and text become output: escaped so a terminal or log cannot act on them, and bounded.

Everything a report shows that someone else wrote passes through here: key names, patterns, examples,
namespaces, server replies (INFO fields, client names, error messages), config values, file paths and code
lines; and, by the renderers, every message and note as a whole. Two promises hold for all of it:

* Escaping. C0 and C1 control characters, DEL, bidi and other format characters (RLO, zero-width spaces),
  line and paragraph separators, private-use, surrogate and unassigned code points are written as visible
  escapes (`\\x1b`, `\\u202e`); bytes that are not UTF-8 as `\\xNN`. Other text, Chinese included, is shown
  as it is. `display_bytes` and `display_text` also double backslashes, so the escaped form of a name is
  unambiguous; `inert` leaves them alone, for composed messages that already quote escaped names.
* Bounds. A shown name is cut after a fixed number of characters and followed by its full size,
  `user:AAAA…(1,048,583 bytes)`, so a 1 MB key name costs a report the same few hundred bytes as a short
  one. The limits below are the only ones: rules quote with QUOTE_LIMIT, renderers show names with
  NAME_LIMIT, paths with PATH_LIMIT, other outside text with TEXT_LIMIT and whole messages with MESSAGE_LIMIT.

`json_safe` is the same escaping for a serialised JSON document: it writes the unsafe characters of its
strings as JSON `\\u` escapes, so the values stay exact while the file holds none of them raw.
"""

from __future__ import annotations

import re
import unicodedata

#: Characters of a key name, pattern or other name shown in a report field (text, JSON, SARIF, GitHub).
NAME_LIMIT = 200
#: Characters of a key, word or value quoted inside a message (and of a key in a text-report table).
QUOTE_LIMIT = 80
#: Characters of any other outside text shown: server replies, client names, config values, code lines, paths.
TEXT_LIMIT = 300
#: Characters of a file path shown: whole up to the longest path Linux accepts (PATH_MAX), so editors can open it.
PATH_LIMIT = 4096
#: Characters of a whole message or note as a renderer writes it (a guard: rules stay far below it).
MESSAGE_LIMIT = 2000

_PLAIN = re.compile(rb"[\x20-\x5b\x5d-\x7e]*")
_UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
_SHORT = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}
_JSON_UNSAFE = re.compile("[^\x00-\x7e]")  # every code point from U+007F on; a negated class compiles in 0.1 ms, not 3


def is_unsafe(ch: str) -> bool:
    """True for a character that must not reach output as itself (see the module docstring)."""
    code = ord(ch)
    if code < 0x80:
        return code < 0x20 or code == 0x7F
    return unicodedata.category(ch) in _UNSAFE_CATEGORIES


def _escape(ch: str, backslash: bool) -> str:
    code = ord(ch)
    if code == 0x5C:
        return "\\\\" if backslash else "\\"
    if code < 0x80:
        if 0x20 <= code < 0x7F:
            return ch
        return _SHORT.get(code) or f"\\x{code:02x}"
    if 0xDC80 <= code <= 0xDCFF:  # an undecodable byte carried by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    if unicodedata.category(ch) in _UNSAFE_CATEGORIES:
        return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return ch


def _shown(text: str, limit: int | None, backslash: bool) -> tuple[str, bool]:
    """(escaped text, whether it was cut): at most `limit` characters of escaped output, whole escapes only."""
    if (limit is None or len(text) <= limit) and text.isprintable() and not (backslash and "\\" in text):
        return text, False
    out: list[str] = []
    size = 0
    for ch in text:
        piece = ch if ch.isprintable() and ch != "\\" else _escape(ch, backslash)
        size += len(piece)
        if limit is not None and size > limit:
            return "".join(out), True
        out.append(piece)
    return "".join(out), False


def cut_marker(total: int, unit: str) -> str:
    """What follows a cut name or text: `…(1,048,583 bytes)`."""
    return f"…({total:,} {unit})"


def display_cut(data: bytes, limit: int | None = None) -> tuple[str, bool]:
    """`display_bytes` and whether it cut `data` (then the exact bytes must be given some other way)."""
    if limit is None or len(data) <= limit:
        if _PLAIN.fullmatch(data):
            return data.decode("ascii"), False
        head = data
    elif _PLAIN.fullmatch(data, 0, limit):
        return data[:limit].decode("ascii") + cut_marker(len(data), "bytes"), True
    else:
        # Every character takes at most 4 bytes and shows as at least one, so the limit is reached inside
        # this head, before a character cut at its end could be mistaken for undecodable bytes.
        head = data[: 4 * limit + 4]
    text, cut = _shown(head.decode("utf-8", errors="surrogateescape"), limit, backslash=True)
    if cut or len(head) < len(data):
        return text + cut_marker(len(data), "bytes"), True
    return text, False


def display_bytes(data: bytes, limit: int | None = None) -> str:
    """Printable text for bytes: backslash escapes for controls, format characters and bytes that are not UTF-8.

    With `limit`, at most `limit` characters are shown, then `…(N bytes)` with the full length.
    """
    return display_cut(data, limit)[0]


def display_text(text: str, limit: int | None = TEXT_LIMIT) -> str:
    """Outside text (a server reply, a path, a config value) escaped as `display_bytes` escapes names.

    Undecodable bytes carried as surrogate escapes (paths from the OS) show as `\\xNN`. Cut after `limit`
    characters, then `…(N characters)`.
    """
    shown, cut = _shown(text, limit, backslash=True)
    return shown + cut_marker(len(text), "characters") if cut else shown


def inert(text: str, limit: int | None = MESSAGE_LIMIT) -> str:
    """Composed text (a message, a note) with unsafe characters escaped and backslashes left as they are.

    Rules quote names already escaped by `display_bytes`; escaping backslashes again would show `\\\\x1b`.
    Cut after `limit` characters, then `…(N characters)`.
    """
    shown, cut = _shown(text, limit, backslash=False)
    return shown + cut_marker(len(text), "characters") if cut else shown


def cut_text(text: str, limit: int | None = TEXT_LIMIT) -> str:
    """`text` itself when it has at most `limit` characters, else its head and `…(N characters)`.

    For JSON, whose own escaping (with `json_safe`) keeps the value exact: only the length is bounded.
    """
    if limit is None or len(text) <= limit:
        return text
    return text[:limit] + cut_marker(len(text), "characters")


def _json_escape(match: re.Match[str]) -> str:
    ch = match.group()
    if not is_unsafe(ch):
        return ch
    code = ord(ch)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def json_safe(serialized: str) -> str:
    """A JSON document (as `json.dumps(..., ensure_ascii=False)` writes it) with unsafe characters as `\\u` escapes.

    JSON's structure is ASCII, so such characters can only sit inside strings, where an escape is the same
    value: consumers read exactly what they read before, and the file can be printed or viewed safely.
    """
    return _JSON_UNSAFE.sub(_json_escape, serialized)


def is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
