"""The 1M-key dump behind the HTML report benchmark: a keyspace that fills every chart of a scan report.

Built once with the local Redis 7.0 through benchmarks/rdb_datasets.py (`build`, `load_cached`: a throwaway
server, one `redis-cli --pipe` stream, SAVE into the cache directory) and reused while its name and
GENERATOR_VERSION there are unchanged: the cache does not see a change of `fill_report`, so rename
REPORT_SPEC (`report-1m-v2`) when the fill changes. Unlike the throughput dumps, the expiries are relative (`PX`): the
dump records the time it was saved (the `ctime` aux field) and a scan counts TTLs from then, so the expiry
timelines of the next 24 hours and of the next 30 days have data whenever the dump is read.

1,000,000 keys in db 0 and db 1: nine large namespaces of every type, 40 small services, and seeded mistakes
(names against the conventions, big strings and hashes, cache keys without TTL, non-UTF-8 names).
"""

from __future__ import annotations

import random

from rdb_datasets import Arg, Feed, Spec, fill_big_hash, hex_slice, json_doc, words

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS


def _ttl(rng: random.Random, low_ms: int, high_ms: int) -> int:
    return rng.randrange(low_ms, high_ms)


def fill_report(feed: Feed, scale: float) -> None:
    """Write the keyspace; `scale` multiplies every count (1.0: 1,000,000 keys plus ~1,100 seeded ones)."""

    def n(count: int) -> int:
        return max(1, round(count * scale))

    r = random.Random(500)
    for i in range(n(150_000)):
        fields: list[Arg] = []
        for name in (b"name", b"email", b"city", b"plan")[: r.randint(2, 4)]:
            fields += [name, hex_slice(r, r.randint(6, 24))]
        feed.cmd("HSET", b"user:profile:uid:%d" % i, *fields)
    for i in range(n(200_000)):  # expiring within the next 24 hours: the per-minute timeline
        feed.cmd("SET", b"cache:product:sku:%d" % i, json_doc(r, i), "PX", _ttl(r, MINUTE_MS, DAY_MS))
    for i in range(n(150_000)):
        feed.cmd("SET", b"session:token:sid:%d" % i, hex_slice(r, 32), "PX", _ttl(r, MINUTE_MS, 2 * HOUR_MS))
    for i in range(n(80_000)):  # expiring within 30 days: the per-hour timeline
        key = b"order:items:order_id:%d" % i
        feed.cmd("HSET", key, b"sku", r.randrange(10**6), b"qty", r.randint(1, 9), b"note", words(r, 3))
        feed.cmd("PEXPIRE", key, _ttl(r, DAY_MS, 30 * DAY_MS))
    for i in range(n(60_000)):
        key = b"feed:timeline:uid:%d" % i
        feed.cmd("RPUSH", key, *[hex_slice(r, 12) for _ in range(r.randint(2, 40))])
        if r.random() < 0.1:
            feed.cmd("PEXPIRE", key, _ttl(r, HOUR_MS, 7 * DAY_MS))
    for i in range(n(60_000)):
        feed.cmd("SADD", b"user:followers:uid:%d" % i, *[r.randrange(10**6) for _ in range(r.randint(1, 60))])
    for i in range(n(20_000)):
        args: list[Arg] = ["ZADD", b"leaderboard:score:game_id:%d" % i]
        for _ in range(r.randint(2, 80)):
            args += [r.randrange(10**5), b"player:%d" % r.randrange(10**6)]
        feed.cmd(*args)
    for i in range(n(100_000)):
        feed.cmd("SET", b"rate:limit:ip:%d" % i, r.randint(1, 100), "PX", _ttl(r, MINUTE_MS, 10 * MINUTE_MS))
    for service in range(40):  # small services, 2,500 keys each, a TTL profile each
        ttl_high = (HOUR_MS, DAY_MS, 30 * DAY_MS, 90 * DAY_MS, 0)[service % 5]
        for i in range(n(2_500)):
            key = b"svc%02d:cache:item_id:%d" % (service, i)
            if ttl_high:
                feed.cmd("SET", key, hex_slice(r, r.randint(10, 200)), "PX", _ttl(r, MINUTE_MS, ttl_high))
            else:
                feed.cmd("SET", key, hex_slice(r, r.randint(10, 200)))
    _fill_mistakes(feed, r)
    feed.cmd("SELECT", 1)
    for i in range(n(80_000)):
        feed.cmd("SET", b"job:result:job_id:%d" % i, words(r, 8), "PX", _ttl(r, HOUR_MS, 3 * DAY_MS))
    feed.cmd("SELECT", 0)


def _fill_mistakes(feed: Feed, r: random.Random) -> None:
    """The seeded keys: each kind is something a convention forbids."""
    for i in range(500):
        feed.cmd("SET", b"User Profile %d" % i, b"x")  # upper case and spaces
    for i in range(300):
        feed.cmd("SET", b"cache:page:html:%d" % i, words(r, 20))  # a cache key without TTL
    for i in range(200):
        feed.cmd("SET", b"tmp:" + b"very_long_segment_" * 20 + b"%d" % i, b"1")  # an overlong name
    for i in range(50):
        feed.cmd("SET", b"bin:\xff\xfe:%d" % i, b"1")  # not UTF-8
    for i in range(20):
        feed.cmd("SET", b"blob:export:file_id:%d" % i, hex_slice(r, 100_000) * 10)  # 1 MB strings
    for i in range(5):
        fill_big_hash(feed, r, b"index:email:shard:%d" % i, 20_000, (6, 20))


REPORT_SPEC = Spec("report-1m", fill_report, 1.0, ("--maxmemory-policy", "allkeys-lru"), "HTML report, 1M keys")
