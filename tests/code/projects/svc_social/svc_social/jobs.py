"""Background jobs and realtime plumbing: the websocket relay, rate limits, maintenance."""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable
from datetime import date, timedelta
from typing import Any

from redis.asyncio import Redis

from svc_social import keys
from svc_social.timeline import HOME_FEED_TTL, TIMELINE_TTL

POSTS_PER_MINUTE = 10
POST_RATE_LUA = """
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return current <= tonumber(ARGV[1]) and 1 or 0
"""
NOTIFY_SHARDS = 64
INBOX_TTL = 30 * 24 * 3600


async def relay_notifications(r: Redis, send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
    """The websocket gateway: one connection listens to every notification shard."""
    pubsub = r.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(*[f"notify:shard:{shard}" for shard in range(64)])  # error: PUB002
    async for message in pubsub.listen():
        event = json.loads(message["data"])
        await send(event)


async def relay_user(r: Redis, user_id: int, send: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
    """Per-connection relay for clients on the old protocol: one channel each."""
    pubsub = r.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(keys.notify_channel(user_id))
    async for message in pubsub.listen():
        await send(json.loads(message["data"]))


async def allow_post(r: Redis, user_id: int) -> bool:
    """At most ten posts a minute per user."""
    allowed = await r.eval(POST_RATE_LUA, 1, keys.post_rate(user_id), POSTS_PER_MINUTE, 60)  # error: CMD009
    return bool(allowed)


async def mark_active(r: Redis, user_id: int, day: str) -> None:
    """Daily-active bitmap for the growth dashboard."""
    await r.setbit(f"active:users:date:{day}", user_id, 1)  # error: TTL006, KEY018


async def tag_history(r: Redis, tag: str, today: date) -> list[int]:
    """Sparkline on the tag page: unique visitors for each of the last 180 days."""
    counts: list[int] = []
    for back in range(180):
        day = (today - timedelta(days=back)).strftime("%Y%m%d")
        counts.append(int(await r.pfcount(keys.tag_visitors(tag, day))))  # error: BAT002
    return counts


async def reindex_home_feeds(r: Redis) -> int:
    """After the ranking incident: count the feeds that need a rebuild."""
    feed_keys = await r.keys("feed:home:*")  # error: CMD001
    return len(feed_keys)


async def extend_stale_timelines(r: Redis) -> int:
    """Timelines written before TTLs were introduced get one now, spread over a day."""
    found: list[bytes] = []
    async for key in r.scan_iter(match="feed:timeline:*"):  # error: CMD010
        found.append(key)
    for start in range(0, len(found), 100):
        async with r.pipeline(transaction=False) as pipe:
            for key in found[start : start + 100]:
                pipe.expire(key, TIMELINE_TTL + random.randint(0, 24 * 3600), nx=True)
            await pipe.execute()
    return len(found)


async def extend_home_feeds(r: Redis) -> int:
    """Same clean-up for home feeds, paged properly this time."""
    touched = 0
    batch: list[bytes] = []
    async for key in r.scan_iter(match="feed:home:*", count=500):
        batch.append(key)
        if len(batch) == 100:
            touched += await _expire_batch(r, batch)
            batch = []
    return touched + await _expire_batch(r, batch)


async def _expire_batch(r: Redis, batch: list[bytes]) -> int:
    async with r.pipeline(transaction=False) as pipe:
        for key in batch:
            pipe.expire(key, HOME_FEED_TTL + random.randint(0, 24 * 3600), nx=True)
        await pipe.execute()
    return len(batch)


async def refresh_inboxes(r: Redis, user_ids: list[int]) -> None:
    """Users who opened the app today keep their inbox for another month."""
    async with r.pipeline(transaction=False) as pipe:
        for user_id in user_ids:
            pipe.expire(keys.inbox(user_id), INBOX_TTL)  # error: TTL007
        await pipe.execute()


async def reset_fanout_shards(r: Redis) -> None:
    """Fan-out bookkeeping is rebuilt from scratch after a failover."""
    await r.delete(*[f"feed:fanout:shard:{shard}" for shard in range(256)])  # error: BAT001


async def wipe_load_test_data(r: Redis) -> None:
    """Staging only, between load-test runs."""
    await r.flushall()  # error: CMD002
