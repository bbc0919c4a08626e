"""The broker and its queues: the client travels in attributes (`broker.client`, `queue.connection`)."""

from __future__ import annotations

import time

import redis

from .scripts import Scripts

JOB_TTL = 7 * 86400


class Broker:
    def __init__(self, client: redis.Redis | None = None) -> None:
        self.client = client or redis.Redis(host="redis.internal", port=6379)
        self.scripts = Scripts(self.client)

    def queue(self, name: str) -> Queue:
        return Queue(name, self)


class Queue:
    def __init__(self, name: str, broker: Broker) -> None:
        self.name = name
        self.connection = broker.client
        self.scripts = broker.scripts

    def push(self, job_id: str, fields: dict[str, str]) -> None:
        with self.connection.pipeline(transaction=False) as pipe:
            pipe.hset(f"taskq:job:{job_id}", mapping=fields).expire(f"taskq:job:{job_id}", JOB_TTL)
            pipe.rpush(f"taskq:queue:{self.name}", job_id)
            pipe.execute()

    def started(self, job_id: str, pipeline: redis.client.Pipeline | None = None) -> None:
        key = f"taskq:registry:started:{self.name}"
        if pipeline is not None:
            pipeline.zadd(key, {job_id: time.time()})  # error: TTL006
        else:
            self.connection.zadd(key, {job_id: time.time()})  # error: TTL006
        self.connection.zadd(key, {job_id: time.time()}, xx=True)

    def heartbeat(self, job_id: str) -> None:
        self.connection.zadd(f"taskq:registry:started:{self.name}", {job_id: time.time()}, xx=True)

    def claim(self, job_id: str) -> None:
        self.scripts.zadd(f"taskq:registry:started:{self.name}", time.time(), job_id, mode="nx")

    def save_status(self, job_id: str, status: str) -> None:
        key = f"taskq:job:{job_id}"
        self.connection.hset(key, "status", status)  # error: TTL006
        self.connection.hset(key, "updated", str(time.time()))

    def next_job(self, timeout: int | None = None) -> tuple[bytes, bytes] | None:
        return self.connection.blpop([f"taskq:queue:{self.name}"], timeout=timeout or 0)  # error: PUB001

    def jobs(self, **scan: int) -> list[bytes]:
        return list(self.connection.scan_iter(match="taskq:job:*", **scan))

    def store_result(self, job_id: str, result: bytes, digest: str) -> None:
        self.connection.set(f"taskq:result:{job_id}", result, ex=JOB_TTL)
        self.connection.set(f"taskq:result:{job_id}:hash", digest, ex=JOB_TTL)
