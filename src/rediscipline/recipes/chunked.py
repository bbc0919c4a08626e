"""MGET, MSET and UNLINK of any number of keys, at most `chunk` keys per command and per round trip.

000 §使用的命令请求遵守哪些规范？ — 控制数量 limits one request to 100 keys ("MGET 一次不能超过100 个 Key") and
the keys of one pipeline batch to 200, best 50; 000 §数据删除 prefers UNLINK to DEL. These recipes take a
list of keys of any length and never send a command, or a round trip, that carries more than `chunk` keys.

On a single server (`redis.Redis`) each round trip is one command of at most `chunk` keys, in the order of
the keys. On a Redis Cluster (`redis.RedisCluster`, `redis.asyncio.RedisCluster`) the keys of one MGET,
MSET or UNLINK must share a hash slot, so the keys are grouped by slot (the client's `keyslot`), each
slot's keys are cut into commands of at most `chunk` keys, and those commands are sent on pipelines that
carry at most `chunk` keys in all (redis-py sends each command to the node that serves its slot). The
cluster client's own `mget_nonatomic` and `mset_nonatomic` have no such bounds: one pipeline holds every
slot's command, and a slot's command holds all its keys.

Replies come back in the order of the keys, whatever the grouping. Nothing here is atomic across commands
(a reader may see some chunks written and not others), as with the cluster client's `*_nonatomic` methods.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from rediscipline.recipes.steps import Batch, Client, Key, Plan, run, slot_function, whole_number
from rediscipline.recipes.ttl import JITTER, ttl_with_jitter

#: Keys per command and per round trip by default (000 §控制数量: MGET at most 100 keys).
CHUNK = 100


def key_list(keys: Iterable[Key]) -> list[Key]:
    """The keys as a list; a lone bytes or str (which would be read as one key per character) is refused."""
    if isinstance(keys, bytes | str):
        raise TypeError("keys must be a collection of keys, not a single key: wrap it in a list")
    return list(keys)


def rounds(keys: Sequence[Key], chunk: int, slot_of: Callable[[Key], int] | None) -> list[list[list[int]]]:
    """The round trips that carry `keys`: each a list of commands, each command a list of key positions.

    Without `slot_of` (a single server): one command per round trip, `chunk` consecutive keys each. With it
    (a cluster): the positions grouped by slot in the order each slot first appears, each slot's cut into
    commands of at most `chunk`, and consecutive commands packed into round trips of at most `chunk` keys.
    """
    if slot_of is None:
        return [[list(range(start, min(start + chunk, len(keys))))] for start in range(0, len(keys), chunk)]
    by_slot: dict[int, list[int]] = {}
    for position, key in enumerate(keys):
        by_slot.setdefault(slot_of(key), []).append(position)
    packed: list[list[list[int]]] = []
    current: list[list[int]] = []
    carried = 0
    for positions in by_slot.values():
        for start in range(0, len(positions), chunk):
            piece = positions[start : start + chunk]
            if current and carried + len(piece) > chunk:
                packed.append(current)
                current, carried = [], 0
            current.append(piece)
            carried += len(piece)
    if current:
        packed.append(current)
    return packed


def mget_plan(keys: Sequence[Key], chunk: int, slot_of: Callable[[Key], int] | None) -> Plan[list[Any]]:
    values: list[Any] = [None] * len(keys)
    for trip in rounds(keys, chunk, slot_of):
        replies = yield Batch(tuple(("MGET", *(keys[p] for p in piece)) for piece in trip))
        for piece, reply in zip(trip, replies, strict=True):
            for position, value in zip(piece, reply, strict=True):
                values[position] = value
    return values


def mset_plan(
    items: Sequence[tuple[Key, Any]],
    chunk: int,
    slot_of: Callable[[Key], int] | None,
    *,
    ttl: float | timedelta | None,
    jitter: float,
    rng: random.Random | None,
) -> Plan[int]:
    if ttl is None:
        keys = [key for key, _value in items]
        for trip in rounds(keys, chunk, slot_of):
            yield Batch(tuple(("MSET", *(part for p in piece for part in items[p])) for piece in trip))
        return len(items)
    for start in range(0, len(items), chunk):
        commands = tuple(
            ("SET", key, value, "EX", ttl_with_jitter(ttl, jitter, rng=rng))
            for key, value in items[start : start + chunk]
        )
        yield Batch(commands)
    return len(items)


def delete_plan(keys: Sequence[Key], chunk: int, slot_of: Callable[[Key], int] | None, unlink: bool) -> Plan[int]:
    name = "UNLINK" if unlink else "DEL"
    removed = 0
    for trip in rounds(keys, chunk, slot_of):
        replies = yield Batch(tuple((name, *(keys[p] for p in piece)) for piece in trip))
        removed += sum(int(reply) for reply in replies)
    return removed


def chunked_mget(client: Client, keys: Iterable[Key], chunk: int = CHUNK) -> list[Any]:
    """The values of `keys`, in their order, as one MGET over all of them would return them (None for a
    missing key or one that is not a string), read at most `chunk` keys per command and per round trip.

    Works on a single server and on a Redis Cluster (keys grouped by hash slot; see the module's doc). A
    key may appear more than once; an empty list sends nothing.

    Serves 000 §使用的命令请求遵守哪些规范？ — 控制数量 (MGET at most 100 keys).
    """
    listed = key_list(keys)
    return run(client, mget_plan(listed, whole_number("chunk", chunk), slot_function(client)))


def chunked_mset(
    client: Client,
    mapping: Mapping[Key, Any],
    chunk: int = CHUNK,
    *,
    ttl: float | timedelta | None,
    jitter: float = JITTER,
    rng: random.Random | None = None,
) -> int:
    """Write every key of `mapping`, at most `chunk` keys per round trip; returns how many keys were written.

    `ttl` is required, so that leaving keys without one is a decision: with a TTL (seconds or a
    `timedelta`) each key is written by `SET key value EX t` with its own `t = ttl_with_jitter(ttl,
    jitter)` (MSET takes no TTL), on pipelines of at most `chunk` commands; with `ttl=None` the keys are
    written by MSET commands of at most `chunk` keys and keep no TTL (001 §过期时间 leaves hot keys and big
    collections without one). `rng` is passed to `ttl_with_jitter`.

    Works on a single server and on a Redis Cluster (MSET grouped by hash slot; see the module's doc).

    Serves 000 §使用的命令请求遵守哪些规范？ — 控制数量, 000 §Key 名字如何设计 — 过期 and 001 §2.3.
    """
    items = list(mapping.items())
    plan = mset_plan(items, whole_number("chunk", chunk), slot_function(client), ttl=ttl, jitter=jitter, rng=rng)
    return run(client, plan)


def chunked_delete(client: Client, keys: Iterable[Key], chunk: int = CHUNK, unlink: bool = True) -> int:
    """Delete `keys` with UNLINK (DEL when `unlink=False`), at most `chunk` keys per command and per round
    trip; returns how many keys existed and were deleted.

    UNLINK frees a big value in a background thread; DEL frees it on the server's only thread. A big
    collection is better taken apart first: `progressive_delete`.

    Works on a single server and on a Redis Cluster (keys grouped by hash slot; see the module's doc).

    Serves 000 §使用的命令请求遵守哪些规范？ — 控制数量 and 000 §使用的命令请求遵守哪些规范？ — 数据删除 (UNLINK).
    """
    listed = key_list(keys)
    return run(client, delete_plan(listed, whole_number("chunk", chunk), slot_function(client), unlink))
