"""The recipes for `redis.asyncio` clients: the same names, as coroutines, in their own module.

`from rediscipline.recipes import aio` gives `aio.chunked_mget`, `aio.chunked_mset`, `aio.chunked_delete`,
`aio.set_with_ttl`, `aio.progressive_delete` (all `async def`) and `aio.HotKeyReplicas` (whose `set`, `get`
and `delete` are coroutines), for `redis.asyncio.Redis` and `redis.asyncio.RedisCluster`. Their arguments,
results and documentation are those of the sync recipes of the same name in `rediscipline.recipes`: both run
one plan per recipe (`rediscipline.recipes.steps`), so they send the same commands in the same round trips.
The recipes that make no call (`ttl_with_jitter`, `time_bucket_key`, `sharded_key`, `shard_keys`,
`ValueCodec`) are the sync ones, and are importable from here too.

    from redis.asyncio import Redis
    from rediscipline.recipes import aio

    client = Redis()
    values = await aio.chunked_mget(client, [b"user:profile:1", b"user:profile:2"])
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import Any, TypeAlias, TypeVar

import redis.asyncio
from redis.exceptions import ResponseError

from rediscipline.recipes.chunked import CHUNK, delete_plan, key_list, mget_plan, mset_plan
from rediscipline.recipes.hot_keys import ReplicaPlans
from rediscipline.recipes.progressive import BATCH, ProgressiveDelete, progressive_delete_plan
from rediscipline.recipes.sharding import shard_keys, sharded_key
from rediscipline.recipes.steps import Batch, Key, Plan, slot_function, whole_number
from rediscipline.recipes.time_buckets import time_bucket_key
from rediscipline.recipes.ttl import JITTER, set_plan, ttl_with_jitter
from rediscipline.recipes.value_codec import CodecUnavailable, ValueCodec, available_algorithms

__all__ = [
    "CodecUnavailable",
    "HotKeyReplicas",
    "ProgressiveDelete",
    "ValueCodec",
    "available_algorithms",
    "chunked_delete",
    "chunked_mget",
    "chunked_mset",
    "progressive_delete",
    "run_async",
    "set_with_ttl",
    "shard_keys",
    "sharded_key",
    "time_bucket_key",
    "ttl_with_jitter",
]

T = TypeVar("T")

#: An asyncio redis-py client: a single server or a Redis Cluster.
AsyncClient: TypeAlias = "redis.asyncio.Redis | redis.asyncio.RedisCluster"


async def run_async(client: AsyncClient, plan: Plan[T]) -> T:
    """Drive `plan` with an asyncio client, as `rediscipline.recipes.steps.run` does with a sync one."""
    try:
        batch = next(plan)
        while True:
            try:
                replies = await _send(client, batch)
            except ResponseError as error:
                batch = plan.throw(error)
            else:
                batch = plan.send(replies)
    except StopIteration as done:
        result: T = done.value
        return result


async def _send(client: AsyncClient, batch: Batch) -> list[Any]:
    if len(batch.commands) == 1:
        return [await client.execute_command(*batch.commands[0])]
    pipe = client.pipeline(transaction=False)
    for command in batch.commands:
        pipe.execute_command(*command)
    replies: list[Any] = await pipe.execute()
    return replies


async def set_with_ttl(
    client: AsyncClient, key: Key, value: Any, ttl: float | timedelta, jitter: float = JITTER
) -> bool:
    """`rediscipline.recipes.set_with_ttl` for an asyncio client."""
    return await run_async(client, set_plan(key, value, ttl, jitter))


async def chunked_mget(client: AsyncClient, keys: Iterable[Key], chunk: int = CHUNK) -> list[Any]:
    """`rediscipline.recipes.chunked_mget` for an asyncio client."""
    listed = key_list(keys)
    return await run_async(client, mget_plan(listed, whole_number("chunk", chunk), slot_function(client)))


async def chunked_mset(
    client: AsyncClient,
    mapping: Mapping[Key, Any],
    chunk: int = CHUNK,
    *,
    ttl: float | timedelta | None,
    jitter: float = JITTER,
    rng: random.Random | None = None,
) -> int:
    """`rediscipline.recipes.chunked_mset` for an asyncio client."""
    items = list(mapping.items())
    plan = mset_plan(items, whole_number("chunk", chunk), slot_function(client), ttl=ttl, jitter=jitter, rng=rng)
    return await run_async(client, plan)


async def chunked_delete(client: AsyncClient, keys: Iterable[Key], chunk: int = CHUNK, unlink: bool = True) -> int:
    """`rediscipline.recipes.chunked_delete` for an asyncio client."""
    listed = key_list(keys)
    return await run_async(client, delete_plan(listed, whole_number("chunk", chunk), slot_function(client), unlink))


async def progressive_delete(client: AsyncClient, key: Key, batch: int = BATCH) -> ProgressiveDelete:
    """`rediscipline.recipes.progressive_delete` for an asyncio client."""
    return await run_async(client, progressive_delete_plan(key, whole_number("batch", batch)))


class HotKeyReplicas(ReplicaPlans):
    """`rediscipline.recipes.HotKeyReplicas` for an asyncio client: `set`, `get` and `delete` are coroutines."""

    def __init__(
        self,
        client: AsyncClient,
        key: Key,
        *,
        copies: int,
        ttl: float | timedelta | None,
        jitter: float = JITTER,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(key, copies=copies, ttl=ttl, jitter=jitter, rng=rng)
        self.client = client

    async def set(self, value: Any) -> None:
        """Write `value` to the origin key and every copy, each with its own jittered TTL."""
        await run_async(self.client, self.set_plan(value))

    async def get(self) -> Any:
        """A random copy's value; the origin's when that copy is missing (written back); None when both are."""
        return await run_async(self.client, self.get_plan())

    async def delete(self) -> int:
        """UNLINK the origin and every copy; returns how many of them existed."""
        return await run_async(self.client, self.delete_plan(self.client))
