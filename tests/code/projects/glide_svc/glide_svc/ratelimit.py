"""Rate limits on GLIDE: batches (GLIDE's pipelines) of INCR + EXPIRE and a sliding window."""

from __future__ import annotations

import time
import uuid

from glide import Batch, GlideClient, ScoreBoundary


class GlideLimiter:
    def __init__(self, client: GlideClient, limit: int, window: int) -> None:
        self.client = client
        self.limit = limit
        self.window = window

    async def allow(self, ident: str) -> bool:
        key = f"ratelimit:{ident}:{int(time.time()) // self.window}"
        batch = Batch(is_atomic=False)
        batch.incr(key)
        batch.expire(key, self.window)
        count, _ = await self.client.exec(batch, raise_on_error=True)
        return int(count) <= self.limit

    async def sliding(self, ident: str) -> bool:
        key = f"ratelimit:sliding:{ident}"
        now = time.time()
        batch = Batch(is_atomic=True)
        batch.zremrangebyscore(key, ScoreBoundary(0), ScoreBoundary(now - self.window))
        batch.zadd(key, {uuid.uuid4().hex: now})
        batch.zcard(key)
        batch.expire(key, self.window)
        _, _, count, _ = await self.client.exec(batch, raise_on_error=True)
        return int(count) <= self.limit

    async def penalise(self, ident: str) -> int:
        await self.client.set(f"ratelimit:ban:{ident}", "1")
        return await self.client.incr(f"ratelimit:strikes:{ident}")

    async def reset(self, ident: str) -> None:
        await self.client.delete([f"ratelimit:ban:{ident}", f"ratelimit:strikes:{ident}"])
