"""The library's own clients: subclasses of redis-py's, with helpers of their own."""

from __future__ import annotations

import redis
import redis.asyncio

RESULT_PREFIX = "taskq:result:"


class TaskRedis(redis.Redis):
    """A client that knows where results live."""

    def all_results(self) -> list[bytes]:
        return self.keys(RESULT_PREFIX + "*")  # error: CMD001

    def result(self, job_id: str) -> bytes | None:
        return self.get(RESULT_PREFIX + job_id)

    def delete(self, *names: str) -> int:
        """Deletes results only, without blocking: the library's own method, not redis-py's DEL."""
        return super().unlink(*[RESULT_PREFIX + name for name in names])

    def forget(self, job_id: str) -> int:
        self.delete(f"taskq:job:{job_id}")
        return super().delete(f"taskq:job:{job_id}")  # error: CMD008


class AsyncTaskRedis(redis.asyncio.Redis):
    async def job(self, job_id: str) -> dict[bytes, bytes]:
        return await self.hgetall(f"taskq:job:{job_id}")  # error: CMD005

    async def clear(self) -> None:
        await self.flushdb()  # error: CMD002


async def create_pool(url: str) -> AsyncTaskRedis:
    return AsyncTaskRedis.from_url(url)
