"""Reads of whole collections, deletes of collections, scans, blocking queue reads and subscriptions."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import redis
import redis.asyncio as aioredis

from issue_list.connection import async_client, redis_client

ROOM_PATTERNS = [f"chat:room:{n}:*" for n in range(64)]


# ---- full-collection reads (hgetall, smembers, lrange 0 -1, zrange 0 -1, hkeys, hvals, sinter/sunion) -------


def load_profile(uid: int) -> dict[bytes, bytes]:
    return redis_client.hgetall(f"user:profile:{uid}")  # error: CMD005


def load_profile_fields(uid: int) -> list[bytes | None]:
    return redis_client.hmget(f"user:profile:{uid}", ["name", "avatar", "bio"])


def whole_feed(uid: int) -> list[bytes]:
    return redis_client.lrange(f"user:feed:{uid}", 0, -1)  # error: CMD005


def latest_feed(uid: int) -> list[bytes]:
    return redis_client.lrange(f"user:feed:{uid}", 0, 49)


def full_ranking(season: str) -> list[tuple[bytes, float]]:
    return redis_client.zrange(name=f"leaderboard:season:{season}", start=0, end=-1, withscores=True)  # error: CMD005


def top_ten(season: str) -> list[tuple[bytes, float]]:
    return redis_client.zrange(f"leaderboard:season:{season}", 0, 9, desc=True, withscores=True)


class FollowerService:
    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client

    async def followers(self, uid: int) -> set[bytes]:
        return await self.redis.smembers(f"user:follower:{uid}")  # error: CMD005

    async def is_following(self, uid: int, other: int) -> bool:
        return bool(await self.redis.sismember(f"user:follower:{uid}", other))

    async def common_followers(self, uid: int, other: int) -> set[bytes]:
        return await self.redis.sinter([f"user:follower:{uid}", f"user:follower:{other}"])  # error: CMD005

    async def reach(self, uid: int, other: int) -> set[bytes]:
        return await self.redis.sunion(f"user:follower:{uid}", f"user:follower:{other}")  # error: CMD005


def profile_field_names(uid: int) -> list[bytes]:
    pipe = redis_client.pipeline(transaction=False)
    pipe.hkeys(f"user:profile:{uid}")  # error: CMD005
    pipe.hvals(f"user:profile:{uid}")  # error: CMD005
    names, _values = pipe.execute()
    return names


def followers_paged(uid: int) -> Iterator[bytes]:
    yield from redis_client.sscan_iter(f"user:follower:{uid}", count=200)


# ---- `delete` on a namespace declared as a collection ----------------------------------------------------


def forget_followers(uid: int) -> None:
    redis_client.delete(f"user:follower:{uid}")  # error: CMD008


def close_season(season: str) -> None:
    with redis_client.pipeline(transaction=False) as pipe:
        pipe.delete(f"leaderboard:season:{season}")  # error: CMD008
        pipe.execute()


async def clear_feed(uid: int) -> None:
    await async_client.delete(f"user:feed:{uid}")  # error: CMD008


def forget_followers_lazily(uid: int) -> None:
    redis_client.unlink(f"user:follower:{uid}")


def drop_cached_user(uid: int) -> None:
    redis_client.delete(f"cache:user:{uid}")


# ---- scan_iter without count -----------------------------------------------------------------------------


def expired_exports() -> list[bytes]:
    return list(redis_client.scan_iter(match="tmp:export:*"))  # error: CMD010


def uploads() -> Iterator[bytes]:
    yield from redis_client.scan_iter("tmp:upload:*")  # error: CMD010


async def cached_pages() -> list[bytes]:
    return [key async for key in async_client.scan_iter(match="cache:page:*")]  # error: CMD010


def expired_exports_paced() -> list[bytes]:
    return list(redis_client.scan_iter(match="tmp:export:*", count=500))


# ---- blpop/brpop with timeout=0 --------------------------------------------------------------------------


def next_email_job() -> tuple[bytes, bytes] | None:
    return redis_client.blpop(["queue:email"], timeout=0)  # error: PUB001


def next_sms_job() -> tuple[bytes, bytes] | None:
    return redis_client.brpop("queue:sms")  # error: PUB001


async def next_push_job() -> tuple[bytes, bytes] | None:
    return await async_client.brpop(["queue:push"], 0)  # error: PUB001


def next_sms_job_polling() -> tuple[bytes, bytes] | None:
    return redis_client.brpop("queue:sms", timeout=5)


# ---- subscriptions to more than 50 channels -----------------------------------------------------------------


def listen_to_all_rooms(handler: Callable[[dict[str, object]], None]) -> None:
    pubsub = redis_client.pubsub()
    pubsub.subscribe(*[f"chat:room:{n}" for n in range(80)])  # error: PUB002
    for message in pubsub.listen():
        handler(message)


def listen_to_room_patterns(client: redis.Redis) -> redis.client.PubSub:
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    pubsub.psubscribe(*ROOM_PATTERNS)  # error: PUB002
    return pubsub


async def listen_to_all_rooms_async() -> aioredis.client.PubSub:
    pubsub = async_client.pubsub()
    await pubsub.subscribe(*(f"chat:room:{n}" for n in range(200)))  # error: PUB002
    return pubsub


def listen_to_lobby() -> redis.client.PubSub:
    pubsub = redis_client.pubsub()
    pubsub.subscribe("chat:room:lobby", "chat:room:support")
    return pubsub
