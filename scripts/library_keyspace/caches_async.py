"""Optional asyncio workloads: channels-redis, aiocache and fastapi-cache2.

channels-redis: consumers join groups named by the application (a lobby, chat rooms, per-user notification
groups) and messages are sent to groups and to single channels nobody reads yet. aiocache: a RedisCache with a
namespace and the `@cached` decorator. fastapi-cache2: a RedisBackend behind `@cache` endpoints hit through
Starlette's TestClient.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from scripts.library_keyspace import ids
from scripts.library_keyspace.common import Family, family
from scripts.library_keyspace.workload import Workload

CHANNELS_PREFIX = {"a": "asgi", "b": "chat-prod"}
AIOCACHE_NAMESPACE = {"a": "main", "b": "svc"}
FASTAPI_PREFIX = {"a": "fastapi-cache", "b": "api-cache"}


# ---- channels-redis --------------------------------------------------------------------------------------------


def _run_channels(url: str, variant: str, rng: random.Random) -> None:
    from channels_redis.core import RedisChannelLayer

    async def work() -> None:
        # one layer per worker process: a layer's channels share its client prefix, hence one queue key each
        layers = [
            RedisChannelLayer(hosts=[url], prefix=CHANNELS_PREFIX[variant], expiry=120, group_expiry=86400)
            for _ in range(12)
        ]
        rooms = [f"chat_room_{rng.randrange(1, 5000)}" for _ in range(60)]
        for _ in range(400):
            layer = rng.choice(layers)
            channel = await layer.new_channel()
            groups = ["lobby", rng.choice(rooms)]
            if rng.random() < 0.5:
                groups.append(f"user_{ids.user_id(rng)}_notifications")
            for group in groups:
                await layer.group_add(group, channel)
            if rng.random() < 0.1:
                await layer.send(channel, {"type": "chat.message", "text": "hello"})
        for room in rooms[:5]:
            await layers[0].group_send(room, {"type": "chat.message", "text": "hi all"})
        for layer in layers:
            await layer.close_pools()

    asyncio.run(work())


def _channels_families(variant: str) -> Sequence[Family]:
    pre = CHANNELS_PREFIX[variant]
    return [
        family("channels-redis group lobby", rf"{pre}:group:lobby"),
        family("channels-redis group chat room", rf"{pre}:group:chat_room_\d+"),
        family("channels-redis group user notifications", rf"{pre}:group:user_\d+_notifications"),
        family("channels-redis channel queue", rf"{pre}specific\.[0-9a-f]{{32}}!"),
    ]


# ---- aiocache --------------------------------------------------------------------------------------------------


def _run_aiocache(url: str, variant: str, rng: random.Random) -> None:
    from aiocache import RedisCache, cached

    parts = urlsplit(url)
    kwargs: dict[str, Any] = {"namespace": AIOCACHE_NAMESPACE[variant], "endpoint": parts.hostname, "port": parts.port}

    async def work() -> None:
        cache = RedisCache(**kwargs)

        async def forecast(city: str, units: str = "metric") -> dict[str, int]:
            return {"temp": 20 if units == "metric" else 68}

        forecast.__module__ = "weatherapp.services"  # the module an application would define it in
        weather = cached(ttl=300, cache=RedisCache, **kwargs)(forecast)
        for _ in range(250):
            await cache.set(f"user:{ids.user_id(rng)}:feed", [1, 2, 3], ttl=rng.choice((60, 600)))
        for _ in range(150):
            await cache.set(f"token_{ids.urlsafe_token(rng, 16)}", {"sub": 1}, ttl=900)
        for city in ("berlin", "paris", "lagos", "lima", "osaka", "perth", "quito", "oslo"):
            await weather(city)
            await weather(city, units="imperial")

    asyncio.run(work())


def _aiocache_families(variant: str) -> Sequence[Family]:
    ns = AIOCACHE_NAMESPACE[variant] + ":?"  # aiocache puts ":" between namespace and key
    return [
        family("aiocache user feed", rf"{ns}user:\d+:feed"),
        family("aiocache token", rf"{ns}token_[A-Za-z0-9_-]{{22}}"),
        family("aiocache cached weather", rf"{ns}weatherapp\.servicesforecast.*"),
    ]


# ---- fastapi-cache2 --------------------------------------------------------------------------------------------


def _run_fastapi_cache(url: str, variant: str, rng: random.Random) -> None:
    from collections.abc import AsyncIterator
    from contextlib import asynccontextmanager

    import redis.asyncio
    from fastapi import FastAPI
    from fastapi.testclient import TestClient
    from fastapi_cache import FastAPICache
    from fastapi_cache.backends.redis import RedisBackend
    from fastapi_cache.decorator import cache

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        FastAPICache.init(RedisBackend(redis.asyncio.from_url(url)), prefix=FASTAPI_PREFIX[variant])
        yield

    app = FastAPI(lifespan=lifespan)

    async def read_item(item_id: int, q: str | None = None) -> dict[str, Any]:
        return {"item_id": item_id, "q": q}

    async def user_orders(user_id: int) -> list[int]:
        return [user_id % 7, 2]

    app.get("/items/{item_id}")(cache(expire=60)(read_item))
    app.get("/users/{user_id}/orders")(cache(expire=300, namespace="orders")(user_orders))

    with TestClient(app) as client:
        for _ in range(250):
            params = {"q": ids.search_term(rng)} if rng.random() < 0.4 else {}
            if client.get(f"/items/{rng.randrange(1, 100_000)}", params=params).status_code != 200:
                raise RuntimeError("fastapi /items failed")
        for _ in range(150):
            if client.get(f"/users/{ids.user_id(rng)}/orders").status_code != 200:
                raise RuntimeError("fastapi /users failed")


def _fastapi_cache_families(variant: str) -> Sequence[Family]:
    pre = FASTAPI_PREFIX[variant]
    return [
        family("fastapi-cache2 endpoint", rf"{pre}::[0-9a-f]{{32}}"),
        family("fastapi-cache2 endpoint orders", rf"{pre}:orders:[0-9a-f]{{32}}"),
    ]


WORKLOADS = (
    Workload(
        name="channels-redis",
        library="channels-redis",
        distributions=("channels-redis", "channels"),
        run=_run_channels,
        families=_channels_families,
        options=lambda variant: (
            f"RedisChannelLayer(prefix={CHANNELS_PREFIX[variant]!r}, expiry=120, group_expiry=86400)"
        ),
        optional=True,
    ),
    Workload(
        name="aiocache",
        library="aiocache",
        distributions=("aiocache",),
        run=_run_aiocache,
        families=_aiocache_families,
        options=lambda variant: f"RedisCache(namespace={AIOCACHE_NAMESPACE[variant]!r}) and @cached(ttl=300)",
        optional=True,
    ),
    Workload(
        name="fastapi-cache2",
        library="fastapi-cache2",
        distributions=("fastapi-cache2", "fastapi"),
        run=_run_fastapi_cache,
        families=_fastapi_cache_families,
        options=lambda variant: (
            f"FastAPICache.init(RedisBackend, prefix={FASTAPI_PREFIX[variant]!r}); "
            "@cache(expire=60) and @cache(expire=300, namespace='orders')"
        ),
        optional=True,
    ),
)
