"""Idempotency-Key support: the first request with a key wins, retries get the stored response."""

from __future__ import annotations

from redis.asyncio import Redis

from .deps import get_redis

IDEMPOTENCY_TTL = 24 * 3600


async def claim(request_id: str) -> bool:
    r = get_redis()
    claimed = await r.set(f"idempotency:request:{request_id}", "pending", nx=True, ex=IDEMPOTENCY_TTL)
    return bool(claimed)


async def claim_legacy(r: Redis, request_id: str) -> bool:
    """The version still used by the v1 routes."""
    key = f"idempotency:request:{request_id}"
    if await r.setnx(key, "pending"):  # error: TTL008
        await r.expire(key, IDEMPOTENCY_TTL)
        return True
    return False


async def store_response(request_id: str, body: bytes) -> None:
    r = get_redis()
    await r.set(f"idempotency:response:{request_id}", body)  # error: TTL006


async def store_response_v2(request_id: str, body: bytes) -> None:
    r = get_redis()
    await r.set(f"idempotency:response:{request_id}", body, ex=IDEMPOTENCY_TTL)


async def finish(request_id: str, status: int) -> None:
    r = get_redis()
    await r.set(f"idempotency:status:{request_id}", status, keepttl=True)


async def stored_response(request_id: str) -> bytes | None:
    r = get_redis()
    return await r.get(f"idempotency:response:{request_id}")


async def replay_all(request_ids: list[str]) -> list[bytes | None]:
    r = get_redis()
    return await r.mget([f"idempotency:response:{rid}" for rid in request_ids])


async def record_attempt(request_id: str) -> None:
    r = get_redis()
    key = f"idempotency:attempts:{request_id}"
    await r.incr(key)
    await r.expire(key, IDEMPOTENCY_TTL)
