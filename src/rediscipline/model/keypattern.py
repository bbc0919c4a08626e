"""Pattern inference: turn a concrete key name into a template of literals and typed placeholders.

`user:profile:id:12345` → `user:profile:id:` + int(5); `session:6f1c…-…` → `session:` + uuid;
`video_info#olympic#2020-08-29#1` → `video_info#olympic#` + date-dashed + `#` + int(1).

This runs once per key, so it is one C-level `re.split` plus a short loop over the variable runs; the
result is a plain tuple that hashes in C and serves as the memo key for rule evaluation.
"""

from __future__ import annotations

import re

from rediscipline.model.keyname import (
    SLOT_DATE,
    SLOT_DATE_DASHED,
    SLOT_HEX,
    SLOT_INT,
    SLOT_TOKEN,
    SLOT_UUID,
    Part,
    Placeholder,
)

#: Most key patterns one run tracks (the `pattern-cap` setting's default): beyond it, segments with many
#: values merge into `*`, and what still does not fit is counted under one overflow pattern.
DEFAULT_PATTERN_CAP = 50_000

# Runs of letters and digits that contain a digit, with dash-joined tails (UUIDs, 2020-08-29). Only these
# can be variable; words without digits are always literal. The one-byte lookbehind makes every position
# inside a word fail at once (an alternation of lookaround patterns was 2x slower on typical keys).
_SPLIT = re.compile(rb"((?<![0-9A-Za-z])[A-Za-z]*[0-9][0-9A-Za-z]*(?:-[0-9A-Za-z]+)*)")
_UUID = re.compile(rb"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
_DATE_DASHED = re.compile(rb"(?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])")
_WORD_THEN_DIGITS = re.compile(rb"([A-Za-z]+)([0-9]+)")
_HEX_ONLY = re.compile(rb"[0-9A-Fa-f]+")
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

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


def _classify(run: bytes, out: list[Part]) -> None:
    """Append the parts for one run matched by `_SPLIT` (it contains at least one digit)."""
    width = len(run)
    if run.isdigit():
        if width == 8 and is_yyyymmdd(run):
            out.append(_shared(SLOT_DATE, 8))
        else:
            out.append(_int(width))
        return
    if b"-" in run:
        if width == 36 and _UUID.fullmatch(run):
            out.append(_shared(SLOT_UUID, 36, run.lower() != run))
        elif width == 10 and _DATE_DASHED.fullmatch(run):
            out.append(_shared(SLOT_DATE_DASHED, 10))
        else:  # dash-joined words and numbers: judge each piece on its own
            for index, piece in enumerate(run.split(b"-")):
                if index:
                    _literal(b"-", out)
                if any(48 <= byte <= 57 for byte in piece):
                    _classify(piece, out)
                elif piece:
                    _literal(piece, out)
        return
    split = _WORD_THEN_DIGITS.fullmatch(run) if run[:1].isalpha() else None
    if split is not None:
        word, digits = split.group(1), split.group(2)
        if len(digits) < 2 and width < 8:  # md5, utf8, v2: part of the word, not an id
            _literal(run, out)
            return
        _literal(word, out)  # a word with an id glued on: keep the word, generalise the digits
        out.append(_int(len(digits)))
        return
    hexadecimal = _HEX_ONLY.fullmatch(run) is not None
    if width >= 8 or ((hexadecimal and width >= 4 and not run[:1].isalpha()) or (hexadecimal and width >= 6)):
        out.append(_shared(SLOT_HEX if hexadecimal else SLOT_TOKEN, width, run.lower() != run))
        return
    _literal(run, out)  # short mixed words: h264, ipv4, 3d, s3


def _literal(data: bytes, out: list[Part]) -> None:
    if out and isinstance(out[-1], bytes):
        out[-1] += data
    else:
        out.append(data)


def infer_parts(name: bytes) -> tuple[Part, ...]:
    """The template parts of a concrete key (see the module docstring)."""
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
    for index, piece in enumerate(pieces):
        if index % 2:
            _classify(piece, parts)
        elif piece:
            _literal(piece, parts)
    return tuple(parts)


DIGITS_TO_ZERO = bytes.maketrans(b"123456789", b"000000000")
DATE_PREFIXES = (b"19", b"20")


def skeleton_offsets(parts: tuple[Part, ...]) -> tuple[int, ...] | None:
    """If `parts` is fully determined by the key with every digit replaced by 0, the byte offsets of its
    8-digit numbers (which could also be dates); otherwise None.

    That holds when every placeholder is a plain integer and no literal part holds a digit: then two keys
    with the same skeleton (`name.translate(DIGITS_TO_ZERO)`) have the same template, except where an
    8-digit run is a date, which the caller re-checks at the returned offsets.
    """
    offsets: list[int] = []
    position = 0
    for part in parts:
        if isinstance(part, bytes):
            if part.translate(None, b"0123456789") != part:
                return None
            position += len(part)
        elif part.slot != SLOT_INT or part.width is None:
            return None
        else:
            if part.width == 8:
                offsets.append(position)
            position += part.width
    return tuple(offsets)
