"""The Redis Cluster hash slot: CRC16 of the key's hashtag (or of the whole key) modulo 16384.

Redis hashes the bytes between the first `{` and the first `}` after it when there are any, else the whole
key (`keyHashSlot` in cluster.c, `key_slot` in redis-py), so keys sharing a tag share a slot.
"""

from __future__ import annotations

from binascii import crc_hqx

CLUSTER_SLOTS = 16384


def crc16(data: bytes) -> int:
    """CRC-16/XMODEM (polynomial 0x1021, initial value 0), the checksum Redis Cluster uses (crc16.c): the
    CRC-CCITT binascii computes in C, given 0 as the initial value."""
    return crc_hqx(data, 0)


def hashtag_of(name: bytes) -> bytes | None:
    """The bytes Redis Cluster hashes instead of the whole name, or None when it hashes the whole name."""
    opened = name.find(b"{")
    if opened < 0:
        return None
    closed = name.find(b"}", opened + 1)
    if closed <= opened + 1:  # no `}` after the `{`, or an empty `{}`
        return None
    return name[opened + 1 : closed]


def hash_slot(hashed: bytes) -> int:
    """The slot of the bytes Redis hashes (a key's hashtag, or the whole key when it has none)."""
    return crc16(hashed) % CLUSTER_SLOTS


def key_slot(name: bytes) -> int:
    """The slot of a key: of its hashtag when it has one, else of the whole name."""
    tag = hashtag_of(name)
    return hash_slot(name if tag is None else tag)
