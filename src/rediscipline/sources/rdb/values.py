"""Value readers: one per RDB type byte, each stepping over a value and returning its RdbKey.

Each reads the value of one key at `walk.pos` (just after the type byte and the key) and returns the key's
RdbKey with the prefix fields (expiry, idle, freq, offset, size) left for the walk to fill in. Compact blobs
are read from their headers; elements stored one by one are stepped over by their length prefixes.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice
from typing import TYPE_CHECKING, TypeVar

from rediscipline.redis_meta.encodings import INT_STRING_MAX_BYTES
from rediscipline.sources.rdb import blobs
from rediscipline.sources.rdb.blobs import BlobError
from rediscipline.sources.rdb.errors import RdbError
from rediscipline.sources.rdb.lzf import decompress
from rediscipline.sources.rdb.primitives import (
    HEAD_BYTES,
    HEAD_DECODE_FROM,
    embstr,
    first_literal,
    int_string,
    is_int,
    module_name,
    read_length,
)
from rediscipline.sources.rdb.records import RdbHeader, RdbKey

if TYPE_CHECKING:
    from rediscipline.sources.rdb.parser import Walk

Handler = Callable[["Walk", int, bytes], RdbKey]
_T = TypeVar("_T")


def _key(walk: Walk, key: bytes, kind: str, encoding: str, length: int, value_bytes: int) -> RdbKey:  # noqa: PLR0917
    return RdbKey(
        key, walk.origin, walk.db, kind, -1, None, length, encoding, None, None, None, None, None, 0, 0, value_bytes
    )


def string_value(walk: Walk, _op: int, key: bytes) -> RdbKey:
    """Any string the inlined path in `Walk.run` did not take: int-encoded, compressed or long."""
    buf, pos = walk.buf, walk.pos
    b = buf[pos]
    head: bytes | None = None
    if b >> 6 == 3:
        enc = b & 0x3F
        if enc < 3:
            width = 1 << enc
            walk.pos = pos + 1 + width
            text = int_string(buf, pos + 1, width)
            out = _key(walk, key, "string", "int", len(text), len(text))
            out.head = text if walk.want_head else None
            return out
        if enc != 3:
            raise RdbError(f"unknown string encoding {enc}", walk.record)
        clen, ulen, p = walk.lzf_header(pos + 1)
        walk.pos = p + clen
        if walk.want_head:
            head = (
                decompress(buf[p : p + clen], ulen, HEAD_BYTES)
                if ulen >= HEAD_DECODE_FROM
                else first_literal(buf, p, clen)
            )
        embedded = embstr(walk.embed_key, len(key), ulen, walk.expire_pending)
        out = _key(walk, key, "string", "embstr" if embedded else "raw", ulen, ulen)
        out.head = head
        return out
    n, p = read_length(buf, pos)
    if p + n > walk.end:
        raise RdbError("string runs past the end of the file", walk.record)
    walk.pos = p + n
    encoding = "embstr" if embstr(walk.embed_key, len(key), n, walk.expire_pending) else "raw"
    if n <= INT_STRING_MAX_BYTES and is_int(buf[p : p + n]):
        encoding = "int"
    out = _key(walk, key, "string", encoding, n, n)
    if walk.want_head:
        out.head = buf[p : p + min(n, HEAD_BYTES)]
    return out


def elements(walk: Walk, count: int, per_item: int, score: int = 0) -> tuple[int, int]:
    """Step over `count * per_item` strings (each followed by a score when `score` is set); (total, largest).

    The hot loop of hashtable hashes and sets and skiplist zsets (called as `walk.elements`, which the compiled
    core replaces with its twin, `_walk.elements`): plain 6- and 14-bit lengths and 8- and
    16-bit integers are decoded inline, without a method call per element; anything else (32-bit integers,
    compressed or long strings) goes through `Walk._skip`. `score` is 0 (none), SCORE_TEXT (RDB ZSET: a
    length byte then ASCII, 253–255 for nan/±inf) or SCORE_BINARY (ZSET_2: 8 bytes).
    """
    buf, end = walk.buf, walk.end
    pos = walk.pos
    total = largest = 0
    int8 = _INT8_DIGITS
    for _ in range(count * per_item):
        b = buf[pos]
        if b < 0x40:
            size = b
            pos += 1 + b
        elif b < 0x80:
            size = (b & 0x3F) << 8 | buf[pos + 1]
            pos += 2 + size
        elif b == 0xC0:
            size = int8[buf[pos + 1]]
            pos += 2
        elif b == 0xC1 or b == 0xC2:  # noqa: PLR1714 - two compares beat building a tuple per element
            width = 2 if b == 0xC1 else 4  # len(int_string(...)), inlined: this loop runs once per element
            size = len(str(int.from_bytes(buf[pos + 1 : pos + 1 + width], "little", signed=True)))
            pos += 1 + width
        else:
            walk.pos = pos
            size = walk._skip()
            pos = walk.pos
        total += size
        if size > largest:  # noqa: PLR1730 - a call to max() per element costs more than the test
            largest = size
        if score:
            if score == SCORE_BINARY:
                pos += 8
            else:
                n = buf[pos]
                pos += 1 if n >= 253 else 1 + n
        if pos > end:
            raise RdbError("collection runs past the end of the file", walk.record)
    walk.pos = pos
    return total, largest


SCORE_TEXT = 1
SCORE_BINARY = 2
_INT8_DIGITS = tuple(len(str(value - 256 if value > 127 else value)) for value in range(256))


def _one_by_one(kind: str, encoding: str, per_item: int) -> Handler:
    """Handler for a collection stored element by element: a count, then `per_item` strings per item."""

    def handler(walk: Walk, _op: int, key: bytes) -> RdbKey:
        count, walk.pos = read_length(walk.buf, walk.pos)
        total, largest = walk.elements(walk, count, per_item)
        out = _key(walk, key, kind, encoding, count, total)
        out.largest_element = largest
        return out

    return handler


def _zset(walk: Walk, op: int, key: bytes) -> RdbKey:
    """Skiplist zset: members one by one, each followed by its score."""
    count, walk.pos = read_length(walk.buf, walk.pos)
    total, largest = walk.elements(walk, count, 1, SCORE_BINARY if op == 5 else SCORE_TEXT)
    out = _key(walk, key, "zset", "skiplist", count, total)
    out.largest_element = largest
    return out


def _intset(walk: Walk, _op: int, key: bytes) -> RdbKey:
    walk.blob_start = walk.pos
    head, size, _compressed = walk._blob_head(8)
    if len(head) < 8 or int.from_bytes(head[0:4], "little") not in (2, 4, 8):
        raise BlobError("intset shorter than its header")
    count = int.from_bytes(head[4:8], "little")
    if 8 + int.from_bytes(head[0:4], "little") * count != size:
        raise BlobError("intset header does not match its length")
    out = _key(walk, key, "set", "intset", count, size)
    if walk.deep:
        out.largest_element = _reread(walk, blobs.intset_largest)
    return out


def _reread(walk: Walk, reader: Callable[[bytes], _T]) -> _T:
    """Apply `reader` to the whole blob just stepped over (it started at walk.blob_start)."""
    end = walk.pos
    walk.pos = walk.blob_start
    blob = walk._blob()
    walk.pos = end
    return reader(blob)


def _counted_blob(walk: Walk, *, listpack: bool, what: str, every: int = 1) -> tuple[int, int, int | None]:
    """A listpack or ziplist blob at `walk.pos`: its element count, uncompressed size and largest element.

    The count is read from the header (the blob is walked when the header cannot hold it); the largest element
    is known only when the blob is walked, in deep mode or for a big blob (a blob whose count overflows the
    header is always big). `every` 2 looks at every other element only: zset members, not their scores.
    """
    header = 4 if listpack else 8
    walk.blob_start = walk.pos
    head, size, _compressed = walk._blob_head(header + 2)
    if len(head) < header + 2:
        raise BlobError(f"{what} shorter than its header")
    if int.from_bytes(head[0:4], "little") != size:
        raise BlobError(f"{what} header gives a size other than the blob's")
    entries = head[header] | head[header + 1] << 8
    largest = None
    walked = walk._walk_blob(size)
    if entries == blobs.UNKNOWN_COUNT or walked:
        blob = _reread(walk, bytes)
        entries = blobs.listpack_count(blob) if listpack else blobs.ziplist_count(blob)
        if walked:
            items = blobs.listpack_items(blob) if listpack else blobs.ziplist_items(blob)
            largest = blobs.largest(islice(items, 0, None, every))
    return entries, size, largest


def _compact(kind: str, encoding: str, *, listpack: bool, pairs: int) -> Handler:
    """Handler for a collection held in one listpack or ziplist (`pairs` entries per element)."""
    every = 2 if kind == "zset" else 1  # the largest member, not a score

    def handler(walk: Walk, _op: int, key: bytes) -> RdbKey:
        entries, size, largest = _counted_blob(walk, listpack=listpack, what=f"{encoding} blob", every=every)
        out = _key(walk, key, kind, encoding, entries // pairs, size)
        out.largest_element = largest
        return out

    return handler


def _zipmap(walk: Walk, _op: int, key: bytes) -> RdbKey:
    walk.blob_start = walk.pos
    head, size, _compressed = walk._blob_head(1)
    count = head[0] if head else 0
    largest = None
    if count >= 254 or walk.deep:
        blob = _reread(walk, bytes)
        count = blobs.zipmap_count(blob)
        largest = blobs.largest(iter(blobs.zipmap_items(blob))) if walk.deep else None
    out = _key(walk, key, "hash", "zipmap", count, size)
    out.largest_element = largest
    return out


def _quicklist(walk: Walk, op: int, key: bytes) -> RdbKey:
    """Quicklist v1 (type 14: ziplist nodes) and v2 (type 18: PLAIN or PACKED listpack nodes)."""
    buf = walk.buf
    nodes, walk.pos = read_length(buf, walk.pos)
    v2 = op == 18
    total = count = 0
    largest = 0
    plain_nodes = 0
    for _ in range(nodes):
        container = 2
        if v2:
            container, walk.pos = read_length(buf, walk.pos)
        if container == 1:  # PLAIN: one element, stored as is
            size = walk._skip()
            total += size
            count += 1
            plain_nodes += 1
            largest = max(largest, size)
            continue
        if container != 2:
            raise RdbError(f"unknown quicklist container {container}", walk.record)
        entries, size, node_largest = _counted_blob(walk, listpack=v2, what="list node")
        total += size
        if node_largest is not None:
            largest = max(largest, node_largest)
        count += entries
    encoding = "quicklist"
    if v2 and walk.list_packed and nodes == 1 and plain_nodes == 0:
        encoding = "listpack"
    out = _key(walk, key, "list", encoding, count, total)
    out.nodes = nodes
    if walk.deep or plain_nodes or largest:
        out.largest_element = largest
    return out


def _listpack_ex(walk: Walk, op: int, key: bytes) -> RdbKey:
    """Hash with field TTLs in one listpack of (field, value, ttl) triplets (types 23 pre-GA and 25)."""
    if op == 25:
        walk.pos += 8  # the smallest field expiry, a header for the server's expiry index
    blob = walk._blob()
    items = list(blobs.listpack_items(blob))
    if len(items) % 3:
        raise BlobError("listpack-ex hash whose entries are not (field, value, ttl) triplets")
    ttls = sum(1 for ttl in items[2::3] if isinstance(ttl, int) and ttl != 0)
    out = _key(walk, key, "hash", "listpackex", len(items) // 3, len(blob))
    out.hfe_fields = ttls
    if walk._walk_blob(len(blob)):
        out.largest_element = blobs.largest(iter([*items[0::3], *items[1::3]]))
    return out


def _hash_metadata(walk: Walk, op: int, key: bytes) -> RdbKey:
    """Hashtable hash with field TTLs (types 22 pre-GA and 24): each field is preceded by its TTL."""
    buf = walk.buf
    if op == 24:
        walk.pos += 8  # smallest field expiry
    count, walk.pos = read_length(buf, walk.pos)
    total = largest = ttls = 0
    for _ in range(count):
        ttl, walk.pos = read_length(buf, walk.pos)  # 24: relative to the smallest expiry; 22: absolute; 0: none
        ttls += ttl != 0
        pair, pair_largest = walk.elements(walk, 1, 2)  # field, value
        total += pair
        largest = max(largest, pair_largest)
    out = _key(walk, key, "hash", "hashtable", count, total)
    out.hfe_fields = ttls
    out.largest_element = largest
    return out


def _valkey_hash2(walk: Walk, _op: int, key: bytes) -> RdbKey:
    """Valkey 9 HASH_2 (type 22 under VALKEY080): (field, value, expiry ms or −1) per entry."""
    buf = walk.buf
    count, walk.pos = read_length(buf, walk.pos)
    total = largest = ttls = 0
    for _ in range(count):
        pair, pair_largest = walk.elements(walk, 1, 2)  # field, value
        total += pair
        largest = max(largest, pair_largest)
        expiry = int.from_bytes(buf[walk.pos : walk.pos + 8], "little", signed=True)
        walk.pos += 8
        ttls += expiry != -1
    out = _key(walk, key, "hash", "hashtable", count, total)
    out.hfe_fields = ttls
    out.largest_element = largest
    return out


def _stream(walk: Walk, op: int, key: bytes) -> RdbKey:
    """Streams v1–v5 (types 15, 19, 21, 26, 27): listpack nodes, then metadata, groups, PELs, consumers."""
    buf = walk.buf
    version = _STREAM_VERSION[op]
    nodes, walk.pos = read_length(buf, walk.pos)
    total = 0
    for _ in range(nodes):
        walk._skip()  # master entry id (16 bytes)
        total += walk._skip()
    length, walk.pos = read_length(buf, walk.pos)
    for _ in range(2):  # last id
        _, walk.pos = read_length(buf, walk.pos)
    if version >= 2:
        for _ in range(5):  # first id, max deleted id, entries added
            _, walk.pos = read_length(buf, walk.pos)
    groups, walk.pos = read_length(buf, walk.pos)
    pel = consumers = 0
    for _ in range(groups):
        walk._skip()  # name
        for _ in range(2):  # last delivered id
            _, walk.pos = read_length(buf, walk.pos)
        if version >= 2:
            _, walk.pos = read_length(buf, walk.pos)  # entries read
        pending, walk.pos = read_length(buf, walk.pos)
        pel += pending
        for _ in range(pending):
            walk.pos += 16 + 8  # entry id, delivery time
            _, walk.pos = read_length(buf, walk.pos)  # delivery count
        members, walk.pos = read_length(buf, walk.pos)
        consumers += members
        for _ in range(members):
            walk._skip()  # name
            walk.pos += 8 if version < 3 else 16  # seen time (and v3+: active time)
            owned, walk.pos = read_length(buf, walk.pos)
            walk.pos += 16 * owned
        if version >= 5:
            _skip_stream_nacks(walk)
    if version >= 4:
        _skip_stream_idmp(walk)
    out = _key(walk, key, "stream", "stream", length, total)
    out.nodes = nodes
    out.stream_groups, out.stream_pel, out.stream_consumers = groups, pel, consumers
    return out


def _skip_stream_idmp(walk: Walk) -> None:
    """Stream v4 (Redis 8.6): the idempotent-producer table after the groups."""
    buf = walk.buf
    for _ in range(2):  # duration, max entries
        _, walk.pos = read_length(buf, walk.pos)
    producers, walk.pos = read_length(buf, walk.pos)
    for _ in range(producers):
        walk._skip()  # producer id
        entries, walk.pos = read_length(buf, walk.pos)
        for _ in range(entries):
            walk._skip()  # idempotency id
            walk.pos += 16  # the stream entry id it produced
    for _ in range(2):  # ids added, duplicates
        _, walk.pos = read_length(buf, walk.pos)


def _skip_stream_nacks(walk: Walk) -> None:
    """Stream v5 (Redis 8.8): per group, the pending ids that no consumer owns."""
    nacked, walk.pos = read_length(walk.buf, walk.pos)
    walk.pos += 16 * nacked


_STREAM_VERSION = {15: 1, 19: 2, 21: 3, 26: 4, 27: 5}


def _array(walk: Walk, _op: int, key: bytes) -> RdbKey:
    """RDB 14 ARRAY: a sparse array of (index, tagged value) entries."""
    buf = walk.buf
    count, walk.pos = read_length(buf, walk.pos)
    flag, walk.pos = read_length(buf, walk.pos)
    if flag == 1:
        _, walk.pos = read_length(buf, walk.pos)  # insert index
    elif flag != 0:
        raise RdbError(f"array with an unknown insert-index flag {flag}", walk.record)
    total = largest = 0
    for _ in range(count):
        _, walk.pos = read_length(buf, walk.pos)  # index
        tag, walk.pos = read_length(buf, walk.pos)
        if tag in (1, 2):  # int64, double
            walk.pos += 8
            size = 8
        elif tag in (0, 3):
            size = walk._skip()
        else:
            raise RdbError(f"array element with an unknown tag {tag}", walk.record)
        total += size
        largest = max(largest, size)
    out = _key(walk, key, "array", "array", count, total)
    out.largest_element = largest
    return out


def _template_listpack(walk: Walk, _op: int, key: bytes) -> RdbKey:
    """RDB 15 HASH_TMPL_LP_REF: a listpack of the template id followed by the field values."""
    entries, size, largest = _counted_blob(walk, listpack=True, what="hash template listpack")
    if entries < 1:
        raise BlobError("hash template listpack without its template id")
    out = _key(walk, key, "hash", "template-listpack", entries - 1, size)
    out.largest_element = largest
    return out


def _template_array(walk: Walk, _op: int, key: bytes) -> RdbKey:
    """RDB 15 HASH_TMPL_ARRAY_REF: a template id, then one value per field of that template."""
    template, walk.pos = read_length(walk.buf, walk.pos)
    fields = walk.templates.get(template)
    if fields is None:
        raise RdbError(f"hash refers to template {template}, which the file did not define", walk.record)
    total, largest = walk.elements(walk, fields, 1)
    out = _key(walk, key, "hash", "template-array", fields, total)
    out.largest_element = largest
    return out


def _dump_only(walk: Walk, op: int, key: bytes) -> RdbKey:
    raise RdbError(f"type {op} is a DUMP/RESTORE payload form, not expected in an RDB file", walk.record)


def _module(walk: Walk, op: int, key: bytes) -> RdbKey:
    module_id, walk.pos = read_length(walk.buf, walk.pos)
    name = module_name(module_id)
    if op == 6:
        raise RdbError(f"module value of {name!r} in the pre-4.0 format, which cannot be skipped", walk.record)
    walk._skip_module_stream()
    out = _key(walk, key, name, "raw", 0, 0)
    out.module = name
    return out


def handlers_for(header: RdbHeader) -> dict[int, Handler]:
    """Type byte → value reader for this file's magic.

    Like Redis's own loader, a type is accepted whatever the version number says: type numbers are never
    reused within one lineage, and writers are known to ship a type before the version that documents it.
    Only the magic changes meanings: Valkey 80+ gave 22 (and 23 in 81) meanings of its own.
    """
    table: dict[int, Handler] = {
        0: string_value,
        1: _one_by_one("list", "linkedlist", 1),
        2: _one_by_one("set", "hashtable", 1),
        3: _zset,
        4: _one_by_one("hash", "hashtable", 2),
        5: _zset,
        6: _module,
        7: _module,
        9: _zipmap,
        10: _compact("list", "ziplist", listpack=False, pairs=1),
        11: _intset,
        12: _compact("zset", "ziplist", listpack=False, pairs=2),
        13: _compact("hash", "ziplist", listpack=False, pairs=2),
        14: _quicklist,
        15: _stream,
        16: _compact("hash", "listpack", listpack=True, pairs=2),
        17: _compact("zset", "listpack", listpack=True, pairs=2),
        18: _quicklist,
        19: _stream,
        20: _compact("set", "listpack", listpack=True, pairs=1),
        21: _stream,
    }
    if header.magic == "VALKEY":
        table[22] = _valkey_hash2
        return table
    table.update(
        {
            22: _hash_metadata,
            23: _listpack_ex,
            24: _hash_metadata,
            25: _listpack_ex,
            26: _stream,
            27: _stream,
            28: _array,
            29: _dump_only,
            30: _template_listpack,
            31: _dump_only,
            32: _template_array,
        }
    )
    return table
