"""Per-key memory estimate for keys read from a dump: what `MEMORY USAGE key SAMPLES 0` said on the writer.

A dump holds the data but no memory figures. The estimate rebuilds each key's in-memory layout from what the
parser reads (type, encoding, key length, TTL or not, element count, payload bytes, node count, stream group
counts, hash-field TTL count) with the structure sizes and allocator rounding of the server that wrote the
file, following each version's `objectComputeSize`. It is an estimate, and is labelled so wherever it is shown:

- element lengths are known only as a sum, so the allocator rounding of hashtable/skiplist elements is
  applied to the mean length;
- hash tables are taken at rest: a table caught half-way through an incremental rehash holds both bucket
  arrays (up to 1.5x the slots) until enough lookups finish it;
- what a dump cannot show is not seen: spare room left by APPEND/SETRANGE or deletions, LZF-compressed
  list nodes (`list-compress-depth`), module internals (module values count their serialized size).

Measured against MEMORY USAGE on real Redis 6.2, 7.0, 8.2 and Valkey 9.1 servers (tests/rdb/test_memory_model.py,
benchmarks/memory_model_error.py): strings, listpacks, ziplists, intsets and quicklists are exact (glibc aside,
which now and then hands out a chunk 16 bytes bigger); hashtables, skiplists and streams are within 1-11% in
sum (the worst: short set members of mixed lengths on glibc, whose 16-byte size classes round coarsely).

The layout changed three times, moving small keys by 20-40% (hence one model per family):

| family       | written by                    | what differs                                                |
|--------------|-------------------------------|-------------------------------------------------------------|
| `redis-6`    | Redis <= 6.2 (RDB <= 9)       | ziplists at their exact length; dict 96 B; embstr sdslen+18 |
| `redis-7`    | Redis 7.0-7.4                 | key sds + 24 B dictEntry + 16 B robj; blobs allocator-sized |
| `valkey-8.0` | Valkey 7.2, 8.0 (`REDIS0011`) | Redis 7.2's layout                                          |
| `redis-8`    | Redis 8.x                     | kvobj: the key lives in the value object, no dictEntry      |
| `valkey-8.1` | Valkey 8.1, 9.x               | key embedded too; hashtable of 64 B buckets of 7; elements  |
|              |                               | embedded in hash entries and skiplist nodes                 |

The allocator is a separate choice because a dump does not record it: official builds and Docker images use
the bundled jemalloc with an 8-byte quantum (`jemalloc`, the default); Debian/Ubuntu packages link the
system jemalloc with a 16-byte quantum (`jemalloc16`); builds with `MALLOC=libc` use glibc (`libc`). Small
keys move by 5-15% between them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping

from rediscipline.redis_meta.allocation import ALLOCATORS, child_buckets, sds_size, sds_size_v6
from rediscipline.redis_meta.encodings import EMBSTR_MAX_BYTES, LIST_NODE_MAX_BYTES
from rediscipline.sources.rdb.records import RdbHeader, RdbKey

__all__ = ["ALLOCATORS", "DEFAULT_ALLOCATOR", "MemoryModel", "model_for"]

DEFAULT_ALLOCATOR = "jemalloc"

# ---- layout constants --------------------------------------------------------------------------------------

#: Sizes below this are looked up in per-model tables instead of computed.
_TABLE = 4096
#: Skiplist levels: P(level = L) = 0.75 * 0.25^(L-1), capped at 32 (zslRandomLevel, ZSKIPLIST_P = 0.25).
_LEVEL_P = [0.75 * 0.25 ** (level - 1) for level in range(1, 33)]
#: A new stream listpack node is allocated at this size (STREAM_LISTPACK_MAX_PRE_ALLOCATE) and keeps it until
#: it outgrows it; a node closed by stream-node-max-entries is shrunk to fit.
STREAM_PREALLOC = 4096
STREAM_NODE_ENTRIES = 100
#: sizeof(streamNACK): delivery time, delivery count, consumer pointer.
STREAM_NACK = 24
#: Consumer names are not summed by the parser: a typical length.
CONSUMER_NAME = 10
#: Valkey counts stream radix trees by their real allocations (raxAllocSize); fitted on Valkey 9.1.2.
VALKEY_RAX_PER_NODE = 120
VALKEY_GROUP = 116  # streamCG and its empty PEL rax
VALKEY_CONSUMER = 106  # streamConsumer, a 10-byte name and its empty PEL rax
VALKEY_PEL_ENTRY = 91  # streamNACK and the ID in the group's and the consumer's PEL


def _pow2_at_least(n: int, minimum: int) -> int:
    size = minimum
    while size < n:
        size <<= 1
    return size


def _expected_alloc(alloc: Callable[[int], int], base: int, per_level: int) -> float:
    """Mean allocation of a skiplist node of `base + per_level * level` bytes over its random level."""
    return sum(p * alloc(base + per_level * level) for level, p in enumerate(_LEVEL_P, start=1))


# ---- the models --------------------------------------------------------------------------------------------


class MemoryModel:
    """MEMORY USAGE (SAMPLES 0) estimates for the keys of one dump; this class is the Redis 7.0-7.4 layout.

    `estimate(key)` returns bytes. It does not raise for any RdbKey: a type it does not know (module values,
    RDB 14 arrays) costs its serialized size plus the key overhead.
    """

    family = "redis-7"
    robj = 16
    dict_struct = 56  # sizeof(dict)
    dict_entry = 24
    zset_entry = 24  # the zset dict's entry (element -> score)
    quicklist_struct = 40
    quicklist_node = 40
    zset_struct = 16 + 32  # zset + zskiplist
    skiplist_header = 24 + 16 * 32  # a node with all 32 levels
    stream_struct = 80
    consumer_group = 40  # sizeof(streamCG)
    consumer = 24  # sizeof(streamConsumer)
    rax_node = 244  # streamRadixTreeMemoryUsage's charge per rax node: sizeof(raxNode) + 30 longs
    listpack_ex = 24  # sizeof(listpackEx), the wrapper of a hash with field TTLs (7.4+)
    field_ttl = 20  # a hashtable field with a TTL: expire metadata in the field and its ebuckets entry (7.4+)

    def __init__(self, allocator: str = DEFAULT_ALLOCATOR, version: str | None = None) -> None:
        if allocator not in ALLOCATORS:
            raise ValueError(f"unknown allocator {allocator!r}; known: {', '.join(ALLOCATORS)}")
        self.allocator = allocator
        self.version = version  # the writer's version string (redis-ver / valkey-ver), for display
        self.alloc = ALLOCATORS[allocator]
        # lookup tables: estimate() runs once per key of the dump, so the common sizes are precomputed
        self._alloc_table = [self.alloc(size) for size in range(_TABLE)]
        self._sds_table = [self.alloc(self._sds_bytes(length)) for length in range(_TABLE)]
        self._header_table = [
            [self._key_header(length, expire) for length in range(_TABLE)] for expire in (False, True)
        ]
        self._node = _expected_alloc(self.alloc, 24, 16)
        self._zset_nodes: dict[int, float] = {}
        self._estimators: dict[str | None, Callable[[RdbKey], float]] = {
            "string": self._string,
            "list": self._list,
            "set": self._set,
            "zset": self._zset,
            "hash": self._hash,
            "stream": self._stream,
        }

    @property
    def name(self) -> str:
        return self.family

    def __repr__(self) -> str:
        return f"<MemoryModel {self.family} allocator={self.allocator} writer={self.version}>"

    def estimate(self, key: RdbKey) -> int:
        """Bytes MEMORY USAGE key SAMPLES 0 would have reported on the writer (an estimate: see the module)."""
        if key.type == "string":  # most keys: the shortest path
            return int(self._string(key))
        estimator = self._estimators.get(key.type)
        if estimator is None:  # module value, array: what the dump shows
            return int(self._header(key) + key.size)
        return int(estimator(key) + 0.5)

    # -- building blocks, overridden per family

    def _sds_bytes(self, length: int) -> int:
        """Bytes an exact-size sds of this length asks the allocator for."""
        return sds_size(length)

    def _key_header(self, length: int, expire: bool) -> float:
        """The object header and what the keyspace spends on a key of this length: robj + key sds + dictEntry."""
        return self.robj + self.alloc(self._sds_bytes(length)) + self.dict_entry

    def sds(self, length: int) -> int:
        return self._sds_table[length] if length < _TABLE else self.alloc(self._sds_bytes(length))

    def _mean_sds(self, total: int, count: int) -> float:
        """Allocated bytes of `count` sds strings whose lengths add up to `total`."""
        return count * self.sds(total // count) if count > 0 else 0.0

    def _header(self, key: RdbKey) -> float:
        length = len(key.name)  # type: ignore[arg-type]  # name, not the slower .key property
        expire = key.expire_at_ms is not None
        if length < _TABLE:
            return self._header_table[expire][length]
        return self._key_header(length, expire)

    def _blob(self, size: int) -> int:
        """A compact blob (listpack, ziplist, intset) as allocated."""
        return self._alloc_table[size] if size < _TABLE else self.alloc(size)

    def _dict(self, count: int) -> float:
        """A dict at rest: a power-of-two bucket array of at least `count` slots (minimum 4)."""
        return self.dict_struct + 8 * _pow2_at_least(count, 4)

    # -- types

    def _string(self, key: RdbKey) -> float:
        header = self._header(key)  # robj + key sds + dictEntry
        if key.encoding == "int":
            return header
        if key.value_bytes <= EMBSTR_MAX_BYTES:  # embstr: robj + sdshdr8 + value + NUL in one allocation
            return header - self.robj + self._alloc_table[self.robj + 4 + key.value_bytes]
        return header + self.sds(key.value_bytes)

    def _list(self, key: RdbKey) -> float:
        length = key.length or 0
        if key.encoding == "linkedlist":  # Redis <= 3.0: list + listNode 24 + robj 16 + sds per element
            return self._header(key) + 48 + length * (24 + self.robj) + self._mean_sds(key.value_bytes, length)
        if key.encoding == "quicklist" and key.nodes:
            return self._header(key) + self.quicklist_struct + self._quicklist_nodes(key.value_bytes, key.nodes, length)
        return self._header(key) + self._blob(key.value_bytes)

    def _quicklist_nodes(self, total: int, nodes: int, length: int) -> float:
        """Quicklist nodes: all but the last are full (list-max-listpack-size -2: 8 KB), the last holds the rest."""
        if nodes == 1:
            return self.quicklist_node + self._blob(total)
        per_item = total / length if length else 0.0
        full = LIST_NODE_MAX_BYTES - per_item / 2
        last = total - (nodes - 1) * full
        if 0 < last <= full and per_item < LIST_NODE_MAX_BYTES / 2:
            return nodes * self.quicklist_node + (nodes - 1) * self._blob(int(full)) + self._blob(int(last))
        return nodes * (self.quicklist_node + self._blob(total // nodes))

    def _set(self, key: RdbKey) -> float:
        if key.encoding == "hashtable":
            n = key.length or 0
            return self._header(key) + self._dict(n) + n * self.dict_entry + self._mean_sds(key.value_bytes, n)
        return self._header(key) + self._blob(key.value_bytes)

    def _zset(self, key: RdbKey) -> float:
        if key.encoding == "skiplist":
            n = key.length or 0
            fixed = self.zset_struct + self._dict(n) + self.alloc(self.skiplist_header)
            per_element = self.zset_entry + self._node
            return self._header(key) + fixed + n * per_element + self._mean_sds(key.value_bytes, n)
        return self._header(key) + self._blob(key.value_bytes)

    def _hash(self, key: RdbKey) -> float:
        if key.encoding == "hashtable":
            n = key.length or 0
            strings = self._mean_sds(key.value_bytes, 2 * n)
            ttls = self.field_ttl * (key.hfe_fields or 0)
            return self._header(key) + self._dict(n) + n * self.dict_entry + strings + ttls
        if key.encoding == "listpackex":
            return self._header(key) + self.alloc(self.listpack_ex) + self._blob(key.value_bytes)
        return self._header(key) + self._blob(key.value_bytes)

    def _stream(self, key: RdbKey) -> float:
        nodes = key.nodes or 0
        lists = self._stream_lists(key)
        return self._header(key) + self.stream_struct + self._stream_rax(nodes) + lists + self._groups(key)

    def _stream_rax(self, nodes: int) -> float:
        """streamRadixTreeMemoryUsage: 16 B per ID plus `rax_node` per rax node (about two per ID, or the root)."""
        return 16 * nodes + self.rax_node * max(1, 2 * nodes)

    def _stream_lists(self, key: RdbKey) -> float:
        """The listpack nodes: full ones closed at 100 entries (or 4 KB), the open last one preallocated at 4 KB."""
        nodes = key.nodes or 0
        if not nodes:
            return 0.0
        total = key.value_bytes
        if nodes == 1:
            return self._blob(max(STREAM_PREALLOC, total))
        per_entry = total / key.length if key.length else total / nodes
        full = min(STREAM_NODE_ENTRIES * per_entry, max(STREAM_PREALLOC, per_entry))
        last = total - (nodes - 1) * full
        if not 0 < last <= full:
            full = last = total / nodes
        return (nodes - 1) * self._blob(int(full)) + self._blob(max(STREAM_PREALLOC, int(last)))

    def _groups(self, key: RdbKey) -> float:
        """Consumer groups: each group and consumer with its PEL rax (about one rax node per entry plus the
        root), a streamNACK per pending entry, and the entry's ID in both the group's and the consumer's PEL."""
        groups = key.stream_groups or 0
        pel = key.stream_pel or 0
        consumers = key.stream_consumers or 0
        rax = self.rax_node
        return (
            groups * (self.consumer_group + rax)
            + consumers * (self.consumer + CONSUMER_NAME + rax)
            + pel * (STREAM_NACK + 2 * (16 + rax))
        )


class Redis6Model(MemoryModel):
    """Redis <= 6.2: ziplists; MEMORY USAGE counts compact blobs and embstr values at their exact length."""

    family = "redis-6"
    dict_struct = 96  # two dictht of 32 B, type, privdata, rehashidx, iterators
    quicklist_node = 32
    stream_struct = 40
    consumer_group = 32

    def _sds_bytes(self, length: int) -> int:
        return sds_size_v6(length)

    def _blob(self, size: int) -> int:
        return size

    def _string(self, key: RdbKey) -> float:
        header = self._header(key)
        if key.encoding == "int":
            return header
        if key.value_bytes <= EMBSTR_MAX_BYTES:  # objectComputeSize: sdslen + 2 + sizeof(robj), not the allocation
            return header + 2 + key.value_bytes
        return header + self.sds(key.value_bytes)


class Valkey80Model(MemoryModel):
    """Valkey 7.2 and 8.0: Redis 7.2's layout, under Valkey's name."""

    family = "valkey-8.0"


class Redis8Model(MemoryModel):
    """Redis 8.x: the key is embedded in the value object (kvobj) and MEMORY USAGE counts that object alone."""

    family = "redis-8"
    embed_limit = 64  # an embstr value is embedded while the whole object fits a cache line
    stream_struct = 112
    consumer_group = 48
    consumer = 32
    zset_entry = 16  # the zset dict has no values (dictEntryNoValue)

    def _key_header(self, length: int, expire: bool) -> float:
        """The object with its embedded key, and an expire slot when the key has a TTL or is >= 128 bytes."""
        return self.alloc(self.robj + 8 * (expire or length >= 128) + 1 + sds_size(length))

    def _string(self, key: RdbKey) -> float:
        if key.encoding == "int":
            return self._header(key)
        klen = len(key.name)  # type: ignore[arg-type]
        vlen = key.value_bytes
        if vlen <= EMBSTR_MAX_BYTES and self.robj + klen + 3 + 4 + vlen <= self.embed_limit:
            # SET embeds the value without an expire slot; a TTL set afterwards uses spare room in the
            # allocation, or reallocates with the slot (still embedded while it fits a cache line)
            base = self.robj + 1 + sds_size(klen) + 4 + vlen
            first = self._alloc_table[base]
            if key.expire_at_ms is None or first >= base + 8:
                return first
            if self.robj + klen + 3 + 8 + 4 + vlen <= self.embed_limit:
                return self._alloc_table[base + 8]
        return self._header(key) + self.sds(vlen)


class Valkey81Model(MemoryModel):
    """Valkey 8.1 and 9.x: key (and expire) embedded in the object; hashtables of 64-byte buckets holding 7
    pointers; hash fields carry their value, skiplist nodes their element. MEMORY USAGE is objectComputeSize."""

    family = "valkey-8.1"
    hashtable_struct = 80
    bucket = 64
    embed_limit = 128  # embstr and embedded hash values: one allocation up to this size
    field_ttl = 32  # a hash field with a TTL: the expire slot in the entry and its volatile-set entry

    _key_header = Redis8Model._key_header  # the same embedded key, with an expire slot when needed

    def _string(self, key: RdbKey) -> float:
        if key.encoding == "int":
            return self._header(key)
        klen = len(key.name)  # type: ignore[arg-type]
        vlen = key.value_bytes
        key_part = 1 + sds_size(klen)
        if 8 + key_part + 4 + vlen <= self.embed_limit:
            # embedded after the key; the object's 8-byte value pointer is given up to it
            expire = key.expire_at_ms is not None or klen >= 128
            return self._alloc_table[8 + 8 * expire + key_part + 4 + vlen]
        return self._header(key) + self.sds(vlen)

    def _hashtable(self, count: int) -> float:
        """hashtableMemUsage: struct + 64 B per bucket (a power of two, <= 7 entries each) + child buckets."""
        if count <= 0:
            return self.hashtable_struct
        buckets = _pow2_at_least(math.ceil(count / 7), 1)
        return self.hashtable_struct + self.bucket * (buckets + child_buckets(count, buckets))

    def _set(self, key: RdbKey) -> float:
        if key.encoding == "hashtable":
            n = key.length or 0
            return self._header(key) + self._hashtable(n) + self._mean_sds(key.value_bytes, n)
        return self._header(key) + self._blob(key.value_bytes)

    def _hash(self, key: RdbKey) -> float:
        if key.encoding == "hashtable":
            n = key.length or 0
            if n == 0:
                return self._header(key) + self._hashtable(0)
            entries = n * self._hash_entry(key.value_bytes // (2 * n))
            return self._header(key) + self._hashtable(n) + entries + self.field_ttl * (key.hfe_fields or 0)
        return self._header(key) + self._blob(key.value_bytes)

    def _hash_entry(self, length: int) -> float:
        """A field and its value: one allocation while both fit 128 B, else the field with a value pointer
        (sds type 8 at least) and a separate value sds."""
        field = sds_size(length)
        value = 4 + length
        if field + value <= self.embed_limit:
            return self.alloc(field + value)
        if length < 32:
            field += 2
        return self.alloc(field + 8) + self.sds(length)

    def _zset(self, key: RdbKey) -> float:
        if key.encoding == "skiplist":
            # the skiplist's header node lives in the zskiplist allocation (48 B + 31 more levels); each node
            # holds score, backward pointer, its levels, a header-size byte and the element sds
            n = key.length or 0
            fixed = 16 + self.alloc(48 + 16 * 31) + self._hashtable(n)
            if n == 0:
                return self._header(key) + fixed
            mean = key.value_bytes // n
            node = self._zset_nodes.get(mean)
            if node is None:
                node = self._zset_nodes[mean] = _expected_alloc(self.alloc, 16 + 1 + sds_size(mean), 16)
            return self._header(key) + fixed + n * node
        return self._header(key) + self._blob(key.value_bytes)

    def _stream_rax(self, nodes: int) -> float:
        return VALKEY_RAX_PER_NODE * max(1, nodes)

    def _groups(self, key: RdbKey) -> float:
        groups = key.stream_groups or 0
        pel = key.stream_pel or 0
        consumers = key.stream_consumers or 0
        return groups * VALKEY_GROUP + consumers * VALKEY_CONSUMER + pel * VALKEY_PEL_ENTRY


# ---- choosing a model --------------------------------------------------------------------------------------

_VERSION = re.compile(rb"\s*(\d+)\.(\d+)")


def _parse_version(raw: bytes | None) -> tuple[int, int] | None:
    match = _VERSION.match(raw) if raw else None
    return (int(match.group(1)), int(match.group(2))) if match else None


def model_for(header: RdbHeader, aux: Mapping[str, bytes], allocator: str = DEFAULT_ALLOCATOR) -> MemoryModel:
    """The model of the server that wrote the dump: its `valkey-ver` / `redis-ver` AUX field, else the magic and
    format version (RDB 12 is Redis 7.4 to 8.4: without `redis-ver` it is taken as 8)."""
    valkey = _parse_version(aux.get("valkey-ver"))
    redis = _parse_version(aux.get("redis-ver"))
    raw = aux.get("valkey-ver") or aux.get("redis-ver")
    label = raw.decode("ascii", "replace") if raw else None
    if valkey is not None or header.magic == "VALKEY":
        if valkey is None:
            valkey = (9, 0)
        return Valkey81Model(allocator, label) if valkey >= (8, 1) else Valkey80Model(allocator, label)
    if redis is None:  # no AUX fields: RDB <= 6 (Redis <= 3.0), or a stripped file
        redis = (8, 0) if header.version >= 12 else (7, 0) if header.version >= 10 else (6, 0)
    if redis >= (8, 0):
        return Redis8Model(allocator, label)
    if redis >= (7, 0):
        return MemoryModel(allocator, label)
    return Redis6Model(allocator, label)
