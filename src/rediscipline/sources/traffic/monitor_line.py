"""One line of a MONITOR stream, parsed back into the command the server ran, byte for byte.

The server writes each command it ran as one status reply (`replicationFeedMonitors`, replication.c; the same
in Redis 6.2 to 8.2 and Valkey 9.1):

    +1700000000.123456 [0 127.0.0.1:51234] "SET" "k\\x01" "v"

that is the time of the server's clock when the line was made (`%ld.%06ld`: after the command ran; before
it for the commands flagged `skip_monitor`, EVAL and FCALL), then in brackets the database and the client:
`ip:port` (an IPv6 address in brackets, `[::1]:5000`), `lua` for a command a script ran, or `unix:<path>` for
any client of the unix socket (the server's socket path, the same for all of them), then every argument,
the command name first, quoted by `sdscatrepr` (sds.c): `\\` and `"` get a backslash, newline, carriage
return, tab, bell and backspace are written `\\n \\r \\t \\a \\b`, any other byte `isprint` rejects (all of them
but 0x20-0x7e in the server's C locale) is written `\\xHH`, and the others are themselves; an integer-encoded
argument is printed with `%ld`, which gives back the bytes the client sent. So a line never holds a raw
CR or LF, and `parse_line` undoes the quoting exactly: the arguments are the bytes the client sent.

A line that does not have this form (cut short, an unknown escape, a quote out of place) is None, never an
exception: a stream read under a byte budget ends with a partial line, and a reader must go on past
anything it does not understand.
"""

from __future__ import annotations

import codecs
import re
from typing import NamedTuple

#: The escapes `sdscatrepr` writes.
_VALID_ESCAPE = re.compile(rb'\\(?:[\\"nrtab]|x[0-9a-fA-F]{2})')
_QUOTE, _SPACE, _BACKSLASH_BYTE, _BACKSLASH = 0x22, 0x20, 0x5C, b"\\"
#: Where the client ends and the arguments begin; tried again further on for a unix socket path holding it.
_CLIENT_END = b'] "'
_CLIENT_END_TRIES = 8


class MonitorLine(NamedTuple):
    """A command as MONITOR showed it: `time` (the server's clock, seconds), `db`, `client` (`ip:port`,
    `[ipv6]:port`, `lua` or `unix:<path>`) and `args`, the command name first, as the client sent them."""

    time: float
    db: int
    client: str
    args: tuple[bytes, ...]


class _Malformed(Exception):
    """An escape `sdscatrepr` never writes."""


def parse_line(line: bytes) -> MonitorLine | None:
    """A MONITOR line (with or without its leading `+`, without its CRLF) → the command; None when malformed."""
    begin = 1 if line[:1] == b"+" else 0
    space = line.find(b" [", begin)
    if space <= begin:
        return None
    seconds, dot, micros = line[begin:space].partition(b".")
    if not (dot and seconds.isdigit() and micros.isdigit()):  # bytes.isdigit: ASCII digits only
        return None
    db_end = line.find(b" ", space + 2)
    db_text = line[space + 2 : db_end]
    if db_end < 0 or not db_text.isdigit():
        return None
    end = db_end
    for _ in range(_CLIENT_END_TRIES):
        end = line.find(_CLIENT_END, end + 1)
        if end < 0:
            return None
        args = split_args(line, end + 2)
        if args is not None and end > db_end + 1:
            client = line[db_end + 1 : end].decode("utf-8", "backslashreplace")
            return MonitorLine(float(line[begin:space]), int(db_text), client, args)
    return None


def split_args(line: bytes, start: int) -> tuple[bytes, ...] | None:
    """The quoted arguments from `start` to the end of `line`, unquoted; None unless they fill it exactly.

    Without a backslash, the arguments are the pieces between `" "` (when there are two quotes per piece).
    Otherwise a scan with `bytes.find`, linear whatever the argument: an argument closes at the first `"` after it
    that follows an even run of backslashes (an odd run escapes it; the runs before two quotes never
    overlap); arguments without a backslash are slices, the others go through `unescape`.
    """
    if line.find(_BACKSLASH, start) < 0:  # no escape: every quote delimits, two per argument
        if len(line) - start < 2 or line[start] != _QUOTE or line[-1] != _QUOTE:
            return None
        pieces = line[start + 1 : -1].split(b'" "')
        return tuple(pieces) if line.count(b'"', start) == 2 * len(pieces) else None
    args: list[bytes] = []
    size = len(line)
    index = start
    while True:
        if index >= size or line[index] != _QUOTE:
            return None
        begin = index + 1
        close = line.find(b'"', begin)
        while close >= 0:
            before = close - 1
            while before >= begin and line[before] == _BACKSLASH_BYTE:
                before -= 1
            if (close - 1 - before) % 2 == 0:
                break
            close = line.find(b'"', close + 1)
        if close < 0:
            return None
        raw = line[begin:close]
        if line.find(_BACKSLASH, begin, close) >= 0:
            try:
                raw = unescape(raw)
            except _Malformed:
                return None
        args.append(raw)
        index = close + 1
        if index == size:
            return tuple(args)
        if line[index] != _SPACE:
            return None
        index += 1


def unescape(text: bytes) -> bytes:
    """Undo `sdscatrepr` inside one argument (raises _Malformed on an escape it never writes).

    Every escape `sdscatrepr` writes means the same in a Python bytes literal, so `codecs.escape_decode` (C)
    undoes them; it also knows escapes the server never writes (`\\0`, `\\f`, `\\'`, ...), so the text is first
    checked to hold no backslash but those of `_VALID_ESCAPE`, matched left to right.
    """
    if _BACKSLASH not in text:
        return text
    if _BACKSLASH in _VALID_ESCAPE.sub(b"", text):
        raise _Malformed(text)
    return codecs.escape_decode(text)[0]
