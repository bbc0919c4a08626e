"""Cleanup tasks: drafts, old timelines, deleted accounts."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from celery import shared_task

from .redis_conn import get_client


@shared_task
def purge_expired_drafts() -> int:
    r = get_client()
    removed = 0
    for key in r.scan_iter(match="post:draft:*", count=500):
        if r.hget(key, "published") == b"1":
            r.unlink(key)
            removed += 1
    return removed


@shared_task
def purge_inactive_timelines(active_user_ids: set[int]) -> None:
    r = get_client()
    for key in r.keys("feed:timeline:*"):  # error: CMD001
        if int(key.rsplit(b":", 1)[1]) not in active_user_ids:
            r.unlink(key)


@shared_task
def purge_tags() -> None:
    r = get_client()
    for key in r.scan_iter(match="tag:*"):  # error: CMD010
        r.delete(key)


def drop_timeline(user_id: int) -> None:
    get_client().delete(f"feed:timeline:{user_id}")  # error: CMD008


def drop_post(post_id: int) -> None:
    r = get_client()
    r.delete(f"post:body:{post_id}")  # error: CMD008
    r.delete(f"counter:likes:{post_id}", f"counter:views:{post_id}")
    r.unlink(f"likes:post:{post_id}")


def drop_account(user_id: int) -> None:
    r = get_client()
    r.unlink(f"follow:followers:{user_id}", f"follow:following:{user_id}", f"feed:timeline:{user_id}")


def shrink_followers(user_id: int, keep: set[bytes]) -> None:
    """Remove followers in small batches (SSCAN + SREM) instead of rebuilding the set."""
    r = get_client()
    key = f"follow:followers:{user_id}"
    batch: list[bytes] = []
    for member in r.sscan_iter(key, count=200):
        if member not in keep:
            batch.append(member)
        if len(batch) == 100:
            r.srem(key, *batch)
            batch.clear()
    if batch:
        r.srem(key, *batch)


@shared_task
def export_and_remove(user_id: int) -> str:
    """Write the user's timeline to a file for the export e-mail, then remove the temporary file later."""
    r = get_client()
    handle, name = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(handle, "w") as out:
        for post_id in r.lrange(f"feed:timeline:{user_id}", 0, 799):
            out.write(post_id.decode() + "\n")
    return name


def remove_export(name: str) -> None:
    path = Path(name)
    if path.exists():
        os.unlink(path)


@shared_task
def reset_staging() -> None:
    if os.environ.get("DJANGO_ENV") != "staging":
        raise RuntimeError("staging only")
    get_client().flushdb(asynchronous=True)  # ASYNC: accepted by the default preset (002), banned by strict (001)
