"""The seeded violations of the test dataset: which keys break which rule, written with their ground truth.

Each writer adds keys through a pipelined `Writer` and records, in a `SeedBook`, one `Seed(rule, code, keys,
db, pattern)` per rule the keys must trip and one `KeyShape` per key (what the server must hold). Seeds avoid
every rule they are not about: lowercase `:`-separated short names, a jittered TTL unless the seed is about
TTLs, small values unless it is about size. Codes are the rules' own (see src/rediscipline/rules/); None
means any code of the rule. `dataset.populate` calls these after the clean keys.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import redis

from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts

BATCH = 5_000  # commands per pipeline round trip
IDLE_SECONDS = 3_000_000  # ~34.7 days: past TTL004's 30-day limit
HOUR = 3_600
DAY = 24 * HOUR


def pattern_of(name: bytes) -> bytes:
    """The key pattern our inference gives `name` (what findings are grouped under)."""
    pattern: bytes = KeyTemplate(infer_parts(name)).pattern
    return pattern


@dataclass(frozen=True)
class Seed:
    rule: str  # rule id expected to fire, e.g. "VAL001"
    code: str | None  # its code, or None when any code of the rule is right
    keys: tuple[bytes, ...]
    db: int = 0
    pattern: bytes | None = None  # None for instance findings (CFG007)


@dataclass(frozen=True)
class KeyShape:
    """What the server must hold for a seed key (checked by tests/live/test_servers.py)."""

    type: str  # string, hash, list, set, zset
    length: int  # elements, or bytes of a string
    persistent: bool
    compact: bool | None = None  # True: listpack/ziplist/intset expected; False: not; None: do not care
    idle_at_least: int | None = None


class Writer:
    """Pipelined writes, flushed every BATCH commands (transaction=False: no MULTI, one round trip)."""

    def __init__(self, client: redis.Redis) -> None:
        self.pipe = client.pipeline(transaction=False)
        self.pending = 0

    def __call__(self, *args: Any) -> None:
        self.pipe.execute_command(*args)
        self.pending += 1
        if self.pending >= BATCH:
            self.flush()

    def flush(self) -> None:
        if self.pending:
            self.pipe.execute()
            self.pending = 0


def _hex(label: str, size: int) -> bytes:
    out = bytearray()
    counter = 0
    while len(out) < size:
        out += hashlib.sha256(f"{label}:{counter}".encode()).hexdigest().encode()
        counter += 1
    return bytes(out[:size])


@dataclass
class SeedBook:
    """Collects seeds and the shape of each seed key while they are written."""

    rng: random.Random
    seeds: list[Seed] = field(default_factory=list)
    shapes: dict[tuple[int, bytes], KeyShape] = field(default_factory=dict)

    def ttl_ms(self) -> int:
        return int(2 * DAY * 1000 * self.rng.uniform(0.9, 1.1))

    def add(
        self,
        rule: str,
        code: str | None,
        keys: Iterable[bytes],
        db: int = 0,
        *,
        instance: bool = False,
        pattern: bytes | None = None,
    ) -> None:
        """One seed; its pattern is the keys' inferred pattern unless given (aggregates) or `instance`."""
        names = tuple(keys)
        if pattern is None and not instance:
            pattern = pattern_of(names[0])
            assert all(pattern_of(n) == pattern for n in names), (rule, names)
        self.seeds.append(Seed(rule, code, names, db, pattern))

    def shape(self, name: bytes, shape: KeyShape, db: int = 0) -> None:
        self.shapes[(db, name)] = shape


def _small_strings(book: SeedBook, write: Writer, names: Iterable[bytes]) -> list[bytes]:
    out = []
    for name in names:
        value = b"v%d" % book.rng.randrange(1000)
        write("SET", name, value, "PX", book.ttl_ms())
        book.shape(name, KeyShape("string", len(value), persistent=False))
        out.append(name)
    return out


def key_seeds(book: SeedBook, write: Writer) -> None:
    def strings(*names: bytes) -> list[bytes]:
        return _small_strings(book, write, names)

    book.add("KEY001", "whitespace", strings(b"user:name:john doe"))
    book.add("KEY001", "control", strings(b"user:name:mary\x07ann"))
    book.add("KEY002", "invalid-utf8", strings(b"user:\xff\xfe:1", b"user:\xff\xfe:2"))
    book.add("KEY005", "longer-than-128", strings(*(b"search:result:" + _hex(f"s{i}", 144) for i in range(3))))
    book.add("KEY005", "longer-than-128", strings(b"blob:payload:" + _hex("megakey", 1 << 20)))  # 1 MB name
    book.add("KEY006", "uppercase", strings(*(b"USER:account:%d" % i for i in range(1, 4))))
    camel = strings(*(b"user:lastLogin:%d" % i for i in range(1, 4)))
    book.add("KEY007", "camel-case", camel)  # a camelCase word is upper case too: KEY007 reports it, not KEY006
    book.add("KEY009", "empty", strings(*(b"user::%d" % i for i in range(1, 4))))
    book.add("KEY011", "unclosed", strings(*(b"user:{abc:%d" % i for i in range(1, 4))))


def _collection(write: Writer, kind: str, name: bytes, members: list[bytes]) -> None:
    """Write a collection in chunks (no single command carries more than 1,000 elements)."""
    for start in range(0, len(members), 1_000):
        chunk = members[start : start + 1_000]
        if kind == "hash":
            write("HSET", name, *(x for i, m in enumerate(chunk, start) for x in (b"f%d" % i, m)))
        elif kind == "zset":
            write("ZADD", name, *(x for i, m in enumerate(chunk, start) for x in (i, m)))
        elif kind == "set":
            write("SADD", name, *chunk)
        else:
            write("RPUSH", name, *chunk)


def value_seeds(book: SeedBook, write: Writer, lazy_expire: bool) -> None:
    rng = book.rng
    names = [b"report:export:%d" % i for i in range(1, 4)]  # VAL001: 24 KB of random bytes
    for name in names:
        write("SET", name, b"bin:" + rng.randbytes(24 * 1024), "PX", book.ttl_ms())
        book.shape(name, KeyShape("string", 24 * 1024 + 4, persistent=False))
    book.add("VAL001", "over-limit", names)

    for kind, name in (  # VAL002: 6,000 small elements, no TTL (so TTL001 as well)
        ("zset", b"rank:daily:1"),
        ("list", b"inbox:queue:1"),
        ("set", b"tag:index:1"),
        ("hash", b"catalog:fields:1"),
    ):
        _collection(write, kind, name, [b"m%d" % i for i in range(6_000)])
        book.shape(name, KeyShape(kind, 6_000, persistent=True, compact=False))
        book.add("VAL002", "over-limit", [name])
        book.add("TTL001", "missing", [name])

    blobs = b"archive:blobs:1"  # VAL003: 3,000 members of 400 bytes, about 1.3 MB; no TTL
    _collection(write, "set", blobs, [b"%06d" % i + rng.randbytes(197).hex().encode()[:394] for i in range(3_000)])
    book.shape(blobs, KeyShape("set", 3_000, persistent=True, compact=False))
    book.add("VAL003", "over-limit", [blobs])
    book.add("TTL001", "missing", [blobs])

    names = [b"shop:settings:%d" % i for i in range(1, 3)]  # VAL004: one 100-byte value among 10 fields
    for name in names:
        fields = [x for i in range(9) for x in (b"opt%d" % i, b"on")] + [b"banner", b"b" * 100]
        write("HSET", name, *fields)
        write("PEXPIRE", name, book.ttl_ms())
        book.shape(name, KeyShape("hash", 10, persistent=False, compact=False))
    book.add("VAL004", "element-too-big", names)

    members = (b"name", b"age", b"city", b"email")  # VAL005: 12 objects spread over string keys, one per field
    keys = [b"profile:%d:%s" % (ident, member) for ident in range(101, 113) for member in members]
    _small_strings(book, write, keys)
    book.add("VAL005", "one-key-per-field", keys, pattern=b"profile:*:*")  # reported per family, not per field

    names = [b"legacy:session:%d" % i for i in range(1, 3)]  # VAL006: Java serialization stream
    for name in names:
        write("SET", name, b"\xac\xed\x00\x05sr\x00" + rng.randbytes(600), "PX", book.ttl_ms())
        book.shape(name, KeyShape("string", 607, persistent=False))
    book.add("VAL006", "java-serialized", names)

    names = [b"api:response:%d" % i for i in range(1, 3)]  # VAL006: a 5 KB JSON document (random data)
    for name in names:
        doc = {"id": 1, "items": [{"n": i, "blob": base64.b64encode(rng.randbytes(72)).decode()} for i in range(48)]}
        body = json.dumps(doc).encode()
        write("SET", name, body, "PX", book.ttl_ms())
        book.shape(name, KeyShape("string", len(body), persistent=False))
    book.add("VAL006", "json", names)

    names = [b"cms:html:%d" % i for i in range(1, 3)]  # VAL007: 8 KB of repetitive text
    text = (b"the quick brown fox jumps over the lazy dog. " * 200)[: 8 * 1024]
    for name in names:
        write("SET", name, text, "PX", book.ttl_ms())
        book.shape(name, KeyShape("string", len(text), persistent=False))
    book.add("VAL007", "compressible", names)

    names = [b"doc:attachments:%d" % i for i in range(1, 3)]  # VAL008: one 20 KB field among 10 small ones
    for name in names:
        fields = [x for i in range(10) for x in (b"meta%d" % i, b"x")] + [b"scan", rng.randbytes(20 * 1024)]
        write("HSET", name, *fields)
        write("PEXPIRE", name, book.ttl_ms())
        book.shape(name, KeyShape("hash", 11, persistent=False, compact=False))
    book.add("VAL008", "big-element", names)
    book.add("VAL004", "element-too-big", names)  # a 20 KB value also loses the listpack encoding

    weekly = b"rank:weekly:1"  # TTL005: 20,000 members of ~50 bytes (about 2 MB) with a TTL
    _collection(write, "zset", weekly, [b"member:%06d:" % i + b"p" * 40 for i in range(20_000)])
    write("PEXPIRE", weekly, book.ttl_ms())
    book.shape(weekly, KeyShape("zset", 20_000, persistent=False, compact=False))
    book.add("VAL002", "over-limit", [weekly])
    book.add("VAL003", "over-limit", [weekly])
    if not lazy_expire:
        book.add("TTL005", "sync-free", [weekly])


def ttl_seeds(book: SeedBook, write: Writer, client: redis.Redis) -> None:
    names = [b"config:flag:%d" % i for i in range(1, 21)]  # TTL001: no TTL
    for name in names:
        write("SET", name, b"on")
        book.shape(name, KeyShape("string", 2, persistent=True))
    book.add("TTL001", "missing", names)

    names = [b"promo:coupon:%d" % i for i in range(1, 241)]  # TTL002: 240 keys, one EXPIREAT second
    cliff = int(time.time()) + 2 * DAY
    for name in names:
        write("SET", name, b"c")
        write("EXPIREAT", name, cliff)
        book.shape(name, KeyShape("string", 1, persistent=False))
    book.add("TTL002", "same-second", names)

    names = [b"legacy:setting:%d" % i for i in range(1, 6)]  # TTL004: persistent, idle for ~35 days
    for name in names:
        write("SET", name, b"old")
        book.shape(name, KeyShape("string", 3, persistent=True, idle_at_least=IDLE_SECONDS))
    write.flush()
    make_idle(client, names)
    book.add("TTL001", "missing", names)
    book.add("TTL004", "idle", names)


def make_idle(client: redis.Redis, names: Iterable[bytes], seconds: int = IDLE_SECONDS) -> None:
    """Set the LRU idle time of persistent keys: DUMP, then RESTORE … REPLACE IDLETIME (Redis ≥ 5)."""
    names = list(names)
    pipe = client.pipeline(transaction=False)
    for name in names:
        pipe.execute_command("DUMP", name)
    payloads = pipe.execute()
    for name, payload in zip(names, payloads, strict=True):
        pipe.execute_command("RESTORE", name, 0, payload, "REPLACE", "IDLETIME", seconds)
    pipe.execute()


def huge_seed(book: SeedBook, write: Writer) -> None:
    """A 2,000,000-member sorted set without TTL (`rank:global:1`), written 10,000 members per ZADD."""
    name = b"rank:global:1"
    for start in range(0, 2_000_000, 10_000):
        write("ZADD", name, *(x for i in range(start, start + 10_000) for x in (i, b"m%d" % i)))
    book.shape(name, KeyShape("zset", 2_000_000, persistent=True, compact=False))
    book.add("VAL002", "far-over-limit", [name])  # > 100,000 elements
    book.add("VAL003", None, [name])  # over-limit or far-over-limit (50 MB) depending on the server
    book.add("TTL001", "missing", [name])


def other_db_seeds(book: SeedBook, client: redis.Redis, db: int = 3) -> None:
    """CFG007: a few well-behaved keys in a database other than 0 (`client` must be on that database)."""
    write = Writer(client)
    names = [b"cache:item:%d" % i for i in range(1, 6)]
    for name in names:
        write("SET", name, b"cached", "PX", book.ttl_ms())
        book.shape(name, KeyShape("string", 6, persistent=False), db=db)
    write.flush()
    book.add("CFG007", "non-zero-db", names, db=db, instance=True)
