"""Delayed and periodic jobs: job ids in a sorted set by due time, moved to their queue when due."""

from __future__ import annotations

import time
import uuid

import redis

from .keys import SCHEDULE_KEY, job_key, lock_key, queue_key
from .queue import JOB_TTL, Queue


class Tiger:
    def __init__(self, connection: redis.Redis | None = None) -> None:
        self.connection = connection or redis.Redis(decode_responses=True, socket_timeout=5)

    def schedule(self, queue: Queue, func: str, at: float) -> str:
        job_id = uuid.uuid4().hex
        pipe = self.connection.pipeline(transaction=False)
        pipe.hset(job_key(job_id), mapping={"func": func, "queue": queue.name, "status": "scheduled"})
        pipe.expire(job_key(job_id), JOB_TTL)
        pipe.zadd(SCHEDULE_KEY, {job_id: at})
        pipe.execute()
        return job_id

    def reschedule(self, job_id: str, at: float) -> bool:
        return bool(self.connection.zadd(SCHEDULE_KEY, {job_id: at}, xx=True))

    def move_due(self, now: float | None = None) -> int:
        deadline = time.time() if now is None else now
        moved: list[str] = []

        def _move(pipe: redis.client.Pipeline) -> None:
            due = pipe.zrangebyscore(SCHEDULE_KEY, "-inf", deadline)
            pipe.multi()
            if due:
                pipe.zrem(SCHEDULE_KEY, *due)
                pipe.lpush(queue_key("scheduled"), *due)
            moved[:] = due

        # One transaction, opened here; the `multi()` inside `_move` belongs to it (one finding, not two).
        self.connection.transaction(_move, SCHEDULE_KEY)  # error: CMD007
        return len(moved)

    def run_periodic(self, name: str, every: int) -> bool:
        """True when this process won the right to run `name` for the next `every` seconds."""
        return bool(self.connection.set(lock_key(f"periodic:{name}"), str(time.time()), nx=True, ex=every))

    def purge_locks(self) -> int:
        removed = 0
        for key in self.connection.scan_iter(match="lock:*"):  # error: CMD010
            removed += int(self.connection.unlink(key))
        return removed

    def due_count(self) -> int:
        return int(self.connection.zcount(SCHEDULE_KEY, "-inf", time.time()))

    def all_due(self) -> list[str]:
        return self.connection.zrangebyscore(SCHEDULE_KEY, "-inf", "+inf")  # error: CMD005
