"""Celery tasks that write in bulk: imports, backfills, nightly resets."""

from __future__ import annotations

from celery import shared_task

from .redis_conn import get_client, get_queue_client

CHUNK = 100


@shared_task
def import_followers(user_id: int, follower_ids: list[int]) -> None:
    r = get_client()
    for start in range(0, len(follower_ids), CHUNK):
        r.sadd(f"follow:followers:{user_id}", *follower_ids[start : start + CHUNK])


@shared_task
def import_following(user_id: int, followed_ids: list[int]) -> None:
    get_client().sadd(f"follow:following:{user_id}", *followed_ids)


@shared_task
def backfill_like_counters() -> None:
    """Create a zero counter for every post of the first import (ids 1..50000)."""
    r = get_client()
    pipe = r.pipeline(transaction=False)
    for post_id in range(1, 50_001):
        pipe.set(f"counter:likes:{post_id}", 0, nx=True)
    pipe.execute()  # error: BAT003


@shared_task
def backfill_view_counters() -> None:
    """The same for views, flushed every 200 commands."""
    r = get_client()
    pipe = r.pipeline(transaction=False)
    for post_id in range(1, 50_001):
        pipe.set(f"counter:views:{post_id}", 0, nx=True)
        if post_id % 200 == 0:
            pipe.execute()
    pipe.execute()


@shared_task
def reset_daily_scores() -> None:
    r = get_client()
    for shard in range(512):
        r.delete(f"counter:daily_score:{shard}")  # error: BAT002


@shared_task
def reset_weekly_scores() -> None:
    r = get_client()
    r.unlink(*[f"counter:weekly_score:{shard}" for shard in range(64)])


@shared_task
def seed_trending() -> None:
    r = get_client()
    r.mset({f"counter:trending:{slot}": 0 for slot in range(500)})  # error: BAT001


@shared_task
def seed_regions() -> None:
    r = get_client()
    r.mset({f"counter:region:{region}": 0 for region in ("eu", "us", "apac")})


def like_counts(post_ids: list[int]) -> list[bytes | None]:
    r = get_client()
    counts: list[bytes | None] = []
    for start in range(0, len(post_ids), CHUNK):
        chunk = post_ids[start : start + CHUNK]
        counts.extend(r.mget([f"counter:likes:{pid}" for pid in chunk]))
    return counts


def view_counts(post_ids: list[int]) -> list[bytes | None]:
    r = get_client()
    return r.mget([f"counter:views:{pid}" for pid in post_ids[:1000]])  # error: BAT001


@shared_task
def enqueue_digests(user_ids: list[int]) -> None:
    q = get_queue_client()
    for start in range(0, len(user_ids), CHUNK):
        q.rpush("queue:digest", *user_ids[start : start + CHUNK])


@shared_task
def send_digests() -> None:
    """Long-running worker: one digest at a time from the queue."""
    q = get_queue_client()
    while True:
        item = q.blpop("queue:digest")  # error: PUB001
        if item is None:
            continue
        _queue, user_id = item
        print("digest for", int(user_id))


@shared_task
def send_digests_v2() -> None:
    q = get_queue_client()
    while True:
        item = q.blpop(["queue:digest"], timeout=30)
        if item is not None:
            print("digest for", int(item[1]))
