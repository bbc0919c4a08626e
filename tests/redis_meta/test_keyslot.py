"""The Redis Cluster hash slot: CRC16/XMODEM of the hashtag (or the whole key) modulo 16384."""

from __future__ import annotations

import pytest

from rediscipline.redis_meta.keyslot import crc16, hash_slot, hashtag_of


def key_slot(name: bytes) -> int:
    """The slot Redis Cluster gives a key name (cluster.c `keyHashSlot`)."""
    tag = hashtag_of(name)
    return hash_slot(name if tag is None else tag)


def test_crc16_xmodem_check_value() -> None:
    assert crc16(b"123456789") == 0x31C3
    assert crc16(b"") == 0


@pytest.mark.parametrize(
    ("name", "slot"),
    [(b"foo", 12182), (b"123456789", 12739), (b"{foo}bar", 12182), (b"a{}b", crc16(b"a{}b") % 16384)],
)
def test_key_slot_known_values(name: bytes, slot: int) -> None:
    assert key_slot(name) == slot


def test_key_slot_follows_the_first_tag() -> None:
    assert key_slot(b"{user1000}.following") == key_slot(b"{user1000}.followers")
    assert key_slot(b"a{aa{xxx}bb}b") == key_slot(b"aa{xxx")  # 000's nested example
    assert key_slot(b"foo{}{bar}") == crc16(b"foo{}{bar}") % 16384  # an empty first tag: the whole key
    assert key_slot(b"foo{{bar}}zap") == key_slot(b"{bar")
