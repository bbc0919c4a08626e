"""RDB's primitive encodings and the server behaviours a parser must mirror, shared by the walk and the value readers.

Lengths (6/14/32/64-bit), module type names packed in a 64-bit id, the LZF expansion bound, and how the
writing server would have encoded a string (int, embstr, raw) given its version.
"""

from __future__ import annotations

import mmap

from rediscipline.redis_meta.encodings import EMBSTR_MAX_BYTES, INT_STRING_MAX_BYTES
from rediscipline.sources.rdb.errors import RdbError

#: Leading bytes of a string value kept as `RdbKey.head` (the rules' view of a value; see KeyFact.head).
HEAD_BYTES = 1024
#: Compressed strings shorter than this keep only their first LZF literal run (≤ 32 bytes) as head: enough
#: for magic numbers, and no rule reads further into values this small. Longer ones are decoded to HEAD_BYTES.
HEAD_DECODE_FROM = 1024

MODULE_CHARSET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


#: Writers that embed the key (and its expiry) in the value's allocation, which moves the embstr limit:
#: Redis 8 (kvobj) and Valkey 8.1+. Before them a string of at most EMBSTR_MAX_BYTES is embstr, whatever the key.
EMBED_REDIS = 1
EMBED_VALKEY = 2


def embstr(embed_key: int, key_length: int, value_length: int, expires: bool) -> bool:
    """Would the writing server keep this string value embedded (OBJECT ENCODING embstr)?

    Measured on reloads (about 19,000 random cases on Redis 8.2.3, 30,000 on Valkey 9.1.2, no miss):
    Redis 8: key + value ≤ 41 bytes, or ≤ 33 with an expiry; Valkey: value ≤ 113 − key (key < 32 bytes)
    or 111 − key, and never with an expiry and a key of 108 bytes or more.
    """
    if embed_key == EMBED_REDIS:
        return key_length + value_length <= (33 if expires else 41)
    if embed_key == EMBED_VALKEY:
        if expires and key_length >= 108:
            return False
        return value_length <= (113 if key_length < 32 else 111) - key_length
    return value_length <= EMBSTR_MAX_BYTES


#: The most LZF can inflate: a 3-byte back-reference token copies at most 264 bytes.
LZF_MAX_RATIO = 88


def check_lzf(clen: int, ulen: int, record: int) -> None:
    """A compressed length that cannot inflate to the claimed one is corrupt (and must not be allocated)."""
    if ulen > LZF_MAX_RATIO * clen:
        raise RdbError(f"compressed string of {clen} bytes claims {ulen} bytes, more than LZF can expand to", record)


def first_literal(buf: mmap.mmap | bytes, pos: int, clen: int) -> bytes:
    """The first literal run of an LZF stream: its first 1–32 bytes, with no decoding loop."""
    run = buf[pos] + 1 if clen else 0
    return buf[pos + 1 : pos + 1 + min(run, clen - 1)] if run <= 32 else b""


INT_START = frozenset(b"-0123456789")
INT_MIN = -(2**63)
INT_MAX = 2**63 - 1


def is_int(value: bytes) -> bool:
    """Would the server keep this string int-encoded (`string2ll` accepts it exactly)?"""
    if not value or len(value) > INT_STRING_MAX_BYTES:
        return False
    digits = value[1:] if value[:1] == b"-" else value
    if not digits.isdigit() or not digits.isascii():
        return False
    if digits[:1] == b"0" and (len(digits) > 1 or value[:1] == b"-"):
        return False
    return INT_MIN <= int(value) <= INT_MAX


def module_name(module_id: int) -> str:
    value = module_id >> 10
    chars = []
    for _ in range(9):
        chars.append(MODULE_CHARSET[value & 63])
        value >>= 6
    return "".join(reversed(chars))


def read_length(buf: mmap.mmap | bytes, pos: int) -> tuple[int, int]:
    """An RDB length: 6-bit, 14-bit, 32-bit or 64-bit big-endian; special (encoded) forms are an error."""
    b = buf[pos]
    kind = b >> 6
    if kind == 0:
        return b, pos + 1
    if kind == 1:
        return ((b & 0x3F) << 8) | buf[pos + 1], pos + 2
    if b == 0x80:
        if pos + 5 > len(buf):
            raise IndexError
        return int.from_bytes(buf[pos + 1 : pos + 5], "big"), pos + 5
    if b == 0x81:
        if pos + 9 > len(buf):
            raise IndexError
        return int.from_bytes(buf[pos + 1 : pos + 9], "big"), pos + 9
    raise ValueError(f"bad length byte 0x{b:02x}")


def version_tuple(value: bytes) -> tuple[int, ...]:
    parts = []
    for part in value.split(b".")[:3]:
        digits = part.strip()
        parts.append(int(digits) if digits.isdigit() else 0)
    return tuple(parts)


def int_string(buf: mmap.mmap | bytes, pos: int, width: int) -> bytes:
    """The text of an INT8/16/32-encoded string whose `width` value bytes start at `pos` (what GET returns)."""
    return str(int.from_bytes(buf[pos : pos + width], "little", signed=True)).encode()
