"""Recipes: the conventions as one function call each, for redis-py clients.

The written conventions say what to do (a TTL with random jitter, at most 100 keys per MGET, progressive
deletion of big keys, time-bucketed and modulo-sharded keys, copies of hot keys, compressed large values);
these functions do it, so that the conventional way is also the easy one. Each one's docstring names the
convention it serves (`000 §热门场景`), as the rules' pages do; docs/recipes.md shows them all with examples.

- `ttl_with_jitter`, `set_with_ttl`: a TTL spread over `[base, base * 1.1]`, and SET with one
  (000 §Key 名字如何设计 — 过期, 001 §2.3, 003 §方案1: 设置随机过期时间);
- `chunked_mget`, `chunked_mset`, `chunked_delete`: MGET, SET EX (or MSET) and UNLINK of any number of keys,
  at most 100 per command and round trip, grouped by slot on a cluster (000 §控制数量, 000 §数据删除);
- `progressive_delete`: a big hash, set, zset, list or stream removed a batch at a time, then UNLINK
  (001 §2.1 禁止使用bigkey, 000 §数据删除);
- `time_bucket_key`: `uid:task:202209`, one key per month, week, day or hour (000 §消息队列或任务记录);
- `sharded_key`, `shard_keys`: `uid#0#0` … `uid#999#99`, one key split by modulo (000 §各种ID);
- `HotKeyReplicas`: N copies of a hot key, read at random, falling back to the origin (000 §热门场景);
- `ValueCodec`: zlib, zstd or snappy compression of large values behind a header (002 §规范三, 000 §大文本).

The functions that talk to Redis take a sync client, `redis.Redis` or `redis.RedisCluster`; the same names
for `redis.asyncio` clients are coroutines in `rediscipline.recipes.aio`. They send every command through
the client's `execute_command` or a pipeline, so a client guarded by `rediscipline.guard` judges each one;
each recipe keeps to the conventions it serves (a TTL on every key it creates unless told `ttl=None`, at
most 100 keys per command and per round trip unless told otherwise, UNLINK, never KEYS or whole-collection
reads). Keys and values are bytes or str, as redis-py takes them; bytes are never decoded. The package
imports nothing from rediscipline but `redis_meta` (an import-linter contract), and no optional package at
import.
"""

from __future__ import annotations

from rediscipline.recipes.chunked import chunked_delete, chunked_mget, chunked_mset
from rediscipline.recipes.hot_keys import HotKeyReplicas
from rediscipline.recipes.progressive import ProgressiveDelete, progressive_delete
from rediscipline.recipes.sharding import shard_keys, sharded_key
from rediscipline.recipes.time_buckets import time_bucket_key
from rediscipline.recipes.ttl import set_with_ttl, ttl_with_jitter
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
    "set_with_ttl",
    "shard_keys",
    "sharded_key",
    "time_bucket_key",
    "ttl_with_jitter",
]
