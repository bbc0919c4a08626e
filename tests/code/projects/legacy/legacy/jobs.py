# -*- coding: utf-8 -*-
# ruff: noqa: UP009, UP031, SIM115 -- Python 2 era code, ported line by line
"""Cron jobs and the credit ledger (run by `python -m legacy.jobs <name>`)."""

import queue
import shelve
import sys
import threading
import time

import memcache
import redis

from legacy.db import get_conn

CREDITS_KEY = "legacy:credits:%s"
CHECKPOINT_FILE = "/var/lib/portal/jobs.shelve"

mc = memcache.Client(["127.0.0.1:11211"], debug=0)
work = queue.Queue()


def transfer_credits(src, dst, amount):
    """Optimistic locking, the way the redis-py 2.x README showed it."""
    r = get_conn()
    pipe = r.pipeline()
    while True:
        try:
            pipe.watch(CREDITS_KEY % src)  # WATCH precedes the MULTI reported below: one transaction, one finding
            balance = int(pipe.get(CREDITS_KEY % src) or 0)
            if balance < amount:
                pipe.unwatch()
                return False
            pipe.multi()  # error: CMD007
            pipe.decrby(CREDITS_KEY % src, amount)
            pipe.incrby(CREDITS_KEY % dst, amount)
            pipe.execute()
            return True
        except redis.WatchError:
            continue


def grant_bonus(uids, amount):
    r = get_conn()
    pipe = r.pipeline(transaction=True)  # error: CMD007
    for uid in uids:
        pipe.incrby(CREDITS_KEY % uid, amount)
    pipe.execute()


def grant_bonus_batched(uids, amount):
    r = get_conn()
    pipe = r.pipeline(transaction=False)
    for uid in uids[:100]:
        pipe.incrby(CREDITS_KEY % uid, amount)
    pipe.execute()


def reset_counters():
    r = get_conn()
    for shard in range(1000):
        r.delete("legacy:counter:shard:%d" % shard)  # error: BAT002


def export_names():
    r = get_conn()
    names = r.mget(["legacy:user:%d:name" % uid for uid in range(1, 2001)])  # error: BAT001
    return [name for name in names if name]


def export_some_names():
    r = get_conn()
    return r.mget(["legacy:user:%d:name" % uid for uid in range(1, 51)])


def cache_profile(uid, html):
    """Rendered profiles go to memcached (set(key, value, time)), not Redis."""
    mc.set("legacy:profile:%s" % uid, html, 600)
    mc.delete("legacy:profile_old:%s" % uid)


def checkpoint(name, value):
    db = shelve.open(CHECKPOINT_FILE)
    try:
        db[name] = value
        return sorted(db.keys())
    finally:
        db.close()


def worker():
    while True:
        job = work.get()
        if job is None:
            break
        job()
        work.task_done()


def run_pool(jobs, threads=4):
    for _ in range(threads):
        threading.Thread(target=worker, daemon=True).start()
    for job in jobs:
        work.put(job)
    work.join()


if __name__ == "__main__":
    started = time.time()
    name = sys.argv[1] if len(sys.argv) > 1 else "reset_counters"
    globals()[name]()
    print("%s done in %.1fs" % (name, time.time() - started))
