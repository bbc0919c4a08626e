"""Nightly and periodic maintenance: clean-ups, roll-ups, cache warming and the e-mail consumer."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import dramatiq
import redis
from celery.schedules import crontab

from .broker import app, r, reports_queue

SHARDS = 512
PARTS = 256
DAY_TTL = 86400


@app.on_after_configure.connect
def schedule(sender: Any, **_: Any) -> None:
    sender.add_periodic_task(crontab(hour=3, minute=0), purge_expired_exports.s())
    sender.add_periodic_task(crontab(hour=3, minute=30), rollup_shards.s())


@app.task
def purge_expired_exports() -> int:
    stale = r.keys("export:file:*")  # error: CMD001
    if stale:
        r.delete(*stale)
    return len(stale)


@app.task
def purge_temp_uploads() -> int:
    removed = 0
    for key in r.scan_iter(match="tmp:upload:*", count=1000):
        r.unlink(key)
        removed += 1
    return removed


@app.task
def purge_guest_sessions() -> int:
    removed = 0
    for key in r.scan_iter(match="session:guest:*"):  # error: CMD010
        if r.ttl(key) == -1:
            r.unlink(key)
            removed += 1
    return removed


@app.task
def reset_sandbox() -> None:
    sandbox = redis.Redis.from_url(os.environ["SANDBOX_REDIS_URL"])
    sandbox.flushall()  # error: CMD002


@app.task
def reset_sandbox_quietly() -> None:
    sandbox = redis.Redis.from_url(os.environ["SANDBOX_REDIS_URL"])
    sandbox.flushdb(asynchronous=True)


@app.task
def rollup_shards() -> int:
    total = 0
    for shard in range(SHARDS):
        total += int(r.get(f"stats:counter:shard:{shard}") or 0)  # error: BAT002
    r.set("stats:counter:total", total, ex=DAY_TTL + random.randint(0, 3600))
    return total


@app.task
def rollup_shards_batched() -> int:
    total = 0
    for start in range(0, SHARDS, 100):
        names = [f"stats:counter:shard:{shard}" for shard in range(start, min(start + 100, SHARDS))]
        total += sum(int(v or 0) for v in r.mget(names))
    return total


@app.task
def rebuild_daily_totals(day: str) -> int:
    pipe = r.pipeline(transaction=False)
    for hour in range(24):
        for minute in range(60):
            pipe.get(f"stats:minute:{day}{hour:02d}{minute:02d}")
    counts = pipe.execute()  # error: BAT003
    return sum(int(c or 0) for c in counts)


@app.task
def warm_counters() -> None:
    with r.pipeline(transaction=False) as pipe:
        for shard in range(100):
            pipe.set(f"stats:counter:shard:{shard}", 0, ex=DAY_TTL + random.randint(0, 3600))


@app.task
def reindex_users(user_ids: list[int]) -> list[Any]:
    emails: list[Any] = []
    for start in range(0, len(user_ids), 200):
        chunk = user_ids[start : start + 200]
        with r.pipeline(transaction=False) as pipe:
            for uid in chunk:
                pipe.hget(f"user:profile:{uid}", "email")
            emails.extend(pipe.execute())
    return emails


@app.task
def seed_leaderboards(seasons: int = 4) -> None:
    for season in range(1, seasons + 1):
        pipe = r.pipeline(transaction=False)
        for rank in range(100):
            pipe.zadd(f"leaderboard:season:{season}", {f"bot_{rank}": 0})
        pipe.expire(f"leaderboard:season:{season}", 30 * DAY_TTL)  # error: TTL007
        pipe.execute()


@app.task
def drop_report(report_id: int) -> None:
    r.delete(*[f"report:part:{report_id}:{n}" for n in range(PARTS)])  # error: BAT001


@app.task
def drop_report_in_chunks(report_id: int) -> None:
    names = [f"report:part:{report_id}:{n}" for n in range(PARTS)]
    for start in range(0, len(names), 100):
        r.unlink(*names[start : start + 100])


def consume_emails() -> None:
    while True:
        item = r.brpop(["queue:emails", "queue:sms"], timeout=0)  # error: PUB001
        if item is None:
            continue
        _, raw = item
        send_email.send(json.loads(raw))


def consume_emails_politely(stop: Any) -> None:
    while not stop.is_set():
        item = r.blpop(["queue:emails"], timeout=5)
        if item is not None:
            send_email.send(json.loads(item[1]))


def enqueue_email(message: dict[str, str]) -> None:
    r.lpush("queue:emails", json.dumps(message))
    r.ltrim("queue:emails", 0, 49_999)


@dramatiq.actor(max_retries=5, time_limit=60_000)
def send_email(message: dict[str, str]) -> None:
    reports_queue.enqueue("jobs.reports.render", message.get("report_id"), job_timeout=600)
