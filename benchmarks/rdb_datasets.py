"""The three RDB dumps the offline-audit throughput benchmark reads, built once with the local Redis 7.0.

Each dump is written by a throwaway Debian `redis-server` 7.0 (/usr/bin/redis-server, started through
tests/support/servers.py on a free 127.0.0.1 port, persistence off, stopped by its PID), filled through one
`redis-cli --pipe` stream of raw RESP (the fastest way in: this process only encodes, redis-cli does the
socket work on the other CPU) and saved with SAVE straight into the cache directory:

  a    element-heavy, ~240 MB, ~420 k keys in db 0 and db 1, ~78 k with a TTL, LFU policy (FREQ written):
       raw/embstr/int strings (int64 too), LZF-compressible and incompressible 2-30 KB blobs; listpack and
       hashtable hashes (275 of 500-5,000 fields); quicklists incl. 100 of 10-50 k items, 20 of them
       LZF-compressed (list-compress-depth 1) and 5 with PLAIN nodes; 16/32/64-bit intsets, hashtable sets;
       listpack and skiplist zsets with -inf/+inf; 201 streams with groups, consumers, PEL and XDEL; a function
  b    key-heavy, ~400 MB, 2,800,020 small keys, ~625 k with a TTL, LRU policy (IDLE written): 1.5 M JSON-ish
       strings, 500 k listpack hashes, 300 k intsets, 200 k listpack zsets, 300 k lists, 20 hashes of 50 k
  c    hashtable-heavy, ~75 MB, 330,650 keys: hash/zset listpacks and intsets disabled (hashtable and skiplist
       only, what RDB <= 9 can hold), strings, no lists, streams or functions
  b2   b at twice the size (5.6 M keys, ~800 MB), for the RSS curve only (`--with b2`)
  b10  b at ten times the size (28 M keys, ~4 GB; the server needs ~8 GB of RAM), for the RSS curve only
       (`--with b10`)
  probe  a few keys of every type (< 1 MB): lets the benchmark check quickly that a scanner works at all

PLAIN quicklist nodes: Redis 7.0 makes a node PLAIN only for an element >= its packed threshold, 1 GB by
default (not list-max-listpack-size); `DEBUG QUICKLIST-PACKED-THRESHOLD 8192` (the server runs with
--enable-debug-command yes) lowers it while the 5 lists with 9-20 KB elements are written.

Content is deterministic: every part has its own seeded random.Random, and expiries are fixed absolute times
(2031-2032, PEXPIREAT) rather than "now + TTL". The bytes of the file are not: the key order follows the
server's dict hashing (seeded per process), LFU/LRU values, ctime and stream delivery times vary.

Built here (7.0.15): a 242.8 MB, 419,929 keys (db0 381,781, db1 38,148), 77,737 with TTL, 49 s; b 407.7 MB,
2,800,020 keys, 623,634 with TTL, 42 s; c 73.7 MB, 330,650 keys, 14 s; b2 821.4 MB, 5,600,040 keys, 147 s.

A dump is reused when `<name>.rdb` and `<name>.json` (its metadata: generator version, size, keys and
expires per db, encodings) are in the cache directory with the current GENERATOR_VERSION and size.

    .venv/bin/python benchmarks/rdb_datasets.py [--dir ~/.cache/rediscipline-bench] [--only a,b,c] [--with b2,b10]
                                                 [--force]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests.support.servers: the project's way to run a real server

from tests.support.servers import ServerProcess, binary_version, start_server  # noqa: E402

GENERATOR_VERSION = 1  # bump whenever a fill changes, so that cached dumps are rebuilt
DEFAULT_DIR = Path("~/.cache/rediscipline-bench")
NAMES = ("a", "b", "c", "b2", "b10", "probe")
DEFAULT_NAMES = ("a", "b", "c")
REDIS_CLI = Path("/usr/bin/redis-cli")
CENSUS_MAX_KEYS = 1_000_000  # TYPE + OBJECT ENCODING of every key only below this (b would take ~30 s)

EXPIRE_BASE_MS = 1_924_992_000_000  # 2031-01-01 UTC: fixed, so the content does not depend on the build day
EXPIRE_SPAN_MS = 365 * 86_400_000
STREAM_BASE_MS = 1_700_000_000_000
PACKED_THRESHOLD_DEFAULT = 1 << 30

Arg = bytes | str | int | float


# ---- RESP into redis-cli --pipe ------------------------------------------------------------------------------


def resp(args: Sequence[Arg]) -> bytes:
    """One command as a RESP array of bulk strings (floats as repr: 'inf' and '-inf' are valid scores)."""
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        if isinstance(arg, bytes):
            data = arg
        elif isinstance(arg, str):
            data = arg.encode()
        elif isinstance(arg, float):
            data = repr(arg).encode()
        else:
            data = b"%d" % arg
        out.append(b"$%d\r\n%b\r\n" % (len(data), data))
    return b"".join(out)


class Feed:
    """Buffers commands and writes them to redis-cli's stdin in ~1 MB chunks."""

    CHUNK = 1 << 20

    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.parts: list[bytes] = []
        self.size = 0
        self.commands = 0

    def cmd(self, *args: Arg) -> None:
        data = resp(args)
        self.parts.append(data)
        self.size += len(data)
        self.commands += 1
        if self.size >= self.CHUNK:
            self.flush()

    def expire_maybe(self, key: bytes, rng: random.Random, share: float) -> None:
        if rng.random() < share:
            self.cmd("PEXPIREAT", key, EXPIRE_BASE_MS + rng.randrange(EXPIRE_SPAN_MS))

    def flush(self) -> None:
        if self.parts:
            self.out.write(b"".join(self.parts))
            self.parts, self.size = [], 0


# ---- value material ------------------------------------------------------------------------------------------

HEX = random.Random(0).randbytes(1 << 17).hex().encode()  # 256 KB: slices compress badly under LZF
RAW = random.Random(1).randbytes(1 << 16)  # binary noise: incompressible blobs
WORD_TEXT = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
    "quebec romeo sierra tango uniform victor whiskey xray yankee zulu red green blue cyan magenta yellow "
    "black white orange purple silver gold north south east west spring summer autumn winter monday "
    "tuesday wednesday thursday friday saturday sunday paris london berlin madrid rome tokyo seoul lima "
    "order cart item price stock user admin guest session token cache page view click event metric"
)
WORDS = WORD_TEXT.encode().split()  # text made of these compresses well under LZF
CITIES = [b"paris", b"london", b"berlin", b"madrid", b"rome", b"tokyo", b"seoul", b"lima", b"oslo", b"cairo"]


def hex_slice(rng: random.Random, size: int) -> bytes:
    start = rng.randrange(len(HEX) - size)
    return HEX[start : start + size]


def raw_slice(rng: random.Random, size: int) -> bytes:
    reps = size // len(RAW) + 1
    data = RAW * reps if reps > 1 else RAW
    start = rng.randrange(len(data) - size + 1)
    return data[start : start + size]


def words(rng: random.Random, n: int) -> bytes:
    return b" ".join(rng.choices(WORDS, k=n))


def json_doc(rng: random.Random, ident: int) -> bytes:
    """A small JSON object of ~100-170 bytes: what application caches typically hold."""
    name = rng.choice(WORDS) + b"_" + rng.choice(WORDS)
    tags = b",".join(b'"%s"' % t for t in rng.choices(WORDS, k=rng.randint(0, 4)))
    return b'{"id":%d,"name":"%s","age":%d,"city":"%s","active":%s,"score":%d.%02d,"tags":[%s],"ref":"%s"}' % (
        ident,
        name,
        rng.randint(18, 90),
        rng.choice(CITIES),
        b"true" if rng.random() < 0.7 else b"false",
        rng.randrange(10_000),
        rng.randrange(100),
        tags,
        hex_slice(rng, rng.randint(0, 8)),
    )


def json_blob(rng: random.Random, size: int) -> bytes:
    """A JSON array of records, `size` bytes or a little more: repeated field names make it LZF-compressible."""
    parts: list[bytes] = []
    total = 0
    ident = rng.randrange(1_000_000)
    while total < size:
        part = json_doc(rng, ident)
        ident += 1
        parts.append(part)
        total += len(part) + 1
    return b"[" + b",".join(parts) + b"]"


def scaled(n: int, scale: float) -> int:
    return max(1, round(n * scale))


def chunks(items: list[Any], size: int) -> Iterator[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i : i + size]


# ---- dataset A: element-heavy --------------------------------------------------------------------------------


def fill_strings(feed: Feed, rng: random.Random, prefix: bytes, n: int, ttl: float) -> None:
    """embstr (<= 44 B) and raw (45-400 B) strings, half hex noise and half words."""
    for i in range(n):
        key = b"%s:%d" % (prefix, i)
        size = rng.randint(4, 44) if i % 2 else rng.randint(45, 400)
        value = hex_slice(rng, size) if rng.random() < 0.5 else words(rng, size // 6 + 1)[:size]
        feed.cmd("SET", key, value)
        feed.expire_maybe(key, rng, ttl)


def fill_ints(feed: Feed, rng: random.Random, prefix: bytes, n: int, ttl: float) -> None:
    for i in range(n):
        key = b"%s:%d" % (prefix, i)
        kind = i % 4
        if kind == 0:
            value = rng.randrange(10_000)  # shared integers
        elif kind == 1:
            value = rng.randrange(-(2**31), 2**31)
        elif kind == 2:
            value = rng.randrange(-(2**63), 2**63)  # int64
        else:
            value = rng.randrange(10**6, 10**12)
        feed.cmd("SET", key, value)
        feed.expire_maybe(key, rng, ttl)


def fill_listpack_hashes(feed: Feed, rng: random.Random, prefix: bytes, n: int, fields: tuple[int, int]) -> None:
    names = [b"name", b"email", b"city", b"status", b"plan", b"created", b"updated", b"owner", b"count", b"ref"]
    for i in range(n):
        key = b"%s:%d" % (prefix, i)
        args: list[Arg] = ["HSET", key]
        for f in range(rng.randint(*fields)):
            field_name = names[f] if f < len(names) else b"f%d" % f
            r = rng.random()
            value: Arg = rng.randrange(10**9) if r < 0.3 else hex_slice(rng, rng.randint(4, 40))
            args += [field_name, value]
        feed.cmd(*args)
        feed.expire_maybe(key, rng, 0.15)


def fill_big_hash(feed: Feed, rng: random.Random, key: bytes, fields: int, value_size: tuple[int, int]) -> None:
    for batch in chunks(list(range(fields)), 1000):
        args: list[Arg] = ["HSET", key]
        for f in batch:
            args += [b"field:%d" % f, hex_slice(rng, rng.randint(*value_size))]
        feed.cmd(*args)


def fill_list(feed: Feed, rng: random.Random, key: bytes, items: int, make: Callable[[], bytes]) -> None:
    for batch in chunks(list(range(items)), 1000):
        feed.cmd("RPUSH", key, *[make() for _ in batch])


def fill_intsets(feed: Feed, rng: random.Random, prefix: bytes, n: int, members: tuple[int, int]) -> None:
    for i in range(n):
        key = b"%s:%d" % (prefix, i)
        width = (2**15, 2**31, 2**63)[i % 3 if i % 5 else 0]  # mostly 16-bit, some 32/64-bit
        count = rng.randint(*members)
        feed.cmd("SADD", key, *[rng.randrange(-width, width) for _ in range(count)])
        feed.expire_maybe(key, rng, 0.15)


def fill_listpack_zsets(feed: Feed, rng: random.Random, prefix: bytes, n: int, members: tuple[int, int]) -> None:
    for i in range(n):
        key = b"%s:%d" % (prefix, i)
        args: list[Arg] = ["ZADD", key]
        for m in range(rng.randint(*members)):
            score: Arg = rng.randrange(100_000) if m % 2 else round(rng.random() * 1000, 3)
            args += [score, b"m%d" % rng.randrange(10_000_000)]
        feed.cmd(*args)
        feed.expire_maybe(key, rng, 0.15)


def fill_big_zset(feed: Feed, rng: random.Random, key: bytes, members: int, infinite: bool) -> None:
    for batch in chunks(list(range(members)), 1000):
        args: list[Arg] = ["ZADD", key]
        for m in batch:
            args += [rng.random() * 1e6, b"member:%d:%s" % (m, hex_slice(rng, 8))]
        feed.cmd(*args)
    if infinite:
        feed.cmd("ZADD", key, float("-inf"), b"floor", float("inf"), b"ceiling")


def fill_stream(feed: Feed, rng: random.Random, key: bytes, index: int, entries: int) -> None:
    """XADD with explicit ids; groups read part of it (PEL), acknowledge some, and a few entries are deleted."""
    base = STREAM_BASE_MS + index * 10_000_000
    fields = [b"event", b"user", b"amount", b"note"][: 2 + index % 3]
    for batch in chunks(list(range(entries)), 200):
        for e in batch:
            args: list[Arg] = ["XADD", key, b"%d-%d" % (base + e * 7, e % 3)]
            for name in fields:
                args += [name, rng.randrange(10**6) if name == b"amount" else words(rng, rng.randint(1, 3))]
            if e % 50 == 49:
                args += [b"extra", hex_slice(rng, 16)]  # a different field set: a non-master entry
            feed.cmd(*args)
    doomed = sorted(rng.sample(range(entries), max(1, entries // 50)))
    for batch in chunks(doomed, 200):
        feed.cmd("XDEL", key, *[b"%d-%d" % (base + e * 7, e % 3) for e in batch])
    for g in range(index % 4):  # 0-3 groups
        group = b"group:%d" % g
        feed.cmd("XGROUP", "CREATE", key, group, "0")
        for c in range(1 + (index + g) % 3):  # 1-3 consumers, each with pending entries
            consumer, count = b"consumer:%d" % c, rng.randint(10, 150)
            feed.cmd("XREADGROUP", "GROUP", group, consumer, "COUNT", count, "STREAMS", key, ">")
        acked = [b"%d-%d" % (base + e * 7, e % 3) for e in range(0, min(entries, 40), 3)]
        feed.cmd("XACK", key, group, *acked)


def fill_a(feed: Feed, scale: float) -> None:
    rng = random.Random(100)
    fill_strings(feed, random.Random(101), b"cache:page:id", scaled(178_500, scale), 0.20)
    fill_ints(feed, random.Random(102), b"stats:counter:id", scaled(60_000, scale), 0.10)
    r = random.Random(103)
    for i in range(scaled(3_000, scale)):  # LZF-compressible 2-30 KB JSON arrays
        feed.cmd("SET", b"blob:json:id:%d" % i, json_blob(r, r.randint(2_000, 30_000)))
    r = random.Random(104)
    for i in range(scaled(1_500, scale)):  # incompressible 2-30 KB
        feed.cmd("SET", b"blob:bin:id:%d" % i, raw_slice(r, r.randint(2_000, 30_000)))
    fill_listpack_hashes(feed, random.Random(105), b"user:profile:uid", scaled(60_000, scale), (3, 20))
    r = random.Random(106)
    for i in range(scaled(275, scale)):
        fill_big_hash(feed, r, b"catalog:items:shard:%d" % i, r.randint(500, 5_000), (4, 16))
    r = random.Random(107)
    for i in range(scaled(30_000, scale)):
        key = b"chat:messages:room:%d" % i
        feed.cmd("RPUSH", key, *[hex_slice(r, r.randint(8, 40)) for _ in range(r.randint(2, 30))])
        feed.expire_maybe(key, r, 0.2)
    r = random.Random(108)
    for i in range(scaled(80, scale)):
        fill_list(feed, r, b"log:events:day:%d" % i, r.randint(10_000, 50_000), lambda: hex_slice(r, r.randint(4, 16)))
    feed.cmd("CONFIG", "SET", "list-compress-depth", "1")
    for i in range(scaled(20, scale)):
        fill_list(feed, r, b"log:archive:day:%d" % i, r.randint(10_000, 50_000), lambda: words(r, r.randint(2, 6)))
    feed.cmd("CONFIG", "SET", "list-compress-depth", "0")
    feed.cmd("DEBUG", "QUICKLIST-PACKED-THRESHOLD", "8192")
    for i in range(scaled(5, scale)):
        key = b"media:frames:clip:%d" % i
        for _ in range(40):
            feed.cmd("RPUSH", key, hex_slice(r, r.randint(10, 50)), raw_slice(r, r.randint(9_000, 20_000)))
    feed.cmd("DEBUG", "QUICKLIST-PACKED-THRESHOLD", PACKED_THRESHOLD_DEFAULT)
    fill_intsets(feed, random.Random(109), b"user:followers:uid", scaled(20_000, scale), (5, 300))
    r = random.Random(110)
    for i in range(scaled(3_000, scale)):
        key = b"tag:members:tag:%d" % i
        feed.cmd("SADD", key, *[b"user:%d" % r.randrange(10**7) for _ in range(r.randint(100, 600))])
    fill_listpack_zsets(feed, random.Random(111), b"leaderboard:score:game", scaled(25_000, scale), (3, 60))
    r = random.Random(112)
    for i in range(scaled(200, scale)):
        fill_big_zset(feed, r, b"ranking:global:season:%d" % i, r.randint(500, 5_000), infinite=i % 4 == 0)
    r = random.Random(113)
    for i in range(scaled(201, scale)):
        fill_stream(feed, r, b"events:stream:shard:%d" % i, i, r.randint(300, 6_000))
    feed.cmd(
        "FUNCTION",
        "LOAD",
        "#!lua name=benchlib\nredis.register_function('bench_echo', function(keys, args) return args[1] end)",
    )
    feed.cmd("SELECT", 1)
    fill_strings(feed, random.Random(120), b"job:result:id", scaled(25_000, scale), 0.5)
    fill_listpack_hashes(feed, random.Random(121), b"job:meta:id", scaled(8_000, scale), (3, 20))
    fill_intsets(feed, random.Random(122), b"job:deps:id", scaled(3_000, scale), (3, 50))
    fill_listpack_zsets(feed, random.Random(123), b"job:queue:prio", scaled(2_000, scale), (3, 30))
    for i in range(scaled(148, scale)):
        feed.cmd("RPUSH", b"job:log:id:%d" % i, *[words(rng, 4) for _ in range(rng.randint(2, 200))])
    feed.cmd("SELECT", 0)


# ---- dataset B: key-heavy ------------------------------------------------------------------------------------


def fill_b(feed: Feed, scale: float) -> None:
    r = random.Random(200)
    for i in range(scaled(1_500_000, scale)):
        key = b"cache:user:uid:%d" % i
        if r.random() < 0.28:
            feed.cmd("SET", key, json_doc(r, i), "PXAT", EXPIRE_BASE_MS + r.randrange(EXPIRE_SPAN_MS))
        else:
            feed.cmd("SET", key, json_doc(r, i))
    r = random.Random(201)
    for i in range(scaled(500_000, scale)):
        key = b"session:data:sid:%d" % i
        args: list[Arg] = ["HSET", key]
        for f in range(r.randint(3, 8)):
            args += [b"f%d" % f, r.randrange(10**6) if f % 2 else hex_slice(r, r.randint(4, 16))]
        feed.cmd(*args)
        feed.expire_maybe(key, r, 0.25)
    r = random.Random(202)
    for i in range(scaled(300_000, scale)):
        key = b"user:groups:uid:%d" % i
        feed.cmd("SADD", key, *[r.randrange(100_000) for _ in range(r.randint(3, 20))])
        feed.expire_maybe(key, r, 0.10)
    r = random.Random(203)
    for i in range(scaled(200_000, scale)):
        key = b"game:scores:gid:%d" % i
        args = ["ZADD", key]
        for _ in range(r.randint(3, 12)):
            args += [r.randrange(100_000), b"p%d" % r.randrange(1_000_000)]
        feed.cmd(*args)
        feed.expire_maybe(key, r, 0.10)
    r = random.Random(204)
    for i in range(scaled(300_000, scale)):
        key = b"queue:tasks:qid:%d" % i
        feed.cmd("RPUSH", key, *[hex_slice(r, r.randint(8, 20)) for _ in range(r.randint(2, 10))])
        feed.expire_maybe(key, r, 0.10)
    r = random.Random(205)
    for i in range(scaled(20, scale)):
        fill_big_hash(feed, r, b"index:email:shard:%d" % i, 50_000, (6, 20))


# ---- dataset C: hashtable/skiplist-heavy ---------------------------------------------------------------------


def fill_c(feed: Feed, scale: float) -> None:
    fill_strings(feed, random.Random(300), b"cache:item:id", scaled(80_000, scale), 0.2)
    fill_ints(feed, random.Random(301), b"stats:hits:id", scaled(40_000, scale), 0.1)
    r = random.Random(302)
    for i in range(scaled(120_000, scale)):
        key = b"user:attrs:uid:%d" % i
        args: list[Arg] = ["HSET", key]
        for f in range(r.randint(3, 12)):
            args += [b"attr%d" % f, r.randrange(10**6) if f % 3 == 0 else hex_slice(r, r.randint(4, 24))]
        feed.cmd(*args)
        feed.expire_maybe(key, r, 0.2)
    r = random.Random(303)
    for i in range(scaled(50_000, scale)):
        key = b"user:likes:uid:%d" % i
        if i % 2:
            members: list[Arg] = [r.randrange(10**6) for _ in range(r.randint(3, 20))]
        else:
            members = [b"item:%d" % r.randrange(10**6) for _ in range(r.randint(3, 20))]
        feed.cmd("SADD", key, *members)
        feed.expire_maybe(key, r, 0.1)
    r = random.Random(304)
    for i in range(scaled(40_000, scale)):
        key = b"board:rank:bid:%d" % i
        args = ["ZADD", key]
        for _ in range(r.randint(3, 16)):
            args += [round(r.random() * 1000, 2), b"player:%d" % r.randrange(10**6)]
        feed.cmd(*args)
        feed.expire_maybe(key, r, 0.1)
    r = random.Random(305)
    for i in range(scaled(250, scale)):
        fill_big_hash(feed, r, b"catalog:sku:shard:%d" % i, r.randint(1_000, 2_200), (6, 30))
    for i in range(scaled(200, scale)):
        key = b"audience:segment:sid:%d" % i
        for batch in chunks(list(range(r.randint(1_000, 3_000))), 1000):
            feed.cmd("SADD", key, *[b"u:%d:%s" % (m, hex_slice(r, 6)) for m in batch])
    for i in range(scaled(200, scale)):
        fill_big_zset(feed, r, b"ranking:region:rid:%d" % i, r.randint(1_000, 2_500), infinite=i % 5 == 0)


def fill_probe(feed: Feed, scale: float) -> None:
    """A few keys of every type the benchmark's dumps hold: a quick "does the scanner work" input."""
    r = random.Random(900)
    fill_strings(feed, r, b"probe:str:id", 20, 0.5)
    fill_ints(feed, r, b"probe:int:id", 8, 0.0)
    fill_listpack_hashes(feed, r, b"probe:hash:id", 10, (2, 8))
    fill_big_hash(feed, r, b"probe:bighash:id:0", 300, (8, 20))
    fill_list(feed, r, b"probe:list:id:0", 500, lambda: hex_slice(r, 12))
    fill_intsets(feed, r, b"probe:set:id", 5, (3, 20))
    fill_listpack_zsets(feed, r, b"probe:zset:id", 5, (3, 20))
    fill_big_zset(feed, r, b"probe:bigzset:id:0", 300, infinite=True)
    fill_stream(feed, r, b"probe:stream:id:0", 3, 300)
    feed.cmd("FUNCTION", "LOAD", "#!lua name=probelib\nredis.register_function('probe_one', function() return 1 end)")


# ---- building ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    name: str
    fill: Callable[[Feed, float], None]
    scale: float
    server_args: tuple[str, ...]
    description: str


COMMON_ARGS = ("--enable-debug-command", "yes", "--rdbcompression", "yes", "--rdbchecksum", "yes")
SPECS = {
    "a": Spec("a", fill_a, 1.0, ("--maxmemory-policy", "allkeys-lfu"), "element-heavy"),
    "b": Spec("b", fill_b, 1.0, ("--maxmemory-policy", "allkeys-lru"), "key-heavy"),
    "c": Spec(
        "c",
        fill_c,
        1.0,
        ("--hash-max-listpack-entries", "0", "--zset-max-listpack-entries", "0", "--set-max-intset-entries", "0"),
        "hashtable-heavy",
    ),
    "b2": Spec("b2", fill_b, 2.0, ("--maxmemory-policy", "allkeys-lru"), "key-heavy x2 (RSS curve)"),
    "b10": Spec("b10", fill_b, 10.0, ("--maxmemory-policy", "allkeys-lru"), "key-heavy x10 (RSS curve)"),
    "probe": Spec("probe", fill_probe, 1.0, ("--maxmemory-policy", "allkeys-lfu"), "a few keys of every type"),
}


@dataclass
class Dataset:
    """A built dump and what the server held when it was saved (the JSON file next to it)."""

    name: str
    path: Path
    description: str
    generator: int
    bytes: int
    keys: int
    expires: int
    dbs: dict[str, dict[str, int]]
    server: str
    build_seconds: float
    used_memory: int
    encodings: dict[str, int] = field(default_factory=dict)

    @property
    def mb(self) -> float:
        return self.bytes / 1e6

    def summary(self) -> str:
        dbs = ", ".join(f"db{db} {v['keys']:,}" for db, v in sorted(self.dbs.items()))
        return (
            f"{self.name:<5} {self.mb:8.1f} MB  {self.keys:>10,} keys ({dbs}), {self.expires:,} with TTL;"
            f" {self.description}; redis {self.server}, used_memory {self.used_memory / 2**20:,.0f} MiB"
        )


def meta_path(folder: Path, name: str) -> Path:
    return folder / f"{name}.json"


def load_cached(folder: Path, name: str) -> Dataset | None:
    """The cached dump of `name` if it is complete and made by this GENERATOR_VERSION, else None."""
    try:
        data = json.loads(meta_path(folder, name).read_text())
        data["path"] = Path(data["path"])
        dataset = Dataset(**data)
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if dataset.generator != GENERATOR_VERSION or not dataset.path.is_file():
        return None
    if dataset.path.stat().st_size != dataset.bytes:
        return None
    return dataset


def pipe_into(server: ServerProcess, fill: Callable[[Feed], None]) -> int:
    """Run `fill` into `redis-cli --pipe`; returns the command count, raises on any error reply."""
    with tempfile.TemporaryFile() as out:
        cli = subprocess.Popen(
            [str(REDIS_CLI), "-h", server.host, "-p", str(server.port), "--pipe", "--pipe-timeout", "0"],
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        assert cli.stdin is not None
        feed = Feed(cli.stdin)
        try:
            fill(feed)
            feed.flush()
        finally:
            cli.stdin.close()
            code = cli.wait()
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    summary = [line for line in text.splitlines() if line.startswith("errors:")]
    if code != 0 or not summary or not summary[-1].startswith("errors: 0,"):
        errors = [line for line in text.splitlines() if line.startswith("ERR") or "error" in line.lower()]
        raise RuntimeError(f"redis-cli --pipe failed (exit {code}): {' | '.join(errors[:5])} ... {summary}")
    return feed.commands


def census(server: ServerProcess, dbs: Sequence[int]) -> dict[str, int]:
    """`type/encoding` → keys, from SCAN + TYPE + OBJECT ENCODING (pipelined): proves the shapes are right."""
    counts: Counter[str] = Counter()
    for db in dbs:
        with server.client(db=db) as client:
            cursor = 0
            while True:
                cursor, keys = client.scan(cursor, count=5_000)
                pipe = client.pipeline(transaction=False)
                for key in keys:
                    pipe.execute_command("TYPE", key)
                    pipe.execute_command("OBJECT", "ENCODING", key)
                replies = pipe.execute()
                for kind, encoding in zip(replies[::2], replies[1::2], strict=True):
                    counts[f"{kind.decode()}/{encoding.decode()}"] += 1
                if cursor == 0:
                    break
    return dict(sorted(counts.items()))


def build(spec: Spec, folder: Path) -> Dataset:
    """Start a server, fill it, SAVE straight into `folder`, record the metadata; the server is stopped by PID."""
    folder.mkdir(parents=True, exist_ok=True)
    part = f"{spec.name}.rdb.part"
    final = folder / f"{spec.name}.rdb"
    args = [*COMMON_ARGS, *spec.server_args, "--dir", str(folder), "--dbfilename", part]
    started = time.perf_counter()
    server = start_server("redis70", args, timeout=30)
    try:
        commands = pipe_into(server, lambda feed: spec.fill(feed, spec.scale))
        with server.client() as client:
            keyspace = client.info("keyspace")
            used = int(client.info("memory")["used_memory"])
            dbs = {
                name.removeprefix("db"): {"keys": int(v["keys"]), "expires": int(v["expires"])}
                for name, v in keyspace.items()
            }
            keys = sum(v["keys"] for v in dbs.values())
            encodings = census(server, [int(db) for db in dbs]) if keys <= CENSUS_MAX_KEYS else {}
        with server.client(socket_timeout=900) as client:
            client.save()
        os.replace(folder / part, final)
    finally:
        server.stop()
        (folder / part).unlink(missing_ok=True)
    seconds = time.perf_counter() - started
    dataset = Dataset(
        name=spec.name,
        path=final,
        description=spec.description,
        generator=GENERATOR_VERSION,
        bytes=final.stat().st_size,
        keys=keys,
        expires=sum(v["expires"] for v in dbs.values()),
        dbs=dbs,
        server=binary_version("redis70") or "?",
        build_seconds=round(seconds, 1),
        used_memory=used,
        encodings=encodings,
    )
    data = asdict(dataset)
    data["path"] = str(final)
    meta_path(folder, spec.name).write_text(json.dumps(data, indent=1) + "\n")
    print(f"  built {spec.name} in {seconds:.0f} s ({commands:,} commands)", flush=True)
    return dataset


def ensure(name: str, folder: Path, *, force: bool = False) -> Dataset:
    """The dump `name` in `folder`: the cached one when valid, else built now."""
    folder = folder.expanduser()
    if not force:
        cached = load_cached(folder, name)
        if cached is not None:
            return cached
    print(f"building {name} ({SPECS[name].description}) in {folder} ...", flush=True)
    return build(SPECS[name], folder)


def parse_names(text: str) -> list[str]:
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    unknown = [n for n in names if n not in SPECS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown dataset {', '.join(unknown)}; known: {', '.join(NAMES)}")
    return names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build (or reuse) the RDB dumps of the offline-audit benchmark.")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR, help=f"cache directory (default {DEFAULT_DIR})")
    parser.add_argument("--only", type=parse_names, default=list(DEFAULT_NAMES), help="e.g. a,c (default a,b,c)")
    parser.add_argument(
        "--with", dest="extra", type=parse_names, default=[], help="also b2 (b x2, ~800 MB) and/or b10 (b x10, ~4 GB)"
    )
    parser.add_argument("--force", action="store_true", help="rebuild even when a valid cached dump exists")
    args = parser.parse_args(argv)
    if not REDIS_CLI.exists() or binary_version("redis70") is None:
        print("needs Debian's redis-server and redis-cli 7.0: apt-get install redis-server", file=sys.stderr)
        return 2
    names = list(dict.fromkeys([*args.only, *args.extra, "probe"]))
    for name in names:
        dataset = ensure(name, args.dir, force=args.force)
        print(dataset.summary(), flush=True)
        if dataset.encodings:
            print("      " + ", ".join(f"{k} {v:,}" for k, v in dataset.encodings.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
