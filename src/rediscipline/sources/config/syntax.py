"""The lexical rules Redis itself applies to redis.conf and ACL files, byte for byte.

Both files are read the same way by the server (`loadServerConfigFromString` in config.c, `ACLLoadFromFile`
in acl.c): split on `\\n`, trim ` \\t\\r\\n` from both ends, skip a line that is empty or starts with `#`,
and cut the rest into arguments with `sdssplitargs` (sds.c). A `#` later in a line is not a comment: it is
an argument like any other, which is how `maxmemory 2gb # two gigs` makes Redis refuse to start.

Values are bytes: nothing here assumes UTF-8.
"""

from __future__ import annotations

from collections.abc import Iterator

#: What C's isspace() accepts: blanks between arguments, and what may follow a closing quote.
_SPACE = frozenset(b" \t\n\v\f\r")
#: What ends an unquoted argument (sdssplitargs tests these, not isspace: `\v` and `\f` stay in the argument).
_END = frozenset(b" \t\n\r")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_ESCAPES = {ord("n"): b"\n", ord("r"): b"\r", ord("t"): b"\t", ord("b"): b"\b", ord("a"): b"\a"}
_TRIM = b" \t\r\n"

#: Multipliers of `memtoull` (util.c): a bare `k`/`m`/`g` is decimal, `kb`/`mb`/`gb` binary; case-insensitive.
_MEMORY_UNITS = {
    b"": 1,
    b"b": 1,
    b"k": 1000,
    b"kb": 1024,
    b"m": 1000**2,
    b"mb": 1024**2,
    b"g": 1000**3,
    b"gb": 1024**3,
}
_ULLONG = 2**64


class SyntaxProblem(ValueError):
    """A line Redis would refuse; the caller adds the file name to the message."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def directive_lines(data: bytes, *, comments: bool = True) -> Iterator[tuple[int, list[bytes]]]:
    """(1-based line number, arguments) of every line that holds a directive, in order.

    `comments=False` for ACL files, where a `#` line is not a comment but a line the server refuses.
    Raises SyntaxProblem on unbalanced quotes, as Redis does.
    """
    for number, raw in enumerate(data.split(b"\n"), 1):
        line = raw.split(b"\0", 1)[0].strip(_TRIM)  # the server reads a C string: a NUL ends the line
        if not line or (comments and line[:1] == b"#"):
            continue
        args = split_args(line)
        if args is None:
            raise SyntaxProblem("unbalanced quotes (or a closing quote not followed by a blank)", number)
        if args:
            yield number, args


def split_args(line: bytes) -> list[bytes] | None:
    """`sdssplitargs`: arguments split on blanks, with "double quotes" (`\\xHH`, `\\n`, `\\r`, `\\t`, `\\b`,
    `\\a` and `\\<any>` escapes) and 'single quotes' (only `\\'`); None when quotes are unbalanced or a
    closing quote is followed by something other than a blank, which the server rejects."""
    args: list[bytes] = []
    i, end = 0, len(line)
    while True:
        while i < end and line[i] in _SPACE:
            i += 1
        if i >= end:
            return args
        current = bytearray()
        in_double = in_single = False
        while True:
            char = line[i] if i < end else 0
            if in_double:
                if char == 0x5C and line[i + 1 : i + 2] == b"x" and _hex_pair(line, i + 2):
                    current.append(int(line[i + 2 : i + 4], 16))
                    i += 3
                elif char == 0x5C and i + 1 < end:
                    i += 1
                    current += _ESCAPES.get(line[i], line[i : i + 1])
                elif char == 0x22:
                    if i + 1 < end and line[i + 1] not in _SPACE:
                        return None
                    i += 1
                    break
                elif i >= end:
                    return None
                else:
                    current.append(char)
            elif in_single:
                if char == 0x5C and i + 1 < end and line[i + 1] == 0x27:
                    i += 1
                    current.append(0x27)
                elif char == 0x27:
                    if i + 1 < end and line[i + 1] not in _SPACE:
                        return None
                    i += 1
                    break
                elif i >= end:
                    return None
                else:
                    current.append(char)
            elif i >= end or char in _END:
                break
            elif char == 0x22:
                in_double = True
            elif char == 0x27:
                in_single = True
            else:
                current.append(char)
            i += 1
        args.append(bytes(current))


def _hex_pair(line: bytes, at: int) -> bool:
    return at + 1 < len(line) and line[at] in _HEX and line[at + 1] in _HEX


def memory_bytes(value: bytes) -> int | None:
    """`memtoull`: `2gb` → 2147483648, `1k` → 1000; None for anything else (a sign, a fraction, `1kib`).

    Like the server, digits are optional (`gb` is 0), a number too large saturates before the unit
    multiplies it, and the product wraps at 2**64, as the unsigned C arithmetic does.
    """
    digits = 0
    while digits < len(value) and 0x30 <= value[digits] <= 0x39:
        digits += 1
    multiplier = _MEMORY_UNITS.get(value[digits:].lower())
    if multiplier is None or digits >= 128:
        return None
    number = min(int(value[:digits] or b"0"), _ULLONG - 1)
    return number * multiplier % _ULLONG


def strict_int(value: bytes) -> int | None:
    """`string2ll`: an optional `-` and digits without leading zeros, blanks or `+`; None otherwise."""
    body = value[1:] if value[:1] == b"-" else value
    if not body.isdigit() or (body[:1] == b"0" and len(body) > 1) or value == b"-0":
        return None
    number = int(value)
    return number if -(2**63) <= number < 2**63 else None
