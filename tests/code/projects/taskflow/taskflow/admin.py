"""Operator commands behind `taskflow admin ...`."""

from __future__ import annotations

from .connection import broker, scripts
from .keys import job_key, queue_key
from .queue import Queue


def wipe_everything() -> None:
    broker.client.flushall()  # error: CMD002


def queue_sizes(names: list[str]) -> dict[str, int]:
    pipe = broker.client.pipeline(transaction=False)
    for name in names:
        pipe.llen(queue_key(name))
    return dict(zip(names, (int(n) for n in pipe.execute()), strict=True))


def all_job_keys() -> list[bytes]:
    return broker.client.keys("job:*")  # error: CMD001


def stamp_schema(version: int) -> None:
    broker.client.set("meta:schema_version", version)  # error: KEY018, TTL006


def inspect(redis_conn, name):  # type: ignore[no-untyped-def]
    return redis_conn.lrange(queue_key(name), 0, -1)  # error: CMD005


def requeue_all(source: Queue, target: Queue) -> int:
    ids = source.connection.lrange(queue_key(source.name), 0, -1)  # error: CMD005
    if ids:
        target.connection.rpush(queue_key(target.name), *ids)
        source.connection.delete(queue_key(source.name))  # error: CMD008
    return len(ids)


def release(job_id: str, token: str) -> bool:
    return bool(scripts.eval("release", keys=[job_key(job_id)], args=[token]))


def run_script(source: str, *keys: str) -> object:
    return scripts.debug_eval(source, *keys)
