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

_ALNUM = rb"0-9A-Za-z"
_SPLIT = re.compile(
    rb"("
    # a UUID, any case
    rb"(?<![" + _ALNUM + rb"])[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
    rb"(?![" + _ALNUM + rb"])"
    # a dashed date 2020-08-29
    rb"|(?<![" + _ALNUM + rb"])(?:19|20)[0-9]{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
    rb"(?![" + _ALNUM + rb"])"
    # a run of >= 8 letters and digits containing both (hashes, tokens, word+id)
    rb"|(?<![" + _ALNUM + rb"])(?=[" + _ALNUM + rb"]*?[0-9])(?=[" + _ALNUM + rb"]*?[A-Za-z])"
    rb"[" + _ALNUM + rb"]{8,}(?![" + _ALNUM + rb"])"
    # a standalone number
    rb"|(?<![" + _ALNUM + rb"])[0-9]+(?![" + _ALNUM + rb"])"
    # digits glued to the end of a word: user12, orderId98765
    rb"|(?<=[A-Za-z])[0-9]{2,}(?![" + _ALNUM + rb"])"
    rb")"
)
_WORD_THEN_DIGITS = re.compile(rb"([A-Za-z]+)([0-9]+)")
_HEX_ONLY = re.compile(rb"[0-9A-Fa-f]+")
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

_INT_BY_WIDTH: dict[int, Placeholder] = {}


def _int(width: int) -> Placeholder:
    placeholder = _INT_BY_WIDTH.get(width)
    if placeholder is None:
        placeholder = _INT_BY_WIDTH.setdefault(width, Placeholder(SLOT_INT, width))
    return placeholder


def is_yyyymmdd(digits: bytes) -> bool:
    """True for an 8-digit valid calendar date between 1900 and 2099 (leap days allowed)."""
    if len(digits) != 8 or not digits.isdigit():
        return False
    year, month, day = int(digits[:4]), int(digits[4:6]), int(digits[6:])
    if not 1900 <= year <= 2099 or not 1 <= month <= 12:
        return False
    if month == 2 and day == 29:
        return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    return 1 <= day <= _DAYS_IN_MONTH[month - 1]


def _classify(token: bytes, out: list[Part]) -> None:
    """Append the placeholder(s) for one variable run matched by `_SPLIT`."""
    width = len(token)
    if token.isdigit():
        if width == 8 and is_yyyymmdd(token):
            out.append(Placeholder(SLOT_DATE, 8))
        else:
            out.append(_int(width))
        return
    if width == 36 and token[8:9] == b"-":
        out.append(Placeholder(SLOT_UUID, 36, upper=token.lower() != token))
        return
    if width == 10 and token[4:5] == b"-":
        out.append(Placeholder(SLOT_DATE_DASHED, 10))
        return
    split = _WORD_THEN_DIGITS.fullmatch(token)
    if split is not None:  # a word with an id glued on: keep the word, generalise the digits
        out.append(split.group(1))
        out.append(_int(len(split.group(2))))
        return
    upper = token.lower() != token
    if _HEX_ONLY.fullmatch(token):
        out.append(Placeholder(SLOT_HEX, width, upper=upper))
    else:
        out.append(Placeholder(SLOT_TOKEN, width, upper=upper))


def infer_parts(name: bytes) -> tuple[Part, ...]:
    """The template parts of a concrete key (see the module docstring)."""
    pieces = _SPLIT.split(name)
    if len(pieces) == 1:
        return (name,) if name else ()
    parts: list[Part] = []
    for index, piece in enumerate(pieces):
        if index % 2:
            _classify(piece, parts)
        elif piece:
            if parts and isinstance(parts[-1], bytes):
                parts[-1] += piece
            else:
                parts.append(piece)
    return tuple(parts)
