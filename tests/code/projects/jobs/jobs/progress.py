"""Progress of long jobs (a hash per job) and a cache of task results, read by the web UI."""

from __future__ import annotations

import json
import time
from typing import Any

from celery import group
from celery.result import AsyncResult

from .broker import app, r, results

PROGRESS_TTL = 6 * 3600
RESULT_TTL = 3600


def _progress(job_id: str) -> str:
    return f"job:progress:{job_id}"


def start(job_id: str, total: int) -> None:
    key = _progress(job_id)
    r.hset(key, mapping={"total": total, "done": 0, "failed": 0, "state": "running"})
    r.expire(key, PROGRESS_TTL)


def advance(job_id: str, done: int = 1) -> int:
    return int(r.hincrby(_progress(job_id), "done", done))  # error: TTL006


def fail_one(job_id: str) -> None:
    key = _progress(job_id)
    r.hincrby(key, "failed", 1)
    r.expire(key, PROGRESS_TTL)


def status(job_id: str) -> dict[str, int]:
    total, done, failed = r.hmget(_progress(job_id), "total", "done", "failed")
    return {"total": int(total or 0), "done": int(done or 0), "failed": int(failed or 0)}


def snapshot(job_id: str) -> dict[bytes, bytes]:
    return r.hgetall(_progress(job_id))  # error: CMD005


def finish(job_id: str) -> None:
    key = _progress(job_id)
    r.hset(key, "state", "finished")
    r.expire(key, RESULT_TTL)


def forget(job_id: str) -> None:
    r.delete(_progress(job_id))  # error: CMD008


def forget_gently(job_id: str) -> None:
    r.unlink(_progress(job_id))


def count_processed(queue_name: str) -> int:
    key = f"job:processed:{queue_name}:{time.strftime('%Y%m%d')}"
    n = r.incr(key)
    if n == 1:
        r.expire(key, 3 * 86400)
    return int(n)


def record_last_run(task_name: str) -> None:
    r.set(f"job:result:{task_name}:lastRun", int(time.time()), ex=RESULT_TTL)  # error: KEY007


def cached_result(task_name: str, digest: str) -> Any:
    raw = results.get(f"job:result:{task_name}:{digest}")
    return None if raw is None else json.loads(raw)


def store_result(task_name: str, digest: str, value: Any) -> None:
    results.set(f"job:result:{task_name}:{digest}", json.dumps(value))  # error: TTL006


def store_result_with_ttl(task_name: str, digest: str, value: Any) -> None:
    results.set(f"job:result:{task_name}:{digest}", json.dumps(value), ex=RESULT_TTL)


def heartbeat(hostname: str) -> None:
    r.setex(f"worker:heartbeat:{hostname}", 30, "alive")  # error: KEY018


@app.task(bind=True)
def build_report(self: Any, job_id: str, parts: list[int]) -> str:
    start(job_id, len(parts))
    for _part in parts:
        advance(job_id)
        self.update_state(state="PROGRESS", meta=status(job_id))
    finish(job_id)
    return job_id


def wait_for(task_id: str, timeout: float = 30.0) -> Any:
    """Celery's AsyncResult.get blocks on the result backend: a Celery call, not a Redis GET."""
    outcome = AsyncResult(task_id, app=app)
    return outcome.get(timeout=timeout, propagate=False)


def run_all(job_ids: list[str]) -> list[Any]:
    pending = group(build_report.s(job_id, []) for job_id in job_ids).apply_async()
    done = pending.get(timeout=120)
    pending.forget()
    return list(done)
