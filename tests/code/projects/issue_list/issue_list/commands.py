"""Maintenance endpoints and scripts: the commands the conventions ban or reserve for operators."""
# ruff: noqa: SIM118 -- `client.keys()` is the Redis KEYS command, not dict.keys()

from __future__ import annotations

import logging

import redis
import redis.asyncio as aioredis

from issue_list.connection import async_client, redis_client

log = logging.getLogger(__name__)


# ---- KEYS ------------------------------------------------------------------------------------------------


def active_sessions() -> list[bytes]:
    return redis_client.keys("user:session:*")  # error: CMD001


def dump_keyspace() -> None:
    for key in redis_client.keys():  # error: CMD001
        log.info("key %r", key)


class CacheAdmin:
    def __init__(self, client: aioredis.Redis) -> None:
        self.redis = client

    async def cached_pages(self, prefix: str) -> list[bytes]:
        return await self.redis.keys(f"cache:page:{prefix}*")  # error: CMD001

    async def clear_cache(self) -> None:
        await self.redis.flushdb()  # error: CMD002

    async def clear_cache_in_background(self) -> None:
        await self.redis.flushdb(asynchronous=True)


def count_cached_products() -> int:
    return len(redis_client.execute_command("KEYS", "cache:product:*"))  # error: CMD001


def active_sessions_scanned() -> list[bytes]:
    return list(redis_client.scan_iter(match="user:session:*", count=1000))


# ---- FLUSHALL / FLUSHDB (without ASYNC) ------------------------------------------------------------------


def reset_for_tests() -> None:
    redis_client.flushall()  # error: CMD002


async def reset_async() -> None:
    await async_client.flushdb(asynchronous=False)  # error: CMD002


def reset_in_background() -> None:
    redis_client.flushall(asynchronous=True)


# ---- MONITOR ---------------------------------------------------------------------------------------------


def tail_commands(limit: int) -> list[dict[str, object]]:
    seen = []
    with redis_client.monitor() as monitor:  # error: CMD003
        for command in monitor.listen():
            seen.append(command)
            if len(seen) >= limit:
                break
    return seen


class Debugger:
    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def watch(self) -> object:
        return self.client.monitor()  # error: CMD003

    # ---- DEBUG -------------------------------------------------------------------------------------------

    def encoding_of(self, key: str) -> object:
        return self.client.debug_object(key)  # error: CMD004

    def memory_of(self, key: str) -> int | None:
        return self.client.memory_usage(key)


def stall_server(seconds: float) -> None:
    redis_client.execute_command("DEBUG", "SLEEP", seconds)  # error: CMD004


def size_of_profile(uid: int) -> int:
    return redis_client.hlen(f"user:profile:{uid}")


# ---- CONFIG SET ------------------------------------------------------------------------------------------


def switch_to_lru() -> None:
    redis_client.config_set("maxmemory-policy", "allkeys-lru")  # error: CMD004


async def enable_expiry_events() -> None:
    await async_client.config_set(name="notify-keyspace-events", value="Ex")  # error: CMD004


def current_policy() -> dict[str | None, str | None]:
    return redis_client.config_get("maxmemory-policy")


# ---- SELECT / db= other than 0 ---------------------------------------------------------------------------


def read_report_database(report_id: str) -> bytes | None:
    redis_client.select(2)  # error: CMD006
    try:
        return redis_client.get(f"stats:report:{report_id}")
    finally:
        redis_client.select(0)


async def open_archive() -> aioredis.Redis:
    return aioredis.Redis(host="archive-redis", port=6379, db=7)  # error: CMD006


def open_primary() -> redis.Redis:
    return redis.Redis(host="primary-redis", port=6379, db=0)


# ---- EVAL of an inline script on each call ---------------------------------------------------------------

RELEASE_LOCK = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""

release_lock_script = redis_client.register_script(RELEASE_LOCK)


def release_lock(order_id: str, token: str) -> int:
    return redis_client.eval(RELEASE_LOCK, 1, f"lock:order:{order_id}", token)  # error: CMD009


def bump_counter(name: str) -> int:
    return redis_client.eval(  # error: CMD009
        "local n = redis.call('incr', KEYS[1]) redis.call('expire', KEYS[1], ARGV[1]) return n",
        1,
        f"stats:counter:{name}",
        3600,
    )


async def release_lock_async(order_id: str, token: str) -> int:
    return await async_client.eval(RELEASE_LOCK, 1, f"lock:order:{order_id}", token)  # error: CMD009


def release_lock_cached(order_id: str, token: str) -> int:
    return release_lock_script(keys=[f"lock:order:{order_id}"], args=[token])


def release_lock_by_sha(sha: str, order_id: str, token: str) -> int:
    return redis_client.evalsha(sha, 1, f"lock:order:{order_id}", token)
