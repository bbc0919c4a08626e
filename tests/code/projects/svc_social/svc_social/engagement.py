"""Likes, views, trending tags and notifications."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from redis.asyncio import Redis

from svc_social import keys
from svc_social.clients import counters_client

LIKERS_TTL = 14 * 24 * 3600
STATS_TTL = 14 * 24 * 3600
TRENDING_TTL = 3 * 24 * 3600
INBOX_MAX = 200
INBOX_TTL = 30 * 24 * 3600
PUSH_WAIT_SECONDS = 5


# ---- likes -------------------------------------------------------------------------------------


async def like(r: Redis, post_id: int, user_id: int) -> bool:
    """A like and the counter move together, or not at all."""
    likers, stats = keys.post_likers(post_id), keys.post_stats(post_id)
    async with r.pipeline(transaction=True) as pipe:  # error: CMD007
        pipe.sadd(likers, user_id)
        pipe.expire(likers, LIKERS_TTL)
        pipe.hincrby(stats, "likes", 1)
        pipe.expire(stats, STATS_TTL)
        added, _, _, _ = await pipe.execute()
    return bool(added)


async def liked_by(r: Redis, post_id: int, friend_ids: list[int]) -> list[int]:
    """Which of your friends liked this post (never the whole liker set)."""
    flags = await r.smismember(keys.post_likers(post_id), friend_ids)
    return [friend for friend, liked in zip(friend_ids, flags, strict=True) if liked]


async def stats(r: Redis, post_id: int) -> dict[str, int]:
    fields = ("likes", "shares", "comments")
    values = await r.hmget(keys.post_stats(post_id), fields)
    return {name: int(value or 0) for name, value in zip(fields, values, strict=True)}


async def bump_legacy_like_counter(r: Redis, post_id: int) -> int:
    """The v1 mobile app still reads a plain counter."""
    return int(await r.incr(keys.post_like_count(post_id)))  # error: TTL006


async def legacy_likers(r: Redis, post_id: int) -> set[bytes]:
    """Liker sets written by the 2019 PHP backend."""
    return await r.smembers(f"post:likedBy:{post_id}")  # error: CMD005, KEY007


async def count_share(post_id: int) -> int:
    """Share counters are sharded onto the counters database."""
    return int(await counters_client.hincrby(keys.post_stats(post_id), "shares", 1))  # error: TTL006


# ---- views and trending ------------------------------------------------------------------------


async def record_view(r: Redis, user_id: int, tag: str, day: str) -> None:
    """Unique visitors per tag per day: a HyperLogLog stays at 12 KB whatever the traffic."""
    visitors, ranking = keys.tag_visitors(tag, day), keys.trending_tags(day)
    async with r.pipeline(transaction=False) as pipe:
        pipe.pfadd(visitors, user_id)
        pipe.expire(visitors, TRENDING_TTL)
        pipe.zincrby(ranking, 1, tag)
        pipe.expire(ranking, TRENDING_TTL)
        await pipe.execute()


async def record_post_viewer(r: Redis, post_id: int, user_id: int) -> None:
    await r.pfadd(f"post:viewers:{post_id}", user_id)  # error: TTL006


async def trending(r: Redis, day: str, limit: int = 20) -> list[tuple[bytes, float]]:
    return await r.zrevrange(keys.trending_tags(day), 0, limit - 1, withscores=True)


async def weekly_visitors(r: Redis, tag: str, days: list[str]) -> int:
    return int(await r.pfcount(*[keys.tag_visitors(tag, day) for day in days[:7]]))


async def hot_topics_board(r: Redis, day: str) -> list[bytes]:
    """The Chinese app's hot-topic board has its own ranking."""
    return await r.zrevrange(f"trending:话题:date:{day}", 0, 9)  # error: KEY002


# ---- notifications -----------------------------------------------------------------------------


async def notify(r: Redis, user_id: int, event: dict[str, Any]) -> None:
    """Store in the inbox (capped, expiring) and tell the gateway if the user is online."""
    payload = json.dumps(event)
    inbox = keys.inbox(user_id)
    async with r.pipeline(transaction=False) as pipe:
        pipe.lpush(inbox, payload)
        pipe.ltrim(inbox, 0, INBOX_MAX - 1)
        pipe.expire(inbox, INBOX_TTL)
        pipe.publish(keys.notify_channel(user_id), payload)
        await pipe.execute()


async def record_mention(r: Redis, handle: str, post_id: int) -> None:
    """Mentions are indexed by handle so they survive a user-id migration."""
    key = f"notify:mention:@{handle}"
    async with r.pipeline(transaction=False) as pipe:
        pipe.lpush(key, post_id)  # error: KEY004
        pipe.ltrim(key, 0, INBOX_MAX - 1)  # error: KEY004
        pipe.expire(key, INBOX_TTL)  # error: KEY004
        await pipe.execute()


async def inbox_page(r: Redis, user_id: int, page: int = 0) -> list[dict[str, Any]]:
    start = page * 20
    raw = await r.lrange(keys.inbox(user_id), start, start + 19)
    return [json.loads(item) for item in raw]


async def touch_presence(r: Redis, user_id: int) -> None:
    await r.set(f"notify:last_seen:{user_id}", int(time.time()))  # error: TTL006


async def enqueue_push(r: Redis, user_id: int, title: str) -> None:
    await r.lpush(keys.PUSH_QUEUE, json.dumps({"user_id": user_id, "title": title}))


async def push_worker(r: Redis, deliver: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
    """APNs/FCM delivery; one worker per pod."""
    while True:
        item = await r.brpop(keys.PUSH_QUEUE, timeout=0)  # error: PUB001
        _queue, payload = item
        await deliver(json.loads(payload))


async def push_worker_graceful(
    r: Redis, deliver: Callable[[dict[str, Any]], Awaitable[None]], stopping: Callable[[], bool]
) -> None:
    """The replacement being rolled out: wakes up every few seconds to check for shutdown."""
    while not stopping():
        item = await r.brpop([keys.PUSH_QUEUE], timeout=PUSH_WAIT_SECONDS)
        if item is not None:
            await deliver(json.loads(item[1]))


async def digest_worker(r: Redis, send_digest: Callable[[bytes], Awaitable[None]]) -> None:
    """Daily e-mail digests; `timeout=None` was meant as "no timeout" and blocks forever."""
    while True:
        item = await r.blpop([keys.DIGEST_QUEUE], timeout=None)  # error: PUB001
        if item:
            await send_digest(item[1])
