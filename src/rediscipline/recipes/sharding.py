"""Split one key holding every ID into many by modulo: `uid#0#0`, `uid#1#1`, …, `uid#999#99`.

000 §各种ID: "用户 ID 用 1000 取模，就可以将用户 ID 全集的 1 个 Key 拆成 1000 个Key，如果 ID 很多，可以用 ID 和 ID
前 2 个字符取模两次，按需分段 uid#0#0，uid#1#1 ，......， uid#999#99". A set of every prize winner, or every
follower of a star, becomes `shards` keys of a thousandth of the size each: no big key, and the keys spread
over the shards of a cluster.

The form is the one 000 writes and rediscipline's KEY014 split-key-form accepts: the key, then `#` and the
ID modulo `shards` (`levels=1`, `prize:winner#456`), then for `levels=2` `#` and the ID's first two
characters (`prize:winner#456#12`): 000's second modulo, which splits the IDs that share a remainder by
their leading digits. The ID must be a non-negative integer, as 000 says ("即 Value 是整型": user, book or
article IDs); for other IDs take a stable hash first (`zlib.crc32(uuid_bytes)`, never Python's `hash`,
which changes from process to process). `#` should stay out of the key itself: KEY014 wants the `#` parts
at the end, after the last `:` level.

`shard_keys` lists every key `sharded_key` can produce for a key, for reads that must visit all of them
(a count, a full walk): read them with `chunked_mget` or one SCARD/SSCAN per key.
"""

from __future__ import annotations

from typing import TypeVar

from rediscipline.recipes.steps import whole_number

K = TypeVar("K", bytes, str)

#: The second level is the ID's first two characters: 0–9 for one-digit IDs, 10–99 for the others.
_LEADING = 2
_SECOND_LEVEL = range(10**_LEADING)


def _check_levels(levels: int) -> int:
    if levels not in (1, 2) or isinstance(levels, bool):
        raise ValueError(
            f"levels must be 1 (key#<id mod shards>) or 2 (key#<id mod shards>#<leading digits>), not {levels!r}"
        )
    return levels


def _join(key: K, parts: tuple[int, ...]) -> K:
    if isinstance(key, bytes):
        return key + b"".join(b"#%d" % part for part in parts)
    return key + "".join(f"#{part}" for part in parts)


def shard_parts(shard_id: int, shards: int, levels: int = 1) -> tuple[int, ...]:
    """The numbers after `#` for `shard_id`: `(id % shards,)`, or with two levels also its first two digits."""
    if isinstance(shard_id, bool) or not isinstance(shard_id, int):
        raise TypeError(f"shard_id must be an integer ID (000 §各种ID), not {type(shard_id).__name__}")
    if shard_id < 0:
        raise ValueError(f"shard_id must be >= 0, not {shard_id}")
    first = shard_id % whole_number("shards", shards)
    if _check_levels(levels) == 1:
        return (first,)
    return (first, int(str(shard_id)[:_LEADING]))


def sharded_key(key: K, shard_id: int, shards: int, levels: int = 1) -> K:
    """The key of the shard that holds `shard_id`: `key#<id % shards>` (`levels=2`: `…#<first two digits>`).

    `key` is bytes or str (the result is of the same type); `shard_id` a non-negative integer ID; `shards`
    the modulus (1000 in 000's example). Serves 000 §各种ID.

    >>> sharded_key("prize:winner", 123456, 1000)
    'prize:winner#456'
    >>> sharded_key("prize:winner", 123456, 1000, levels=2)
    'prize:winner#456#12'
    """
    return _join(key, shard_parts(shard_id, shards, levels))


def shard_keys(key: K, shards: int, levels: int = 1) -> list[K]:
    """Every key `sharded_key(key, id, shards, levels)` can return, for any ID, in order.

    One level: `shards` keys, `key#0` … `key#<shards-1>`. Two levels: for each remainder, the second parts
    an ID can have with it (10–99 always; 0–9 only for the one-digit ID itself), so 90 × shards + 10 keys
    (90,010 for 1000 shards: a fan-out of that size is the price of the second level). Serves 000 §各种ID,
    for the reads that must visit every shard.
    """
    whole_number("shards", shards)
    if _check_levels(levels) == 1:
        return [_join(key, (first,)) for first in range(shards)]
    return [
        _join(key, (first, second))
        for first in range(shards)
        for second in _SECOND_LEVEL
        if second >= 10 or second % shards == first
    ]
