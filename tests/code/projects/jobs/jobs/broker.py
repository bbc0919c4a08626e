"""The Celery app, the RQ queue, the dramatiq broker and the redis-py clients the tasks share."""

from __future__ import annotations

import os

import dramatiq
import redis
from celery import Celery
from dramatiq.brokers.redis import RedisBroker
from rq import Queue

REDIS_URL = os.environ.get("REDIS_URL", "redis://localhost:6379/0")

app = Celery("jobs", broker=REDIS_URL, backend=REDIS_URL)
app.conf.update(
    task_acks_late=True,
    task_default_queue="default",
    result_expires=3600,
    broker_transport_options={"visibility_timeout": 3600},
)

r = redis.Redis.from_url(REDIS_URL, socket_timeout=5, health_check_interval=30)
results = redis.Redis.from_url(REDIS_URL, db=2, socket_timeout=5)  # error: CMD006

reports_queue = Queue("reports", connection=r, default_timeout=900)
dramatiq.set_broker(RedisBroker(url=REDIS_URL))


def get_redis() -> redis.Redis:
    """For code that wants a client without importing the module global (tests patch this)."""
    return r


def queue_stats() -> dict[str, int]:
    """Sizes of the RQ queue and its registries: RQ's API, not redis-py commands."""
    return {
        "queued": reports_queue.count,
        "failed": reports_queue.failed_job_registry.count,
        "started": len(reports_queue.started_job_registry.get_job_ids()),
    }


def empty_reports_queue() -> int:
    """RQ's Queue.empty() deletes the queued jobs through RQ's own Lua script."""
    return reports_queue.empty()
