"""A FIFO queue of job ids (a list) with one hash per job."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import redis

from .keys import job_key, queue_key

JOB_TTL = 7 * 86400


class Queue:
    def __init__(self, name: str, host: str = "localhost", port: int = 6379) -> None:
        self.name = name
        self.connection = redis.Redis(host=host, port=port, socket_timeout=10)

    def enqueue(self, func: str, *args: Any, ttl: int = JOB_TTL) -> str:
        job_id = uuid.uuid4().hex
        fields = {"func": func, "args": json.dumps(args), "queue": self.name, "status": "queued"}
        pipe = self.connection.pipeline(transaction=False)
        pipe.hset(job_key(job_id), mapping=fields).expire(job_key(job_id), ttl)
        pipe.lpush(queue_key(self.name), job_id)
        pipe.execute()
        return job_id

    def dequeue(self, timeout: float | None = None) -> str | None:
        # `timeout or 0` blocks for ever whenever the caller passes nothing: 0 is a reachable value.
        item = self.connection.brpop(queue_key(self.name), timeout=timeout or 0)  # error: PUB001
        return None if item is None else item[1].decode()

    def dequeue_wait(self, timeout: float = 5) -> str | None:
        item = self.connection.brpop(queue_key(self.name), timeout=timeout)
        return None if item is None else item[1].decode()

    def size(self) -> int:
        return int(self.connection.llen(queue_key(self.name)))

    def pending(self) -> list[str]:
        return [j.decode() for j in self.connection.lrange(queue_key(self.name), 0, -1)]  # error: CMD005

    def peek(self, n: int = 10) -> list[str]:
        return [j.decode() for j in self.connection.lrange(queue_key(self.name), 0, n - 1)]

    def clear(self) -> None:
        self.connection.delete(queue_key(self.name))  # error: CMD008

    def clear_gently(self) -> None:
        self.connection.unlink(queue_key(self.name))

    def iter_jobs(self, **scan_options: Any) -> Iterator[bytes]:
        return self.connection.scan_iter(match="job:*", **scan_options)

    def forget(self, job_id: str) -> None:
        self.connection.delete(job_key(job_id))  # error: CMD008
