"""A hot key kept in N copies: write all of them, read a random one, fall back to the origin when it is missing.

000 §热门场景 (热门直播间商品信息、热门赛事赛程信息): "同样的数据存多份备份，随机读一个，读不到再从 DB 回写",
for data read much more than written; "份数最好是集群分片数的一倍及以上": in a Redis Cluster, at least as many
copies as shards. A key read a hundred thousand times a second sends all those reads to the one shard that
holds it; N copies under different names hash to different slots, so the reads spread over the shards.

`HotKeyReplicas(client, key, copies=N, ttl=…)` names the copies `key#0` … `key#<N-1>` (the split-key form
000 §Key 名字如何设计 — 命名 and KEY014 split-key-form accept). `set(value)` writes the origin key and every
copy, each with its own jittered TTL, on pipelines of at most 50 commands (000 §控制数量: a pipeline batch best
within 50 keys). `get()` reads one copy picked at random; when that copy is missing (expired, evicted, not
written yet) it reads the origin key and writes its value back to that copy (`SET … NX EX`, so a concurrent
`set()` of a newer value wins). When the origin is missing too, `get()` returns None: load the value from
the database and `set()` it, which is 000's "从 DB 回写". `delete()` removes the origin and every copy
(UNLINK, grouped by slot on a cluster).

A key with a hashtag (`{…}`) is refused: every copy would hash to the tag's slot, all on one shard, which
defeats the copies (000 §Key 名字如何设计 — 命名: use hashtags only where needed, and mind the skew).

TTLs are spread by `ttl_with_jitter`, so the copies do not all expire in the same second and send every
reader to the origin at once. 001 §过期时间 advises no TTL on hot keys: `ttl=None` writes without one, as
an explicit choice.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from rediscipline.recipes.chunked import CHUNK, delete_plan
from rediscipline.recipes.steps import Batch, Client, Command, Key, Plan, run, slot_function, whole_number
from rediscipline.recipes.ttl import JITTER, ttl_with_jitter
from rediscipline.redis_meta.keyslot import hashtag_of

#: Most SET commands `set()` queues on one pipeline (000 §控制数量: best within 50).
WRITES_PER_PIPELINE = 50

_RANDOM = random.Random()


class ReplicaPlans:
    """The names, checks and plans the sync and the asyncio `HotKeyReplicas` share."""

    def __init__(
        self,
        key: Key,
        *,
        copies: int,
        ttl: float | timedelta | None,
        jitter: float = JITTER,
        rng: random.Random | None = None,
    ) -> None:
        name = key if isinstance(key, bytes) else key.encode("utf-8", "surrogateescape")
        if hashtag_of(name) is not None:
            raise ValueError(
                f"{key!r} has a hashtag: every copy would hash to its slot, on one shard; name the key without {{}}"
            )
        self.key = key
        self.copies = whole_number("copies", copies)
        self.ttl = ttl
        self.jitter = jitter
        self.rng = rng or _RANDOM
        if ttl is not None:
            ttl_with_jitter(ttl, jitter)  # a bad TTL or jitter is refused here, not at the first write

    @property
    def copy_keys(self) -> list[Key]:
        """`key#0` … `key#<copies-1>`."""
        key = self.key
        if isinstance(key, bytes):
            return [key + b"#%d" % index for index in range(self.copies)]
        return [f"{key}#{index}" for index in range(self.copies)]

    def _set_command(self, key: Key, value: Any, *options: str) -> Command:
        if self.ttl is None:
            return ("SET", key, value, *options)
        return ("SET", key, value, *options, "EX", ttl_with_jitter(self.ttl, self.jitter, rng=self.rng))

    def set_plan(self, value: Any) -> Plan[None]:
        commands = [self._set_command(key, value) for key in [self.key, *self.copy_keys]]
        for start in range(0, len(commands), WRITES_PER_PIPELINE):
            yield Batch(tuple(commands[start : start + WRITES_PER_PIPELINE]))

    def get_plan(self) -> Plan[Any]:
        copy = self.copy_keys[self.rng.randrange(self.copies)]
        value = (yield Batch((("GET", copy),)))[0]
        if value is not None:
            return value
        value = (yield Batch((("GET", self.key),)))[0]
        if value is not None:
            yield Batch((self._set_command(copy, value, "NX"),))
        return value

    def delete_plan(self, client: object) -> Plan[int]:
        return delete_plan([self.key, *self.copy_keys], CHUNK, slot_function(client), unlink=True)


class HotKeyReplicas(ReplicaPlans):
    """N copies of a hot key on a sync client (`redis.Redis` or `redis.RedisCluster`): see the module's doc.

    `copies` is how many copies (at least the number of shards on a cluster, 000 §热门场景); `ttl` the
    TTL of each write in seconds or a `timedelta` (None: none, explicitly), spread by `jitter`; `rng` the
    `random.Random` that picks the copy to read and draws the TTLs.

    Serves 000 §热门场景 and 000 §Key 名字如何设计 — 过期.
    """

    def __init__(
        self,
        client: Client,
        key: Key,
        *,
        copies: int,
        ttl: float | timedelta | None,
        jitter: float = JITTER,
        rng: random.Random | None = None,
    ) -> None:
        super().__init__(key, copies=copies, ttl=ttl, jitter=jitter, rng=rng)
        self.client = client

    def set(self, value: Any) -> None:
        """Write `value` to the origin key and every copy, each with its own jittered TTL."""
        run(self.client, self.set_plan(value))

    def get(self) -> Any:
        """A random copy's value; the origin's when that copy is missing (written back to the copy); None
        when both are missing."""
        return run(self.client, self.get_plan())

    def delete(self) -> int:
        """UNLINK the origin and every copy; returns how many of them existed."""
        return run(self.client, self.delete_plan(self.client))
