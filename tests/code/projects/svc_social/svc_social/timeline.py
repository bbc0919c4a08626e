"""Fan-out on write: a new post goes to the author's timeline and to every follower's home feed.

Home feeds are zsets capped at HOME_FEED_MAX entries and expire a week after the user's
last activity (inactive users get their feed rebuilt from the graph on their next visit).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import AsyncIterator

from redis.asyncio import Redis
from starlette.requests import Request

from svc_social import keys

HOME_FEED_MAX = 800
HOME_FEED_TTL = 7 * 24 * 3600
TIMELINE_TTL = 30 * 24 * 3600
RANKED_TTL = 15 * 60
PAGE = 20
FANOUT_CHUNK = 60  # three commands per follower: 180 per pipeline
FEED_PREFIX = "feed:"


async def _follower_chunks(r: Redis, author_id: int) -> AsyncIterator[list[bytes]]:
    cursor = 0
    while True:
        cursor, members = await r.sscan(keys.followers(author_id), cursor=cursor, count=FANOUT_CHUNK)
        if members:
            yield list(members)
        if cursor == 0:
            return


async def publish_post(r: Redis, author_id: int, post_id: int) -> int:
    """Append to the author's timeline, then fan out to followers, one bounded pipeline per page."""
    now = time.time()
    timeline = keys.profile_timeline(author_id)
    async with r.pipeline(transaction=False) as pipe:
        pipe.lpush(timeline, post_id)
        pipe.ltrim(timeline, 0, HOME_FEED_MAX - 1)
        pipe.expire(timeline, TIMELINE_TTL)
        await pipe.execute()
    delivered = 0
    async for chunk in _follower_chunks(r, author_id):
        async with r.pipeline(transaction=False) as pipe:
            for follower_id in chunk:
                feed = keys.home_feed(int(follower_id))
                pipe.zadd(feed, {post_id: now})
                pipe.zremrangebyrank(feed, 0, -HOME_FEED_MAX - 1)
                pipe.expire(feed, HOME_FEED_TTL + random.randint(0, 6 * 3600))
            await pipe.execute()
        delivered += len(chunk)
    return delivered


async def home_page(r: Redis, user_id: int, page: int = 0) -> list[bytes]:
    start = page * PAGE
    return await r.zrevrange(keys.home_feed(user_id), start, start + PAGE - 1)


async def export_home_feed(r: Redis, user_id: int) -> list[tuple[bytes, float]]:
    """GDPR export: everything currently in the user's feed."""
    return await r.zrevrange(keys.home_feed(user_id), 0, -1, withscores=True)  # error: CMD005


async def profile_page(r: Redis, user_id: int, page: int = 0) -> list[bytes]:
    start = page * PAGE
    return await r.lrange(keys.profile_timeline(user_id), start, start + PAGE - 1)


async def profile_posts(r: Redis, user_id: int) -> list[bytes]:
    """Used by the "download your posts" job."""
    return await r.lrange(keys.profile_timeline(user_id), 0, -1)  # error: CMD005


async def feed_size(r: Redis, user_id: int) -> int:
    return int(await r.zcard(f"{FEED_PREFIX}:home:{user_id}"))  # error: KEY009


async def remember_cursor(r: Redis, user_id: int, cursor: str) -> None:
    """Infinite scroll: where the client stopped, kept for an hour."""
    await r.set(keys.feed_cursor(user_id), cursor)  # error: TTL008
    await r.expire(keys.feed_cursor(user_id), 3600)


async def cursor_of(r: Redis, user_id: int) -> str | None:
    raw = await r.get(keys.feed_cursor(user_id))
    return raw.decode() if raw else None


async def store_ranked_feed(r: Redis, user_id: int, post_ids: list[int]) -> None:
    """Ranking experiment: the model's ordering, cached for a quarter of an hour."""
    await r.set(f"feed:ranked:V2:{user_id}", json.dumps(post_ids), ex=RANKED_TTL)  # error: KEY006


async def seed_starter_feed(r: Redis, user_id: int) -> None:
    """New accounts get the 300 most popular evergreen posts so their feed is not empty."""
    feed = keys.home_feed(user_id)
    async with r.pipeline(transaction=False) as pipe:
        for rank in range(300):
            pipe.zadd(feed, {f"evergreen_{rank}": 300 - rank})
        pipe.expire(feed, HOME_FEED_TTL)
        await pipe.execute()  # error: BAT003


async def feed_debug_route(request: Request, user_id: int) -> dict[str, object]:
    """GET /internal/feeds/{user_id}: what support sees when a user says their feed is wrong."""
    entries = await request.app.state.redis.zrevrange(keys.home_feed(user_id), 0, -1, withscores=True)  # error: CMD005
    return {"user_id": user_id, "size": len(entries), "entries": [(m.decode(), s) for m, s in entries]}
