"""The worker loop: claim a job, run it, record the outcome, heartbeat."""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Callable
from typing import Any

from .connection import scripts
from .keys import job_key, pause_key, result_key, stats_key, worker_key
from .queue import Queue
from .scheduler import Tiger

HEARTBEAT_TTL = 30
RESULT_TTL = 3600
REGISTRY: dict[str, Callable[..., Any]] = {}


class Worker:
    def __init__(self, queues: list[Queue], tiger: Tiger, name: str | None = None) -> None:
        self.queues = queues
        self.tiger = tiger
        self.conn = self.tiger.connection
        self.name = name or f"{socket.gethostname()}_{os.getpid()}"

    def heartbeat(self) -> None:
        self.conn.set(worker_key(self.name), int(time.time()), ex=HEARTBEAT_TTL)

    def record(self, queue: Queue, ok: bool) -> None:
        key = stats_key(queue.name, time.strftime("%Y%m%d"))
        self.conn.hincrby(key, "ok" if ok else "failed", 1)  # error: TTL006
        self.conn.hincrby(key, "total", 1)

    def reset(self) -> None:
        """Development helper: start from an empty database."""
        self.conn.flushdb()  # error: CMD002

    def paused(self, queue: Queue) -> bool:
        return bool(self.conn.exists(pause_key(queue.name)))

    def work_once(self, timeout: float = 5) -> bool:
        self.heartbeat()
        for queue in self.queues:
            if self.paused(queue):
                continue
            job_id = queue.dequeue_wait(timeout)
            if job_id is not None:
                self.run(queue, job_id)
                return True
        self.tiger.move_due()
        return False

    def run(self, queue: Queue, job_id: str) -> None:
        if not scripts.eval("claim", keys=[job_key(job_id)], args=[self.name]):
            return
        fields = self.conn.hgetall(job_key(job_id))  # error: CMD005
        func = REGISTRY[fields[b"func"].decode()]
        try:
            result = func(*json.loads(fields.get(b"args", b"[]")))
        except Exception:
            self.conn.hset(job_key(job_id), "status", "failed")
            self.record(queue, ok=False)
            return
        self.conn.hset(job_key(job_id), "status", "done")
        self.conn.set(result_key(job_id), json.dumps(result), ex=RESULT_TTL)
        self.record(queue, ok=True)


def pause(q: Queue) -> None:
    q.connection.pipeline().set(pause_key(q.name), 1).execute()  # error: TTL006


def pause_for(q: Queue, seconds: int) -> None:
    q.connection.pipeline().set(pause_key(q.name), 1, ex=seconds).execute()


def resume(q: Queue) -> None:
    q.connection.delete(pause_key(q.name))
