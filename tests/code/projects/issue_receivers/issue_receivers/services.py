"""Repositories holding a client in an attribute, functions receiving one in an annotated parameter, pipelines."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Optional

import redis
from redis import Redis
from redis.cluster import RedisCluster

from issue_receivers.factories import make_client


def spread(seconds: int) -> int:
    return seconds + random.randint(0, seconds // 10)


class ProfileRepository:
    """Receives its client from the application at start-up."""

    def __init__(self, redis_client: redis.Redis) -> None:
        self.redis = redis_client

    def load(self, uid: int) -> dict[bytes, bytes]:
        return self.redis.hgetall(f"user:profile:{uid}")  # error: CMD005

    def load_name(self, uid: int) -> bytes | None:
        return self.redis.hget(f"user:profile:{uid}", "name")


class ProductCache:
    """Builds its own client from a URL."""

    def __init__(self, url: str) -> None:
        self.cache = redis.Redis.from_url(url)

    def put(self, sku: str, blob: bytes) -> None:
        self.cache.set(f"cache:product:{sku}", blob)  # error: TTL006

    def put_for_a_while(self, sku: str, blob: bytes) -> None:
        self.cache.set(f"cache:product:{sku}", blob, ex=spread(600))


class FollowerStore:
    """Gets its client from the module's factory."""

    def __init__(self) -> None:
        self.redis = make_client()

    def drop(self, uid: int) -> None:
        self.redis.delete(f"user:follower:{uid}")  # error: CMD008


def count_followers(r: redis.Redis, uid: int) -> int:
    return len(r.smembers(f"user:follower:{uid}"))  # error: CMD005


def count_followers_cheaply(r: redis.Redis, uid: int) -> int:
    return r.scard(f"user:follower:{uid}")


def all_orders(client: Redis) -> list[bytes]:
    return client.keys("order:*")  # error: CMD001


def maybe_flush(client: Optional[redis.Redis]) -> None:  # noqa: UP045 (kept from the Python 3.8 days)
    if client is not None:
        client.flushdb()  # error: CMD002


def cluster_followers(rc: RedisCluster, uid: int, other: int) -> set[bytes]:
    return rc.sunion(f"user:follower:{uid}", f"user:follower:{other}")  # error: CMD005


# ---- pipelines: client.pipeline(transaction=...), `with ... as pipe` ---------------------------------------


def record_views(r: redis.Redis, product_ids: Iterable[str]) -> None:
    pipe = r.pipeline(transaction=False)
    for product_id in product_ids:
        pipe.set(f"product:last_view:{product_id}", "1")  # error: TTL006
    pipe.execute()


def place_order(r: redis.Redis, order_id: str, fields: dict[str, str]) -> None:
    with r.pipeline(transaction=True) as pipe:  # error: CMD007
        pipe.hset(f"order:detail:{order_id}", mapping=fields)
        pipe.expire(f"order:detail:{order_id}", spread(86_400))
        pipe.execute()


def enqueue(r: redis.Redis, order_id: str) -> None:
    with r.pipeline() as pipe:
        pipe.lpush("queue:orders", order_id)  # error: TTL006
        pipe.execute()


def enqueue_and_cap(r: redis.Redis, order_id: str) -> None:
    with r.pipeline(transaction=False) as pipe:
        pipe.lpush("queue:orders", order_id)
        pipe.ltrim("queue:orders", 0, 9999)
        pipe.expire("queue:orders", spread(86_400))
        pipe.execute()
