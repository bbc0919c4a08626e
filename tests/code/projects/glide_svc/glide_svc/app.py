"""Wiring and the request handlers: every handler receives the services built at start-up."""

from __future__ import annotations

import json
from dataclasses import dataclass

from .boards import BoardRedis, open_boards
from .clients import GlideStore, connect_glide
from .memo import recall, remember
from .ratelimit import GlideLimiter
from .sessions import SessionStore


@dataclass
class Services:
    store: GlideStore
    sessions: SessionStore
    limiter: GlideLimiter
    boards: BoardRedis


async def startup() -> Services:
    glide = await connect_glide()
    store = GlideStore(glide)
    return Services(store, SessionStore(store), GlideLimiter(glide, limit=100, window=60), await open_boards())


async def profile(services: Services, uid: int) -> dict[str, str]:
    memo = recall(f"profile:{uid}")
    if memo is not None:
        return memo
    raw = await services.store.hgetall(f"user:profile:{uid}")
    data = {k.decode(): v.decode() for k, v in raw.items()}
    remember(f"profile:{uid}", data)
    return data


async def save_profile(services: Services, uid: int, data: dict[str, str]) -> None:
    await services.store.hset(f"user:profile:{uid}", data, ttl=86400)
    await services.store.set(f"user:profile_json:{uid}", json.dumps(data))


async def leaderboard(services: Services, name: str) -> list[tuple[bytes, float]]:
    if not await services.limiter.allow(f"board:{name}"):
        return []
    return await services.boards.top(name)


async def board_names(services: Services) -> list[bytes]:
    return await services.boards.keys("board:*")  # error: CMD001


async def admin_reset(services: Services) -> None:
    await services.store.flushall()
    await services.sessions.wipe()
