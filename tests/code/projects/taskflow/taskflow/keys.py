"""Every key taskflow writes, built in one place."""

from __future__ import annotations

SCHEDULE_KEY = "schedule:due"


def queue_key(name: str) -> str:
    return f"queue:{name}"


def job_key(job_id: str) -> str:
    return f"job:{job_id}"


def lock_key(name: str) -> str:
    return f"lock:{name}"


def worker_key(name: str) -> str:
    return f"worker:heartbeat:{name}"


def pause_key(queue: str) -> str:
    return f"worker:pause:{queue}"


def stats_key(queue: str, day: str) -> str:
    return f"stats:{queue}:{day}"


def result_key(job_id: str) -> str:
    return f"result:{job_id}"
