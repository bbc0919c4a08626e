"""Pattern inference: turn a concrete key name into a template of literals and typed placeholders.

`user:profile:id:12345` → `user:profile:id:` + int(5); `session:6f1c…-…` → `session:` + uuid;
`video_info#olympic#2020-08-29#1` → `video_info#olympic#` + date-dashed + `#` + int(1).

This runs once per key, so it is one C-level `re.split` plus a short loop over the variable runs; the
result is a plain tuple that hashes in C and serves as the memo key for rule evaluation.
"""

from __future__ import annotations

import re
from typing import TypeAlias

from rediscipline.model.idshapes import DATE, HEX_RUN, UUID, find_shapes, mixed_case_token, word_like, word_then_digest
from rediscipline.model.keyname import (
    SLOT_DATE,
    SLOT_DATE_DASHED,
    SLOT_EMAIL,
    SLOT_HEX,
    SLOT_INT,
    SLOT_TOKEN,
    SLOT_ULID,
    SLOT_UUID,
    Part,
    Placeholder,
)

#: Most key patterns one run tracks (the `pattern-cap` setting's default): beyond it, segments with many
#: values merge into `*`, and what still does not fit is counted under one overflow pattern.
DEFAULT_PATTERN_CAP = 50_000

# Runs of letters and digits that contain a digit, with dash-joined tails (2024-08, ab-12), long runs of
# letters only (base62 ids without a digit, or long words) and hex runs of letters only (`deadbeef`). Only
# these can be variable; other words are always literal. The one-byte lookbehind makes every position inside
# a word fail at once (an alternation of lookaround patterns was 2x slower on typical keys).
_SPLIT = re.compile(
    rb"((?<![0-9A-Za-z])(?:[A-Za-z]*[0-9][0-9A-Za-z]*(?:-[0-9A-Za-z]+)*"
    rb"|(?:[A-Za-z]{16,}|[a-f]{8,}|[A-F]{8,})(?![0-9A-Za-z])))"
)
_UUID = re.compile(UUID)
_DATE_DASHED = re.compile(DATE)
#: Bytes only identifiers `idshapes` reads whole contain (an e-mail, a `name=value` pair, base64, an IPv6 or
#: IPv4 address, eight `:` groups, a base64url token: `_` or `-` with an upper-case letter): a key without
#: them is split into runs directly.
_SHAPE_MARKS = re.compile(rb"[@+/=]")
_WORD_THEN_DIGITS = re.compile(rb"([A-Za-z]+)([0-9]+)")
_CODE = re.compile(rb"[A-Z][0-9]{3,}")

_ULID = re.compile(rb"[0-7][0-9A-HJKMNP-TV-Z]{25}")
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
#: A hex run this long is an id even when its bytes happen to be all letters (`deadbeef`) or letters then
#: digits (`abcdef12`): one reading for every key of a family of hashes.
HEX_MIN_WIDTH = 8
#: The longest hex digest (SHA-512); a longer run of hex letters is a word (`AAAA…`) or a blob.
HEX_MAX_WIDTH = 128

_INT_BY_WIDTH: dict[int, Placeholder] = {}
_SHARED: dict[tuple[str, int, bool], Placeholder] = {}


def _shared(slot: str, width: int, upper: bool = False) -> Placeholder:
    """One Placeholder object per (slot, width, case): no allocation on the per-key path."""
    key = (slot, width, upper)
    placeholder = _SHARED.get(key)
    if placeholder is None:
        placeholder = _SHARED.setdefault(key, Placeholder(slot, width, upper))
    return placeholder


def _int(width: int) -> Placeholder:
    placeholder = _INT_BY_WIDTH.get(width)
    if placeholder is None:
        placeholder = _INT_BY_WIDTH.setdefault(width, Placeholder(SLOT_INT, width))
    return placeholder


def is_yyyymmdd(digits: bytes) -> bool:
    """True for an 8-digit valid calendar date between 1900 and 2099 (leap days allowed)."""
    if len(digits) != 8 or digits[:2] not in (b"19", b"20") or not digits.isdigit():
        return False
    year, month, day = int(digits[:4]), int(digits[4:6]), int(digits[6:])
    if not 1 <= month <= 12:
        return False
    if month == 2 and day == 29:
        return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= _DAYS_IN_MONTH[month - 1]


def _classify(run: bytes, out: list[Part], whole: bool = False) -> bool:
    """Append the parts for one run matched by `_SPLIT` (a digit in it, or 16 letters or more).

    Returns False, having appended nothing reliable, when the run may be part of an identifier that
    `idshapes` reads whole (a dash-joined run that is not a UUID or a date, a token next to a `_`); `whole`
    says the caller already looked for those, and the run is judged piece by piece.
    """
    width = len(run)
    if run.isdigit():
        if width == 8 and is_yyyymmdd(run):
            out.append(_shared(SLOT_DATE, 8))
        else:
            out.append(_int(width))
        return True
    if b"-" in run:
        if width == 36 and _UUID.fullmatch(run):
            out.append(_shared(SLOT_UUID, 36, run.lower() != run))
            return True
        if width == 10 and _DATE_DASHED.fullmatch(run):
            out.append(_shared(SLOT_DATE_DASHED, 10))
            return True
        if not whole:
            return False
        for index, piece in enumerate(run.split(b"-")):  # dash-joined words and numbers: each on its own
            if index:
                _literal(b"-", out)
            if any(48 <= byte <= 57 for byte in piece):
                _classify(piece, out, whole)
            elif piece:
                _literal(piece, out)
        return True
    upper = run.lower() != run
    hexadecimal = HEX_RUN.fullmatch(run) is not None
    if hexadecimal and HEX_MIN_WIDTH <= width <= HEX_MAX_WIDTH:
        out.append(_shared(SLOT_HEX, width, upper))
        return True
    if run.isalpha():
        if not mixed_case_token(run):
            _literal(run, out)
            return True
        out.append(_shared(SLOT_TOKEN, width, True))
        return whole  # a token without a digit may be part of a base64url one
    digest = word_then_digest(run)
    if digest is not None:
        _literal(run[:digest], out)  # a word with a hex digest glued on (`search<sha256>`)
        out.append(_shared(SLOT_HEX, width - digest, upper))
        return True
    if _CODE.fullmatch(run):
        out.append(_shared(SLOT_TOKEN, width, True))  # an upper-case letter and a number: a code (SKU A153)
        return True
    split = _WORD_THEN_DIGITS.fullmatch(run) if run[:1].isalpha() else None
    if split is not None and not word_like(split.group(1)):
        split = None  # random letters then digits: a token, not a word with an id
    if split is not None:
        word, digits = split.group(1), split.group(2)
        if len(digits) < 2 and width < 8:  # md5, utf8, v2: part of the word, not an id
            _literal(run, out)
            return True
        _literal(word, out)  # a word with an id glued on: keep the word, generalise the digits
        out.append(_int(len(digits)))
        return True
    if width == 26 and _ULID.fullmatch(run):
        out.append(_shared(SLOT_ULID, 26, True))
        return True
    if width >= 8 or (hexadecimal and width >= 4 and not run[:1].isalpha()) or (hexadecimal and width >= 6):
        out.append(_shared(SLOT_HEX if hexadecimal else SLOT_TOKEN, width, upper))
        return hexadecimal or whole
    _literal(run, out)  # short mixed words: h264, ipv4, 3d, s3
    return True


def _literal(data: bytes, out: list[Part]) -> None:
    if out and isinstance(out[-1], bytes):
        out[-1] += data
    else:
        out.append(data)


def infer_parts(name: bytes) -> tuple[Part, ...]:
    """The template parts of a concrete key (see the module docstring)."""
    if _plain(name):
        pieces = _SPLIT.split(name)
        count = len(pieces)
        if count == 1:
            return (name,) if name else ()
        if count == 3:  # the common case: one variable run
            head, run, tail = pieces
            if run.isdigit() and (len(run) != 8 or run[:2] not in (b"19", b"20")):
                placeholder = _INT_BY_WIDTH.get(len(run)) or _int(len(run))
                if head:
                    return (head, placeholder, tail) if tail else (head, placeholder)
                return (placeholder, tail) if tail else (placeholder,)
        parts: list[Part] = []
        if _runs(pieces, parts, whole=False):
            return tuple(parts)
    shapes = find_shapes(name)
    parts = []
    position = 0
    for start, end, slot in shapes:
        if start > position:
            _runs(_SPLIT.split(name[position:start]), parts, whole=True)
        value = name[start:end]
        if slot == SLOT_EMAIL:
            _email(value, parts)
        else:
            parts.append(_shared(slot, end - start, value.lower() != value and slot != SLOT_TOKEN))
        position = end
    if position < len(name):
        _runs(_SPLIT.split(name[position:]), parts, whole=True)
    return tuple(parts)


def _plain(name: bytes) -> bool:
    """No byte of the key can be part of an identifier `idshapes` reads whole: its runs decide its template."""
    return (
        _SHAPE_MARKS.search(name) is None
        and b"::" not in name
        and name.count(b".") < 3
        and name.count(b":") < 7
        and not ((b"_" in name or b"-" in name) and name.lower() != name)  # a base64url token may hide there
    )


def _email(value: bytes, parts: list[Part]) -> None:
    """An e-mail address as `*@*.*`: the local part, the domain and the top-level domain vary, the `@` and the
    last dot stay literal, so naming rules still see the punctuation an address brings into a key."""
    local, _at, domain = value.rpartition(b"@")
    host, _dot, tld = domain.rpartition(b".")
    for index, piece in enumerate((local, host, tld)):
        if index:
            _literal(b"@" if index == 1 else b".", parts)
        parts.append(_shared(SLOT_EMAIL, len(piece), piece.lower() != piece))


def _runs(pieces: list[bytes], parts: list[Part], *, whole: bool) -> bool:
    """Append the parts of `_SPLIT` pieces (literal text and runs); False when a run needs `idshapes`."""
    for index, piece in enumerate(pieces):
        if index % 2:
            if not _classify(piece, parts, whole):
                return False
        elif piece:
            _literal(piece, parts)
    return True


#: What joins the numbers of a date (`-`, `-W`, `T`, ` `), an IPv4 address (`.`) or an IPv6 one (`::`).
_NUMBER_JOINS = frozenset((b"-", b"-W", b"W", b"T", b" ", b".", b"::"))
DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
DATE_PREFIXES = (b"19", b"20")


def skeleton_offsets(parts: tuple[Part, ...]) -> tuple[int, ...] | None:
    """If `parts` is fully determined by the key with every digit replaced by 0, the byte offsets of its
    8-digit numbers (which could also be dates); otherwise None.

    That holds when every placeholder is a plain integer, no literal part holds a digit and no two integers
    are joined the way dates, weeks and addresses join theirs (`2024-13-45` is three integers, `2024-11-05` a
    date): then two keys with the same skeleton (`name.translate(DIGITS_TO_ZERO)`) have the same template,
    except where an 8-digit run is a date, which the caller re-checks at the returned offsets.
    """
    offsets: list[int] = []
    position = 0
    for index, part in enumerate(parts):
        if isinstance(part, bytes):
            if part.translate(None, b"0123456789") != part:
                return None
            if part in _NUMBER_JOINS and 0 < index < len(parts) - 1:
                return None
            position += len(part)
        elif part.slot != SLOT_INT or part.width is None:
            return None
        else:
            if part.width == 8:
                offsets.append(position)
            position += part.width
    return tuple(offsets)


#: Every hex digit to 0: the skeleton shared by the keys of one family of hex and UUID ids (`hex_checks`).
HEX_TO_ZERO = bytes.maketrans(b"123456789abcdef", b"0" * 15)
#: What `hex_checks` asks of a key's bytes at a place: these very bytes, or a number that is not a date, or a
#: hex run that is not all digits; a UUID needs nothing beyond the skeleton (its dashes and hex digits).
CHECK_INT, CHECK_HEX, CHECK_UUID = 0, 1, 2
Check: TypeAlias = tuple[int, int, "bytes | int"]


def hex_checks(name: bytes, parts: tuple[Part, ...]) -> tuple[Check, ...] | None:
    """What proves that another key with the same hex skeleton (`name.translate(HEX_TO_ZERO)`) has the
    template `parts` of the lower-case key `name`; None when the template is not of that kind.

    The key must hold none of the bytes whole identifiers are found by (`_plain`), and its template must be
    literals, integers (not joined as dates or addresses are), UUIDs and whole hex runs of eight digits or
    more (bounded by bytes other than letters and digits, so no word or digest rule cut them): then inference
    reads another key of that skeleton the same way wherever its literals are the same bytes, its integers
    are not dates and its hex runs are not all digits (which would be integers). Inference then runs once per
    family instead of once per key.
    """
    if name.lower() != name or not _plain(name):
        return None
    checks: list[Check] = []
    position = 0
    for index, part in enumerate(parts):
        if isinstance(part, bytes):
            if part in _NUMBER_JOINS and 0 < index < len(parts) - 1:
                return None  # a date, a week or an address on other days: not a question of hex digits
            checks.append((position, position + len(part), part))
            position += len(part)
            continue
        width = part.width or 0
        end = position + width
        if part.slot == SLOT_INT:
            checks.append((position, end, CHECK_INT))
        elif part.slot == SLOT_UUID:
            checks.append((position, end, CHECK_UUID))
        elif part.slot == SLOT_HEX and width >= HEX_MIN_WIDTH and _bounded(name, position, end):
            checks.append((position, end, CHECK_HEX))
        else:
            return None
        position = end
    return tuple(checks)


def _bounded(name: bytes, start: int, end: int) -> bool:
    return (start == 0 or not name[start - 1 : start].isalnum()) and (
        end == len(name) or not name[end : end + 1].isalnum()
    )


def hex_matches(name: bytes, checks: tuple[Check, ...]) -> bool:
    """Whether `name`, with the skeleton of the key `checks` were made from, has that key's template."""
    for start, end, check in checks:
        if check.__class__ is bytes:
            if not name.startswith(check, start):
                return False
        elif check == CHECK_INT:
            digits = name[start:end]
            if not digits.isdigit() or (end - start == 8 and is_yyyymmdd(digits)):
                return False
        elif check == CHECK_HEX and name[start:end].isdigit():
            return False
    return True
