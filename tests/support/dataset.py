"""A deterministic keyspace with seeded convention violations and its exact ground truth (the Manifest).

`populate(client, scale)` writes `scale` clean keys plus a fixed set of seeds through redis-py pipelines
(5,000 commands per round trip, no MULTI) and returns a `Manifest`: the clean key patterns with their counts,
and every seed as `Seed(rule, code, keys, db, pattern)` — the rule id expected to fire on those keys, its
code (None where the rule's code is not pinned down), and the pattern our inference gives the keys.

Clean keys follow every default rule, so any finding on them is a false positive:
- names `biz:entity:id`, lowercase, at most 50 bytes, in db 0, none under the `user:` prefix the KEY seeds use;
- every key expires in 6 hours to 4 days, each TTL jittered ±10% (no expiry cliff);
- strings under 1 KB that are neither JSON nor serialized; collections of at most 100 small elements, so they
  keep their compact encodings (listpack / ziplist / intset);
- no `<prefix>:<id>:<field>` string families.

The seeds are written by tests/support/seeds.py. A seed key may break more than one rule (a big collection
without TTL is VAL002 and TTL001); then it is in one Seed per rule and `Manifest.expected(db, key)` gives the
full set. TTL005 is expected only where the server's `lazyfree-lazy-expire` is `no` (Redis 6.2–8.2; Valkey 9
frees in the background by default).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import redis

from tests.support.seeds import (
    BATCH,
    DAY,
    HOUR,
    IDLE_SECONDS,
    KeyShape,
    Seed,
    SeedBook,
    Writer,
    huge_seed,
    key_seeds,
    make_idle,
    other_db_seeds,
    pattern_of,
    ttl_seeds,
    value_seeds,
)

__all__ = [
    "IDLE_SECONDS", "KeyShape", "Manifest", "Seed", "all_names", "bulk", "make_idle", "pattern_of", "populate",
    "reset_idle", "write_clean",
]  # fmt: skip


@dataclass(frozen=True)
class Manifest:
    scale: int  # clean keys written
    clean_patterns: Mapping[bytes, int]  # pattern → clean keys of that pattern (all in db 0)
    seeds: tuple[Seed, ...]
    shapes: Mapping[tuple[int, bytes], KeyShape]  # (db, key) → what the seed key is
    keys_per_db: Mapping[int, int]  # exact DBSIZE of every db written
    lazyfree_lazy_expire: bool
    huge: bool = False

    @property
    def clean_count(self) -> int:
        return sum(self.clean_patterns.values())

    @property
    def seed_key_count(self) -> int:
        return len(self.shapes)

    def expected(self, db: int, key: bytes) -> frozenset[tuple[str, str | None]]:
        """Every (rule, code) the seeded key `key` in `db` must trip; empty for clean keys."""
        return frozenset((s.rule, s.code) for s in self.seeds if s.db == db and key in s.keys)

    def seeds_of(self, rule: str) -> list[Seed]:
        return [s for s in self.seeds if s.rule == rule]

    def is_clean_name(self, name: bytes) -> bool:
        return pattern_of(name) in self.clean_patterns

    def rules(self) -> set[str]:
        return {s.rule for s in self.seeds}


# ---- clean keys ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Family:
    prefix: bytes
    type: str
    ttl: int  # base TTL in seconds; each key gets ±10%
    weight: int
    hex_id: bool = False


CLEAN_FAMILIES = (
    _Family(b"shop:order:", "string", 2 * DAY, 22),
    _Family(b"auth:session:", "string", 6 * HOUR, 12, hex_id=True),
    _Family(b"stock:level:", "string", 12 * HOUR, 8),
    _Family(b"page:views:", "string", 1 * DAY, 8),
    _Family(b"shop:cart:", "hash", 1 * DAY, 18),
    _Family(b"feed:timeline:", "zset", 3 * DAY, 12),
    _Family(b"team:members:", "set", 4 * DAY, 10),
    _Family(b"chat:history:", "list", 12 * HOUR, 10),
)

_WORDS = (
    b"alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa "
    b"quebec romeo sierra tango uniform victor whiskey xray yankee zulu red green blue amber"
).split()
POOL = 512  # prebuilt values per kind


def _bulk(data: bytes) -> bytes:
    return b"$%d\r\n%s\r\n" % (len(data), data)


class _RawWriter:
    """The clean-key writer: commands packed once into RESP by us, BATCH per round trip on one connection.

    redis-py's packing costs microseconds per argument, which is most of the time for a million keys with
    tens of elements each; here a key costs a few byte concatenations. Every reply is read and an error
    reply raises, so nothing is lost silently.
    """

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self.buffer: list[bytes] = []

    def __call__(self, packed: bytes) -> None:
        self.buffer.append(packed)
        if len(self.buffer) >= BATCH:
            self.flush()

    def flush(self) -> None:
        if not self.buffer:
            return
        connection = self.client.connection_pool.get_connection()
        try:
            connection.send_packed_command([b"".join(self.buffer)])
            for _ in self.buffer:
                connection.read_response()
        finally:
            self.client.connection_pool.release(connection)
        self.buffer.clear()


class _Pools:
    """Prebuilt values and element lists (RESP-encoded), so a key costs no per-element work."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.strings = [_bulk(self._text(rng.randrange(16, 800))) for _ in range(POOL)]
        self.counters = [_bulk(b"%d" % rng.randrange(1_000_000)) for _ in range(POOL)]
        sizes = [3 + int(97 * rng.random() ** 3) for _ in range(POOL)]  # 3–100 elements, mostly small
        self.hash = [self._args(n, lambda i: [b"sku%d" % i, b"%d" % rng.randrange(1, 9)], 40) for n in sizes]
        self.zset = [self._args(n, lambda i: [b"%d" % rng.randrange(1_000_000), b"post:%d" % i]) for n in sizes]
        self.set = [self._args(n, lambda i: [b"%d" % rng.randrange(10_000_000)]) for n in sizes]
        self.list = [self._args(n, lambda i: [self._text(rng.randrange(4, 40))]) for n in sizes]

    def _text(self, size: int) -> bytes:
        words = [self.rng.choice(_WORDS) for _ in range(size // 4 + 2)]
        return b"v" + b" ".join(words)[: size - 1]  # text, never `{`/`[`: not JSON

    @staticmethod
    def _args(count: int, make: Any, cap: int = 1_000) -> tuple[int, bytes]:
        args = [a for i in range(min(count, cap)) for a in make(i)]
        return len(args), b"".join(_bulk(a) for a in args)


_VERB = {"hash": b"HSET", "zset": b"ZADD", "set": b"SADD", "list": b"RPUSH"}


def _clean_key(write: _RawWriter, pools: _Pools, family: _Family, index: int) -> None:
    random_ = pools.rng.random
    ident = hashlib.md5(b"%d" % index).hexdigest().encode() if family.hex_id else b"%d" % index
    name = _bulk(family.prefix + ident)
    ttl = _bulk(b"%d" % int(family.ttl * 1000 * (0.9 + 0.2 * random_())))  # ±10% jitter
    pick = int(random_() * POOL)
    if family.type == "string":
        value = pools.counters[pick] if family.prefix in (b"stock:level:", b"page:views:") else pools.strings[pick]
        write(b"*5\r\n$3\r\nSET\r\n" + name + value + b"$2\r\nPX\r\n" + ttl)
        return
    count, args = getattr(pools, family.type)[pick]
    write(b"*%d\r\n" % (count + 2) + _bulk(_VERB[family.type]) + name + args)
    write(b"*3\r\n$7\r\nPEXPIRE\r\n" + name + ttl)


def _picks(rng: random.Random, count: int) -> list[int]:
    return rng.choices(range(len(CLEAN_FAMILIES)), weights=[f.weight for f in CLEAN_FAMILIES], k=count)


def write_clean(client: redis.Redis, count: int, seed: int = 3) -> dict[bytes, int]:
    """Write `count` clean keys in db 0 of `client`; returns pattern → keys written."""
    rng = random.Random(seed)
    pools = _Pools(rng)
    write = _RawWriter(client)
    next_id = [0] * len(CLEAN_FAMILIES)
    patterns: dict[bytes, int] = {}
    for pick in _picks(rng, count):
        family = CLEAN_FAMILIES[pick]
        next_id[pick] += 1
        _clean_key(write, pools, family, next_id[pick])
        pattern = family.prefix + b"*"
        patterns[pattern] = patterns.get(pattern, 0) + 1
    write.flush()
    return patterns


def bulk(client: redis.Redis, count: int, seed: int = 3) -> Manifest:
    """Benchmark mode: `count` clean keys of mixed types and realistic sizes, no seeds."""
    patterns = write_clean(client, count, seed)
    return Manifest(count, patterns, (), {}, {0: count}, _lazy_expire(client))


def _lazy_expire(client: redis.Redis) -> bool:
    reply = {str(k): v for k, v in client.config_get("lazyfree-lazy-expire").items()}
    value = reply.get("lazyfree-lazy-expire", "no")
    return (value.decode() if isinstance(value, bytes) else str(value)) == "yes"


def reset_idle(client: redis.Redis, manifest: Manifest) -> None:
    """Make the idle seeds idle again (a scan that touched them resets their LRU clock)."""
    make_idle(client, (key for (db, key), shape in manifest.shapes.items() if db == 0 and shape.idle_at_least))


def _client_for_db(client: redis.Redis, db: int) -> redis.Redis:
    pool = client.connection_pool
    kwargs = {**pool.connection_kwargs, "db": db}
    return redis.Redis(connection_pool=redis.ConnectionPool(connection_class=pool.connection_class, **kwargs))


def populate(client: redis.Redis, scale: int = 8_000, *, huge: bool = False, seed: int = 3) -> Manifest:
    """Fill an empty server: `scale` clean keys in db 0, the seeds, and return the ground truth.

    `huge` adds a 2,000,000-member sorted set (`rank:global:1`, no TTL) for the big-key test.
    """
    if any(client.info("keyspace")):
        raise RuntimeError("populate() needs an empty server")
    lazy_expire = _lazy_expire(client)
    clean = write_clean(client, scale, seed)
    book = SeedBook(random.Random(seed + 1))
    write = Writer(client)
    key_seeds(book, write)
    value_seeds(book, write, lazy_expire)
    if huge:
        huge_seed(book, write)
    write.flush()
    ttl_seeds(book, write, client)
    write.flush()
    other = _client_for_db(client, 3)
    try:
        other_db_seeds(book, other, 3)
    finally:
        other.close()

    per_db: dict[int, int] = {}
    for db, _ in book.shapes:
        per_db[db] = per_db.get(db, 0) + 1
    per_db[0] = per_db.get(0, 0) + scale
    return Manifest(scale, clean, tuple(book.seeds), book.shapes, per_db, lazy_expire, huge)


def all_names(manifest: Manifest, seed: int = 3) -> Iterator[tuple[int, bytes]]:
    """Every (db, key) `populate(scale=manifest.scale, seed=seed)` wrote, clean keys regenerated."""
    yield from _clean_names(manifest.scale, seed)
    yield from manifest.shapes


def _clean_names(count: int, seed: int) -> Iterator[tuple[int, bytes]]:
    rng = random.Random(seed)
    _Pools(rng)  # consume the same random numbers as write_clean
    next_id = [0] * len(CLEAN_FAMILIES)
    for pick in _picks(rng, count):
        family = CLEAN_FAMILIES[pick]
        next_id[pick] += 1
        ident = hashlib.md5(b"%d" % next_id[pick]).hexdigest().encode() if family.hex_id else b"%d" % next_id[pick]
        yield 0, family.prefix + ident
