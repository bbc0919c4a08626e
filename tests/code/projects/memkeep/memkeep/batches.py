"""Batch jobs: writes to keys the job read first are updates; written keys get their EXPIRE in a loop."""
# ruff: noqa: B905, C404 -- an unchecked zip and `dict([...])` are the shapes this module is about

import random

import redis

client = redis.Redis(host="memory")


def add_hashes(batch_keys):
    pipe = client.pipeline(transaction=False)
    for key in batch_keys:
        pipe.hgetall(key)  # error: CMD005
    results = pipe.execute()
    update = client.pipeline(transaction=False)
    for j, result in enumerate(results):
        if result:
            update.hset(batch_keys[j], "digest", len(result))
    update.execute()


def touch(ids, now):
    keys = [f"mem:doc:{doc_id}" for doc_id in ids]
    pipe = client.pipeline(transaction=False)
    for key in keys:
        pipe.hget(key, "seen")
    stamps = pipe.execute()
    to_update = []
    for key, seen in zip(keys, stamps):
        if seen is None:
            to_update.append((key, now))
    pipe = client.pipeline(transaction=False)
    for key, stamp in to_update:
        pipe.hset(key, "seen", stamp)
        pipe.hincrby(key, "hits", 1)
    pipe.execute()


def cache_results(cache_keys, value, ttl):
    values = dict([(key, value) for key in cache_keys])
    with client.pipeline() as pipe:
        pipe.mset(values)
        for cache_key in cache_keys:
            pipe.expire(cache_key, ttl + random.randint(0, 60))
        pipe.execute()


def mark_seen(cache_keys):
    pipe = client.pipeline(transaction=False)
    pipe.mset(dict.fromkeys(cache_keys, 1))
    for key in cache_keys:
        pipe.expire(key, 600 + random.randint(0, 60))
    pipe.execute()


def first_only(keys):
    client.get(keys[1])
    client.hset(keys[0], "seen", 1)  # error: TTL006
