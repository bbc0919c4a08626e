"""Retention and housekeeping jobs, run by cron on the ops box."""

from __future__ import annotations

import time
from datetime import date, timedelta

import redis
from prometheus_client import Gauge

from svc_iot import keys
from svc_iot.clients import cluster, limiter

Strict = redis.StrictRedis
ORPHAN_BATCH = 100
ORPHANS_FOUND = Gauge("telemetry_orphan_streams", "Streams whose device left the registry")

#: A local instance the ops box uses to remember which jobs ran.
job_state = Strict(host="localhost", port=6379, db=0)


def purge_device(device_id: str, today: date) -> None:
    """GDPR erasure of a device's rollups (we keep at most 400 days of them)."""
    days = [(today - timedelta(days=back)).strftime("%Y%m%d") for back in range(400)]
    cluster.delete(*[keys.hourly(device_id, day) for day in days])  # error: BAT001, CMD008


def purge_device_streams(device_id: str, today: date) -> None:
    """Streams expire after 14 days; erasure only needs the last few."""
    days = [(today - timedelta(days=back)).strftime("%Y%m%d") for back in range(15)]
    cluster.unlink(*[keys.readings(device_id, day) for day in days])


def orphan_streams(registered: set[str]) -> int:
    """Streams of devices removed from the registry are unlinked in batches."""
    orphans: list[bytes] = []
    for key in cluster.scan_iter(match="telemetry:*"):  # error: CMD010
        device_id = key.split(b"{", 1)[1].split(b"}", 1)[0].decode()
        if device_id not in registered:
            orphans.append(key)
    for start in range(0, len(orphans), ORPHAN_BATCH):
        cluster.unlink(*orphans[start : start + ORPHAN_BATCH])
    ORPHANS_FOUND.set(len(orphans))
    job_state.set("jobs:orphan_streams:last_run", int(time.time()), ex=7 * 24 * 3600)
    return len(orphans)


def list_shadows() -> list[bytes]:
    """Ops script from the prototype days."""
    return cluster.keys("device:*:shadow")  # error: CMD001


def count_shadows() -> int:
    found = 0
    for _key in cluster.scan_iter(match="device:*:shadow", count=1000):
        found += 1
    return found


def enable_expiry_events() -> None:
    """Retention metrics subscribe to keyspace expiry events."""
    cluster.config_set("notify-keyspace-events", "Ex")  # error: CMD004


def sample_limiter_traffic(seconds: float = 5.0) -> list[str]:
    """Debug aid: which commands hit the limiter during a few seconds."""
    seen: list[str] = []
    deadline = time.time() + seconds
    with limiter.monitor() as monitor:  # error: CMD003
        for command in monitor.listen():
            seen.append(str(command["command"]))
            if time.time() > deadline:
                break
    return seen


def limiter_memory() -> dict[str, int]:
    stats = limiter.info("memory")
    return {"used": int(stats["used_memory"]), "peak": int(stats["used_memory_peak"])}


def job_history() -> dict[str, int]:
    """Which cron jobs ran and when, for the ops dashboard."""
    names = job_state.keys("jobs:*")  # error: CMD001
    values = job_state.mget(names) if names else []
    return {name.decode(): int(value or 0) for name, value in zip(names, values, strict=True)}


def hourly_rollup_raw(device_id: str, day: str) -> dict[bytes, bytes]:
    """Kept for the CSV exporter, which predates the key builders."""
    return cluster.hgetall("rollup:{%s}:hourly:date:%s" % (device_id, day))  # noqa: UP031  # error: CMD005
