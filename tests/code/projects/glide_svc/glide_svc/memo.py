"""Memos of expensive renders in memcached, and a per-process shard map (a dict with helpers)."""

from __future__ import annotations

import json
import os
from collections import UserDict
from typing import Any

from pymemcache.client.base import PooledClient

MEMO_TTL = 300

mc = PooledClient((os.environ.get("MEMCACHED_HOST", "localhost"), 11211), connect_timeout=1, timeout=1)


def remember(key: str, value: Any, ttl: int = MEMO_TTL) -> None:
    mc.set(key, json.dumps(value), expire=ttl)


def recall(key: str) -> Any:
    raw = mc.get(key)
    return None if raw is None else json.loads(raw)


def recall_many(keys: list[str]) -> dict[str, Any]:
    return {k: json.loads(v) for k, v in mc.get_many(keys).items()}


def forget_now(key: str) -> bool:
    return bool(mc.touch(key, 0))


def count(key: str) -> int:
    if mc.add(key, "0", expire=3600, noreply=False):
        return 1 + int(mc.incr(key, 1) or 0) - 1
    return int(mc.incr(key, 1) or 0)


def log_line(key: str, line: str) -> None:
    mc.append(key, line + "\n")


def forget_all(keys: list[str]) -> None:
    mc.delete_many(keys)


def wipe() -> None:
    mc.flush_all()


class ShardMap(UserDict[str, list[str]]):
    """Which shard owns which tenants, loaded at start-up; `zadd`-like helpers keep lists ordered."""

    def set(self, shard: str, tenants: list[str]) -> None:
        self.data[shard] = sorted(tenants)

    def zadd(self, shard: str, tenant: str) -> None:
        self.data.setdefault(shard, []).append(tenant)
        self.data[shard].sort()

    def smembers(self, shard: str) -> set[str]:
        return set(self.data.get(shard, []))

    def hgetall(self) -> dict[str, list[str]]:
        return dict(self.data)


shards = ShardMap()


def owner(tenant: str) -> str | None:
    for shard in sorted(shards.keys()):
        if tenant in shards.smembers(shard):
            return shard
    return None
