"""The Redis Cluster hash slot: CRC16 of the key's hashtag (or of the whole key) modulo 16384.

Redis hashes the bytes between the first `{` and the first `}` after it when there are any, else the whole
key (`keyHashSlot` in cluster.c, `key_slot` in redis-py), so keys sharing a tag share a slot.
"""

from __future__ import annotations

CLUSTER_SLOTS = 16384


def _crc16_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC16_TABLE = _crc16_table()


def crc16(data: bytes) -> int:
    """CRC-16/XMODEM (polynomial 0x1021, initial value 0), the checksum Redis Cluster uses (crc16.c)."""
    crc = 0
    table = _CRC16_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ byte) & 0xFF]
    return crc


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
