"""The memory a server counts for a string key (`used_memory`), as its allocator and data structures spend it,
for the three layouts of the servers in use (`LAYOUTS`; `model_for` picks one from a server's name).

* `redis-7` (Redis 6.0 to 7.4, Valkey up to 8.0): a key is a `dictEntry` (24 bytes) of the database's dict,
  its name an sds, its value a 16-byte `robj`: a value of at most 44 bytes is embedded with the object
  (embstr, an sdshdr8), a longer one is an sds of its own. A TTL adds a second `dictEntry` in the `expires`
  dict, pointing at the same name.
* `redis-8` (Redis 8): the name is embedded in the value object (robj, an 8-byte expire slot with a TTL or a
  name of 128 bytes and more, a byte for the name's header, the name's sds), and so is a value while all of it
  fits a 64-byte cache line (an sdshdr8); a longer value is an sds of its own. The dicts hold the objects: a
  key alone in its bucket takes no entry, one sharing a bucket a 16-byte entry. How many share depends on the
  table's history (measured from 48 % of the keys written one at a time to 71 % written in a pipeline): 60 %
  of an entry a key is counted, in each dict the key is in.
* `valkey-8.1` (Valkey 8.1 and later): the name embedded as in Redis 8 (the expire slot likewise), and the
  value too while the object stays within 128 bytes (it gives up its 8-byte value pointer for it). The dicts
  are hashtables of 64-byte buckets of 7 keys; the child buckets an overflowing bucket chains cost from 1 to 4
  bytes a key with the fill: 2 are counted, in each hashtable the key is in.

A dict's bucket array is a power of two, at least 4 buckets of 8 bytes (Redis), or 1 of 64 bytes (Valkey),
grown to the smallest that holds one more key when it is full (a key a bucket; 7 for Valkey), and only when
`maxmemory` allows the new array unless it is past `MAX_LOAD`. Sizes go through the allocator's classes
(`redis_meta.allocation`): `used_memory` counts what the allocator hands out.

Checked against real servers (tests/simulate/test_memory.py: 4,096 keys of 11 to 130-byte names, values from 5
bytes to 70 KB, with and without a TTL, on Redis 7.0 with jemalloc16, Redis 8.2 with jemalloc, Valkey 9.1 with
glibc): within 0.2 % of the `used_memory` growth on Redis 7.0, within 3 % on Valkey 9.1 and 4.5 % on Redis 8.2
(the entries and child buckets counted at their mean). Not counted: what a server keeps after many deletions
and writes besides its keys (a few bytes a key on every version); the eviction calibration measures it into
the baseline.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rediscipline.redis_meta.allocation import ALLOCATORS, VALKEY_BUCKET_BYTES, VALKEY_BUCKET_KEYS, sds_size
from rediscipline.redis_meta.encodings import EMBSTR_MAX_BYTES
from rediscipline.redis_meta.versions import EMBEDDED_KEY, VALKEY, parse_version

#: A dict grows past its keys-per-bucket only when `maxmemory` allows its new array, and always past this
#: share of them (`dictExpandAllowed`, `HASHTABLE_MAX_LOAD_FACTOR`).
MAX_LOAD = 1.618

#: Sizes of the structures a key is made of (64-bit builds).
ROBJ = 16
DICT_ENTRY = 24
EXPIRE_SLOT = 8
#: Redis 8's embedded value and Valkey's embedded object: the most bytes they take.
REDIS8_EMBED_LIMIT = 64
VALKEY_EMBED_LIMIT = 128
#: A name this long gets the expire slot whether the key has a TTL or not.
LONG_NAME = 128
#: Redis 8: a dict's entry for a key sharing its bucket, and the share of keys that have one.
REDIS8_ENTRY = 16
REDIS8_ENTRY_SHARE = 0.6
#: Valkey: the child buckets' bytes a key is counted for, in each hashtable it is in.
VALKEY_CHILD_BYTES = 2


@dataclass(frozen=True, slots=True)
class Layout:
    """How one generation of servers lays out its keyspace: its dicts' buckets (bytes, keys each holds before
    the table grows, the fewest an array has)."""

    name: str
    bucket_bytes: int
    bucket_keys: int
    min_buckets: int


LAYOUTS = {
    "redis-7": Layout("redis-7", 8, 1, 4),
    "redis-8": Layout("redis-8", 8, 1, 4),
    "valkey-8.1": Layout("valkey-8.1", VALKEY_BUCKET_BYTES, VALKEY_BUCKET_KEYS, 1),
}


@dataclass(frozen=True, slots=True)
class MemoryModel:
    """How much `used_memory` a server spends on keys: `baseline` is what it holds with no key (its own
    structures, the replaying client's buffers), the rest is computed per key (`key_bytes`) and for the dicts'
    arrays (`table_bytes`), with the `layout` of its version and its `allocator`."""

    name: str
    baseline: int
    layout: Layout = LAYOUTS["redis-7"]
    allocator: str = "jemalloc16"

    def __post_init__(self) -> None:
        if self.allocator not in ALLOCATORS:
            raise ValueError(f"unknown allocator {self.allocator!r}: one of {', '.join(ALLOCATORS)}")

    def key_bytes(self, key_length: int, value_length: int, volatile: bool = False) -> int:
        """A string key of a `key_length`-byte name and a `value_length`-byte value, with a TTL or not."""
        name = self.layout.name
        if name == "redis-8":
            return self._redis8(key_length, value_length, volatile)
        if name == "valkey-8.1":
            return self._valkey(key_length, value_length, volatile)
        return self._redis7(key_length, value_length, volatile)

    def _redis7(self, key_length: int, value_length: int, volatile: bool) -> int:
        alloc = ALLOCATORS[self.allocator]
        if value_length <= EMBSTR_MAX_BYTES:
            value = alloc(ROBJ + 3 + value_length + 1)
        else:
            value = alloc(ROBJ) + alloc(sds_size(value_length))
        entries = alloc(DICT_ENTRY) * (2 if volatile else 1)
        return entries + alloc(sds_size(key_length)) + value

    def _redis8(self, key_length: int, value_length: int, volatile: bool) -> int:
        alloc = ALLOCATORS[self.allocator]
        slot = EXPIRE_SLOT if volatile or key_length >= LONG_NAME else 0
        head = ROBJ + slot + 1 + sds_size(key_length)
        if ROBJ + slot + key_length + 3 + 4 + value_length <= REDIS8_EMBED_LIMIT:
            held = alloc(head + 4 + value_length)
        else:
            held = alloc(head) + alloc(sds_size(value_length))
        dicts = 2 if volatile else 1
        return held + round(dicts * REDIS8_ENTRY_SHARE * alloc(REDIS8_ENTRY))

    def _valkey(self, key_length: int, value_length: int, volatile: bool) -> int:
        alloc = ALLOCATORS[self.allocator]
        slot = EXPIRE_SLOT if volatile or key_length >= LONG_NAME else 0
        name = 1 + sds_size(key_length)
        if 8 + name + 4 + value_length <= VALKEY_EMBED_LIMIT:
            held = alloc(8 + slot + name + 4 + value_length)
        else:
            held = alloc(ROBJ + slot + name) + alloc(sds_size(value_length))
        return held + VALKEY_CHILD_BYTES * (2 if volatile else 1)

    def table_bytes(self, buckets: int) -> int:
        """A dict's bucket array of `buckets` buckets."""
        return ALLOCATORS[self.allocator](buckets * self.layout.bucket_bytes) if buckets else 0

    def table_buckets(self, keys: int) -> int:
        """The buckets of a dict that grew to hold `keys` keys."""
        buckets = self.layout.min_buckets
        while buckets * self.layout.bucket_keys < keys:
            buckets *= 2
        return buckets

    def capacity(self, buckets: int) -> int:
        """The keys a dict of `buckets` buckets holds before it grows."""
        return buckets * self.layout.bucket_keys


#: `used_memory` with no key and one client connected, as measured on this project's servers.
REDIS_70_BASELINE = 990_000
REDIS_82_BASELINE = 777_000
VALKEY_91_BASELINE = 1_100_000

_SERVER = re.compile(r"(redis|valkey)[- ]?(\d+(?:\.\d+)*)$", re.IGNORECASE)


def model_for(server: str, allocator: str, baseline: int | None = None) -> MemoryModel:
    """The model of a server named `redis-7.0`, `redis-8.2`, `valkey-9.1` (flavor and version, as INFO gives
    them): its layout, and the baseline measured on the closest server here unless `baseline` is given.
    Raises ValueError for a name that is neither."""
    match = _SERVER.match(server.strip())
    if match is None:
        from rediscipline.model.display import QUOTE_LIMIT, display_text  # here: `--version` loads this module

        shown = display_text(server, QUOTE_LIMIT)
        raise ValueError(f"unknown server '{shown}': a flavor and a version, such as redis-7.0 or valkey-9.1")
    flavor = match.group(1).lower()
    if not EMBEDDED_KEY.available(flavor, parse_version(match.group(2)) or (0,)):
        layout, measured = LAYOUTS["redis-7"], REDIS_70_BASELINE
    elif flavor == VALKEY:
        layout, measured = LAYOUTS["valkey-8.1"], VALKEY_91_BASELINE
    else:
        layout, measured = LAYOUTS["redis-8"], REDIS_82_BASELINE
    name = f"{flavor} {match.group(2)}, {allocator}"
    return MemoryModel(name, measured if baseline is None else baseline, layout, allocator)


#: The default: the server the simulator is calibrated on (Debian's Redis 7.0, jemalloc with a 16-byte quantum).
DEFAULT_SERVER = "redis-7.0"
DEFAULT_ALLOCATOR = "jemalloc16"
REDIS_70 = model_for(DEFAULT_SERVER, DEFAULT_ALLOCATOR)
