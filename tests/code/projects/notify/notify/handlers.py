"""HTTP API: aiohttp routes for the web app, tornado handlers kept for the old mobile gateway."""

from __future__ import annotations

import asyncio
import json
import random
import time

import redis.asyncio as aioredis
import tornado.web
from aiohttp import web

from notify.deps import INBOX_SIZE, INBOX_TTL, UNREAD_TTL, inbox_key, redis_client, unread_key

routes = web.RouteTableDef()
_rate_limits: dict[str, float] = {}


async def deliver(user_id: str, notification: dict[str, str]) -> None:
    """Put a notification in the user's inbox and bump the unread counter, in one round trip."""
    key = inbox_key(user_id)
    async with redis_client.pipeline(transaction=False) as pipe:
        pipe.lpush(key, json.dumps(notification))
        pipe.ltrim(key, 0, INBOX_SIZE - 1)
        pipe.expire(key, INBOX_TTL)  # one key on a pipeline, no loop: not a bulk write
        pipe.incr(unread_key(user_id))  # error: TTL006
        await pipe.execute()


async def deliver_many(user_ids: list[str], notification: dict[str, str]) -> None:
    payload = json.dumps(notification)
    async with redis_client.pipeline(transaction=False) as pipe:
        for user_id in user_ids[:50]:
            key = inbox_key(user_id)
            pipe.lpush(key, payload)
            pipe.ltrim(key, 0, INBOX_SIZE - 1)
            pipe.expire(key, INBOX_TTL + random.randint(0, 86400))
        await pipe.execute()


@routes.get("/users/{user_id}/unread")
async def unread(request: web.Request) -> web.Response:
    count = await redis_client.get(unread_key(request.match_info["user_id"]))
    return web.json_response({"unread": int(count or 0)})


@routes.post("/users/{user_id}/read")
async def mark_read(request: web.Request) -> web.Response:
    user_id = request.match_info["user_id"]
    await redis_client.set(unread_key(user_id), 0, ex=UNREAD_TTL + random.randint(0, 3600))
    return web.json_response({"ok": True})


@routes.post("/unread/bulk")
async def unread_bulk(request: web.Request) -> web.Response:
    body = await request.json()
    user_ids = [str(uid) for uid in body["user_ids"]][:100]
    counts = await redis_client.mget([unread_key(uid) for uid in user_ids])
    return web.json_response({uid: int(c or 0) for uid, c in zip(user_ids, counts, strict=True)})


@routes.get("/admin/outbox")
async def outbox_depths(request: web.Request) -> web.Response:
    depths = await asyncio.gather(
        *[redis_client.llen(f"notify:outbox:{shard}") for shard in range(256)]  # error: BAT002
    )
    return web.json_response({"depths": depths})


@routes.get("/admin/shards")
async def shard_sample(request: web.Request) -> web.Response:
    depths = await asyncio.gather(*(redis_client.llen(f"notify:outbox:{shard}") for shard in range(8)))
    return web.json_response({"depths": depths})


@routes.put("/users/{user_id}/preferences")
async def save_preferences(request: web.Request) -> web.Response:
    user_id = request.match_info["user_id"]
    prefs = await request.json()
    key = f"notify:user-prefs:{user_id}"
    await redis_client.set(key, json.dumps(prefs), ex=UNREAD_TTL + random.randint(0, 3600))  # error: KEY010
    return web.json_response({"ok": True})


@routes.post("/users/{user_id}/digest")
async def queue_digest(request: web.Request) -> web.Response:
    user_id = request.match_info["user_id"]
    await redis_client.set(f"notify:Digest:{user_id}", time.time(), ex=86400)  # error: KEY006
    return web.json_response({"queued": True})


def allowed(client_ip: str, per_second: float = 5.0) -> bool:
    """A per-process rate limiter (a dict, not Redis)."""
    now = time.monotonic()
    last = _rate_limits.get(client_ip, 0.0)
    _rate_limits[client_ip] = now
    return now - last >= 1.0 / per_second


class InboxHandler(tornado.web.RequestHandler):
    """GET /v1/inbox/<user_id>: the latest page of a user's inbox."""

    def initialize(self, redis: aioredis.Redis) -> None:
        self.redis = redis

    async def get(self, user_id: str) -> None:
        page = int(self.get_argument("page", "0"))
        start = page * 20
        items = await self.redis.lrange(inbox_key(user_id), start, start + 19)
        self.write({"items": [json.loads(item) for item in items]})


class FullInboxHandler(tornado.web.RequestHandler):
    """GET /v1/inbox/<user_id>/all: everything, for the legacy sync endpoint."""

    def initialize(self, redis: aioredis.Redis) -> None:
        self.redis = redis

    async def get(self, user_id: str) -> None:
        items = await self.redis.lrange(inbox_key(user_id), 0, -1)  # error: CMD005
        self.write({"items": [json.loads(item) for item in items]})

    async def delete(self, user_id: str) -> None:
        await self.redis.unlink(inbox_key(user_id))
        self.set_status(204)


def make_app() -> web.Application:
    app = web.Application()
    app.add_routes(routes)
    return app


def make_tornado_app() -> tornado.web.Application:
    return tornado.web.Application(
        [
            (r"/v1/inbox/([^/]+)", InboxHandler, {"redis": redis_client}),
            (r"/v1/inbox/([^/]+)/all", FullInboxHandler, {"redis": redis_client}),
        ]
    )
