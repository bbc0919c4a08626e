"""Module-level clients and the factories that build them: constructors, URLs, clusters, aliases."""

from __future__ import annotations

import functools
import os

import redis
from redis import Redis, StrictRedis
from redis.cluster import RedisCluster

HOST = os.environ.get("REDIS_HOST", "localhost")

primary = redis.Redis(host=HOST, port=6379, db=0)
cache = Redis.from_url(f"redis://{HOST}:6379/0")
legacy = StrictRedis(host=HOST, port=6380)
legacy_from_module = redis.StrictRedis(host=HOST, port=6381)
cluster = RedisCluster(host=HOST, port=7000)
cluster_from_url = RedisCluster.from_url(f"redis://{HOST}:7000")
pooled = redis.Redis(connection_pool=redis.ConnectionPool(host=HOST, port=6379))
sessions = redis.from_url(os.environ.get("SESSION_REDIS_URL", "redis://localhost:6379/0"))


def make_client() -> redis.Redis:
    return redis.Redis(host=HOST, port=6379, decode_responses=False)


def make_cluster_client():
    return redis.RedisCluster(host=HOST, port=7000)


@functools.lru_cache(maxsize=1)
def shared_client() -> Redis:
    return Redis.from_url(f"redis://{HOST}:6379/0")


def flush_primary() -> None:
    primary.flushall()  # error: CMD002


def session_keys() -> list[bytes]:
    return cache.keys("session:*")  # error: CMD001


def legacy_profile(uid: int) -> dict[bytes, bytes]:
    return legacy.hgetall(f"user:profile:{uid}")  # error: CMD005


def legacy_followers(uid: int) -> set[bytes]:
    return legacy_from_module.smembers(f"user:follower:{uid}")  # error: CMD005


def cluster_ranking(season: str) -> list[bytes]:
    return cluster.zrange(f"leaderboard:season:{season}", 0, -1)  # error: CMD005


def cluster_tail() -> object:
    return cluster_from_url.monitor()  # error: CMD003


def pooled_encoding(key: str) -> object:
    return pooled.debug_object(key)  # error: CMD004


def store_session(session_id: str, payload: bytes) -> None:
    sessions.set(f"session:web:{session_id}", payload)  # error: TTL006


def factory_keys() -> list[bytes]:
    return make_client().keys()  # error: CMD001


def factory_flush() -> None:
    client = make_cluster_client()
    client.flushdb()  # error: CMD002


def cached_factory_hvals(uid: int) -> list[bytes]:
    return shared_client().hvals(f"user:profile:{uid}")  # error: CMD005


def alias_write(sku: str, blob: bytes) -> None:
    store = primary
    store.set(f"cache:product:{sku}", blob)  # error: TTL006


def alias_write_with_ttl(sku: str, blob: bytes) -> None:
    store = primary
    store.set(f"cache:product:{sku}", blob, ex=600)
