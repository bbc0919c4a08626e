"""Every recipe keeps the conventions it serves: run under the runtime guard in its strictest form (`raise`
on any finding, notes included), against a real server, sync and asyncio, each recipe's work completes and
the guard's report is empty."""

from __future__ import annotations

import asyncio
import os

import redis
import redis.asyncio as aredis

from rediscipline.guard import Collector, guard, new_collector, report_of
from rediscipline.recipes import (
    HotKeyReplicas,
    aio,
    chunked_delete,
    chunked_mget,
    chunked_mset,
    progressive_delete,
    set_with_ttl,
    shard_keys,
    sharded_key,
    time_bucket_key,
)
from tests.recipes.oracle import Raw
from tests.support.servers import ServerProcess


def strict() -> Collector:
    return new_collector("raise", isolated=True, fail_on="note")


def fill_big_collections(raw: Raw) -> None:
    """A big hash, set, zset and list, written without redis-py (the guard must not see the set-up)."""
    for start in range(0, 6000, 500):
        raw.call(b"HSET", b"report:daily:h", *[x for i in range(start, start + 500) for x in (b"f%d" % i, b"v")])
        raw.call(b"SADD", b"report:daily:s", *[b"m%d" % i for i in range(start, start + 500)])
        raw.call(b"ZADD", b"report:daily:z", *[x for i in range(start, start + 500) for x in (b"%d" % i, b"m%d" % i)])
        raw.call(b"RPUSH", b"report:daily:l", *[b"e%d" % i for i in range(start, start + 500)])


def test_every_recipe_passes_the_guard_in_strict_mode(client: redis.Redis, raw: Raw) -> None:
    owner = strict()
    guard(client, collector=owner)
    keys = [f"user:profile:{i}" for i in range(350)]
    assert chunked_mset(client, dict.fromkeys(keys, b"v"), ttl=600) == 350
    assert chunked_mget(client, [*keys, "user:profile:missing"]) == [b"v"] * 350 + [None]
    assert chunked_delete(client, keys[:300]) == 300
    set_with_ttl(client, time_bucket_key("task:user:10086"), b"job", ttl=3600)
    for key in shard_keys(sharded_key("uid", 7, 1000, levels=2), 4):
        set_with_ttl(client, key, b"part", ttl=600)
    hot = HotKeyReplicas(client, "rank:hot:top10", copies=8, ttl=300)
    hot.set(b"payload")
    assert hot.get() == b"payload"
    hot.delete()
    fill_big_collections(raw)
    for suffix in (b"h", b"s", b"z", b"l"):
        progressive_delete(client, b"report:daily:" + suffix, batch=100)
    assert raw.call(b"EXISTS", b"report:daily:h", b"report:daily:s", b"report:daily:z", b"report:daily:l") == 0
    assert owner.commands > 350 + 240 * 2  # the SETs and the batches: all judged
    assert report_of(owner).findings == ()


def test_every_async_recipe_passes_the_guard_in_strict_mode(server: ServerProcess, raw: Raw) -> None:
    owner = strict()

    async def work() -> None:
        client = guard(aredis.Redis(host=server.host, port=server.port), collector=owner)
        try:
            keys = [f"user:profile:{i}" for i in range(250)]
            await aio.chunked_mset(client, dict.fromkeys(keys, b"v"), ttl=600)
            assert await aio.chunked_mget(client, keys) == [b"v"] * 250
            await aio.chunked_delete(client, keys)
            hot = aio.HotKeyReplicas(client, "rank:hot:top10", copies=8, ttl=300)
            await hot.set(os.urandom(64))
            await hot.get()
            fill_big_collections(raw)
            await aio.progressive_delete(client, b"report:daily:h", batch=100)
        finally:
            await client.aclose()

    asyncio.run(work())
    assert report_of(owner).findings == ()
