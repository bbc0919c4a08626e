"""Distributed locks for jobs that must run on one gateway instance at a time."""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Awaitable

from redis.asyncio import Redis

from .deps import get_redis

RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class DistributedLock:
    """SET NX PX with a random token; released by a registered script that checks the token."""

    def __init__(self, redis: Redis, name: str, ttl_ms: int = 30_000) -> None:
        self.redis = redis
        self.key = f"lock:{name}"
        self.token = uuid.uuid4().hex
        self.ttl_ms = ttl_ms
        self._release = redis.register_script(RELEASE)

    async def acquire(self) -> bool:
        return bool(await self.redis.set(self.key, self.token, nx=True, px=self.ttl_ms))

    async def release(self) -> None:
        await self._release(keys=[self.key], args=[self.token])


async def run_exclusive(job_name: str, job: Awaitable[None]) -> None:
    """The first lock helper, still used by the nightly report job."""
    r = get_redis()
    key = f"lock:job:{job_name}"
    while not await r.setnx(key, os.getpid()):  # error: TTL006
        await asyncio.sleep(0.1)
    try:
        await job
    finally:
        await r.delete(key)


async def release_job_lock(job_name: str, token: str) -> None:
    r = get_redis()
    await r.eval(RELEASE, 1, f"lock:job:{job_name}", token)  # error: CMD009


async def with_builtin_lock(report_id: str, job: Awaitable[None]) -> None:
    r = get_redis()
    async with r.lock(f"lock:report:{report_id}", timeout=60, blocking_timeout=5):
        await job


async def local_only(job: Awaitable[None]) -> None:
    """Tests run without Redis: an asyncio lock is enough there."""
    lock = asyncio.Lock()
    async with lock:
        await job
