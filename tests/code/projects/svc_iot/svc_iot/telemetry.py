"""Readings ingest and rollups.

Each device writes one stream per day, capped and expired after the retention window;
per-minute sums are folded into hourly averages by the nightly rollup.
"""

from __future__ import annotations

import random
import time
from datetime import datetime, timezone

from redis.cluster import RedisCluster

from svc_iot import keys
from svc_iot.clients import cluster

RETENTION = 14 * 24 * 3600
ROLLUP_TTL = 400 * 24 * 3600
SNAPSHOT_TTL = 24 * 3600
STREAM_MAXLEN = 20_000
MINUTES_PER_DAY = 1440
UPLOAD_BATCH = 100


def _day(ts: float) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).strftime("%Y%m%d")


def ingest(device_id: str, reading: dict[str, float], ts: float | None = None, client: RedisCluster = cluster) -> bytes:
    """One reading from the MQTT bridge."""
    ts = ts or time.time()
    day = _day(ts)
    stream, minutes = keys.readings(device_id, day), keys.minute_buckets(device_id, day)
    pipe = client.pipeline(transaction=False)
    pipe.xadd(stream, {name: str(value) for name, value in reading.items()}, maxlen=STREAM_MAXLEN, approximate=True)
    pipe.expire(stream, RETENTION)
    pipe.hincrbyfloat(minutes, str(int(ts // 60) % MINUTES_PER_DAY), reading.get("value", 0.0))
    pipe.expire(minutes, RETENTION)
    entry_id, *_ = pipe.execute()
    return bytes(entry_id)


def ingest_batch(device_id: str, readings: list[tuple[float, dict[str, float]]]) -> int:
    """Gateways upload buffered readings after a reconnect, at most 100 per request."""
    accepted = readings[:UPLOAD_BATCH]
    streams = {keys.readings(device_id, _day(ts)) for ts, _ in accepted}
    pipe = cluster.pipeline(transaction=False)
    for ts, reading in accepted:
        fields = {name: str(value) for name, value in reading.items()}
        pipe.xadd(keys.readings(device_id, _day(ts)), fields, id=f"{int(ts * 1000)}-*", maxlen=STREAM_MAXLEN)
    for stream in streams:
        pipe.expire(stream, RETENTION + random.randint(0, 3600))
    pipe.execute()
    return len(accepted)


def latest(device_id: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
    """The newest reading of the day, for the device card."""
    return cluster.xrevrange(keys.readings(device_id, _day(time.time())), count=1)


def latest_from_mirror(device_id: str) -> list[tuple[bytes, dict[bytes, bytes]]]:
    """The edge mirror keeps only the last reading of each device."""
    return cluster.xrevrange(f"telemetry:{{{device_id}:latest", count=1)  # error: KEY011, KEY012


def minute_series(device_id: str, day: str) -> list[float]:
    """Chart of one day: all minute buckets in one HMGET."""
    fields = [str(minute) for minute in range(MINUTES_PER_DAY)]
    values = cluster.hmget(keys.minute_buckets(device_id, day), fields)  # error: BAT001
    return [float(value or 0.0) for value in values]


def hourly_rollup(device_id: str, day: str) -> dict[str, float]:
    """Nightly: fold the per-minute sums into hourly averages."""
    minutes_key = keys.minute_buckets(device_id, day)
    sums = [0.0] * 24
    for minute in range(1440):
        raw = cluster.hget(minutes_key, str(minute))  # error: BAT002
        if raw is not None:
            sums[minute // 60] += float(raw)
    averages = {str(hour): total / 60 for hour, total in enumerate(sums)}
    hourly_key = keys.hourly(device_id, day)
    pipe = cluster.pipeline(transaction=False)
    pipe.hset(hourly_key, mapping=averages)
    pipe.expire(hourly_key, ROLLUP_TTL)
    pipe.execute()
    return averages


def hourly_series(device_id: str, day: str) -> list[float]:
    values = cluster.hmget(keys.hourly(device_id, day), [str(hour) for hour in range(24)])
    return [float(value or 0.0) for value in values]


def publish_snapshots(device_id: str, day: str, averages: list[float]) -> None:
    """Wall displays poll one small string per hour; they live a day."""
    for hour in range(24):
        snapshot = f"device:{{{device_id}}}:snapshot:{day}-{hour}"
        cluster.setex(snapshot, SNAPSHOT_TTL, averages[hour])  # error: TTL007, KEY010


def backfill_day(device_id: str, day: str, samples: list[float]) -> None:
    """Re-import a day from the data lake: one reading per minute."""
    stream = keys.readings(device_id, day)
    start_ms = int(datetime.strptime(day, "%Y%m%d").replace(tzinfo=timezone.utc).timestamp() * 1000)
    pipe = cluster.pipeline(transaction=False)
    for minute in range(1440):
        pipe.xadd(stream, {"value": str(samples[minute])}, id=f"{start_ms + minute * 60_000}-0")
    pipe.expire(stream, RETENTION)
    pipe.execute()  # error: BAT003


def prime_dashboard_tiles(device_ids: list[str], tiles: dict[str, bytes]) -> None:
    """Before the morning shift: pre-render every device's dashboard tile for 10 minutes."""
    pipe = cluster.pipeline(transaction=False)
    for device_id in device_ids:
        pipe.psetex(f"device:{{{device_id}}}:tile", 600_000, tiles[device_id])  # error: TTL007
    pipe.execute()
