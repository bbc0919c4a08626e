"""Background jobs: a delayed queue (sorted set of due times) and a reliable queue (BRPOPLPUSH)."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import redis.asyncio as aioredis

from notify.deps import REDIS_URL, redis_client

DELAYED_KEY = "notify:delayed:due"
PAYLOADS_KEY = "notify:delayed:payloads"
JOBS_KEY = "notify:jobs"

# Sends the reminder once and only once, whatever the number of workers.
CLAIM_SCRIPT = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  return redis.call('HGET', KEYS[2], ARGV[1])
end
return false
"""

_claim = redis_client.register_script(CLAIM_SCRIPT)


async def schedule(payload: dict[str, Any], delay: float) -> str:
    job_id = uuid.uuid4().hex
    async with redis_client.pipeline(transaction=False) as pipe:
        pipe.hset(PAYLOADS_KEY, job_id, json.dumps(payload))
        pipe.zadd(DELAYED_KEY, {job_id: time.time() + delay})
        await pipe.execute()
    return job_id


async def due_jobs(now: float, limit: int = 100) -> list[bytes]:
    return await redis_client.zrangebyscore(DELAYED_KEY, "-inf", now, start=0, num=limit)


async def pending_jobs() -> list[tuple[bytes, float]]:
    return await redis_client.zrangebyscore(DELAYED_KEY, "-inf", "+inf", withscores=True)  # error: CMD005


async def claim(job_id: bytes) -> bytes | None:
    return await _claim(keys=[DELAYED_KEY, PAYLOADS_KEY], args=[job_id])


async def claim_inline(job_id: bytes) -> bytes | None:
    return await redis_client.eval(CLAIM_SCRIPT, 2, DELAYED_KEY, PAYLOADS_KEY, job_id)  # error: CMD009


async def promote_due() -> int:
    """Move due delayed jobs to the job queue."""
    moved = 0
    for job_id in await due_jobs(time.time()):
        payload = await claim(job_id)
        if payload is not None:
            await redis_client.lpush(JOBS_KEY, payload)
            moved += 1
    return moved


async def work(worker: str) -> None:
    """Take a job, keeping it in this worker's processing list until it is done."""
    processing = f"notify:processing:{worker}"
    while True:
        job = await redis_client.brpoplpush(JOBS_KEY, processing)  # error: PUB001
        await handle(json.loads(job))
        await redis_client.lrem(processing, 1, job)


async def work_politely(worker: str, stop: asyncio.Event) -> None:
    processing = f"notify:processing:{worker}"
    while not stop.is_set():
        job = await redis_client.brpoplpush(JOBS_KEY, processing, timeout=5)
        if job is None:
            continue
        await handle(json.loads(job))
        await redis_client.lrem(processing, 1, job)


async def requeue_stuck(worker: str) -> int:
    """After a crash: put back what the worker held."""
    processing = f"notify:processing:{worker}"
    stuck = await redis_client.lrange(processing, 0, -1)  # error: CMD005
    for job in stuck:
        await redis_client.rpush(JOBS_KEY, job)
    await redis_client.unlink(processing)
    return len(stuck)


async def requeue_some(worker: str) -> int:
    processing = f"notify:processing:{worker}"
    moved = 0
    for _ in range(50):
        if await redis_client.rpoplpush(processing, JOBS_KEY) is None:
            break
        moved += 1
    return moved


async def drain_legacy_queue() -> None:
    """The v1 workers used a separate client on database 2; this drains what they left."""
    legacy = aioredis.Redis.from_url(REDIS_URL, db=2)  # error: CMD006
    while True:
        item = await legacy.brpop("notify:jobs", timeout=0)  # error: PUB001
        await redis_client.lpush(JOBS_KEY, item[1])


async def handle(job: dict[str, Any]) -> None:
    await asyncio.sleep(0)
