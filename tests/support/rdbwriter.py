"""A small RDB writer for parser tests: byte-exact files for edge cases real servers cannot easily make.

Real servers give us the common shapes (tests/support/rdbdumps.py). They cannot give: a listpack whose
header count is 65535 (walk required) or that holds 70,000 entries, 64-bit length prefixes (0x81), LZF streams
written with literal runs only or with back-references, Redis 8.6+ formats (KEY_META, streams v4/v5, ARRAY,
hash templates), Valkey 9.2's LZ4 envelope, module values with every opcode, or a file with a zeroed checksum.

The layouts follow /tmp/rdbwork/new-formats.md (Redis/Valkey sources, cited there). The builder only encodes;
it does not validate, so tests can also write deliberately broken records with `raw()`.

    data = (RdbBuilder(version=13).aux(b"redis-ver", b"8.6.0").select(0)
            .string(b"k", b"v", expire_ms=1_900_000_000_000).build())
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import anycrc

MODULE_CHARSET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_CRC = anycrc.Model("CRC64-REDIS")  # CRC-64/Jones: reflected poly 0xad93d23594c935a9, init 0, xorout 0

# Module opcode stream (rdb.h RDB_MODULE_OPCODE_*).
MOD_EOF, MOD_SINT, MOD_UINT, MOD_FLOAT, MOD_DOUBLE, MOD_STRING = range(6)

Element = bytes | int


def crc64(data: bytes) -> int:
    """CRC-64/Jones as Redis computes it (check value of b'123456789' is 0xe9c6d914c4b8d9ca)."""
    return int(_CRC.calc(data))


# -- primitive encodings --------------------------------------------------------------------------------------


def enc_len(n: int, *, width: int | None = None) -> bytes:
    """RDB length. `width` forces a form: 1 (6-bit), 2 (14-bit), 5 (0x80 + u32 BE), 9 (0x81 + u64 BE)."""
    if width is None:
        width = 1 if n < 1 << 6 else 2 if n < 1 << 14 else 5 if n < 1 << 32 else 9
    if width == 1:
        return bytes([n])
    if width == 2:
        return bytes([0x40 | n >> 8, n & 0xFF])
    if width == 5:
        return b"\x80" + n.to_bytes(4, "big")
    return b"\x81" + n.to_bytes(8, "big")


def enc_str(value: bytes, *, lzf: str | None = None, len_width: int | None = None, as_int: bool = False) -> bytes:
    """RDB string. `lzf` = "literal" or "backref" writes an LZF string; `as_int` uses the 0xC0–0xC2 forms."""
    if as_int:
        number = int(value)
        for enc, width in ((0, 1), (1, 2), (2, 4)):
            if -(1 << (8 * width - 1)) <= number < 1 << (8 * width - 1):
                return bytes([0xC0 | enc]) + number.to_bytes(width, "little", signed=True)
        raise ValueError("integer does not fit an int32 string encoding")
    if lzf is not None:
        packed = lzf_literal(value) if lzf == "literal" else lzf_compress(value)
        return b"\xc3" + enc_len(len(packed), width=len_width) + enc_len(len(value), width=len_width) + packed
    return enc_len(len(value), width=len_width) + value


def lzf_literal(data: bytes) -> bytes:
    """A valid LZF stream made of literal runs only (1–32 bytes each): bigger than its input, still legal."""
    out = bytearray()
    for start in range(0, len(data), 32):
        chunk = data[start : start + 32]
        out.append(len(chunk) - 1)
        out += chunk
    return bytes(out)


def lzf_compress(data: bytes) -> bytes:
    """LZF with back-references (greedy, 3-byte hash), in the lzf_c.c token format.

    Literal run: ctrl 0–31 = run − 1, then the bytes. Back-reference of `n` = 3..264 bytes at distance `d` =
    1..8192: ctrl = ((n − 2) << 5 | (d − 1) >> 8), [n − 9 if n − 2 ≥ 7], (d − 1) & 0xFF.
    """
    out = bytearray()
    literal = bytearray()
    table: dict[bytes, int] = {}
    i, end = 0, len(data)

    def flush() -> None:
        for start in range(0, len(literal), 32):
            chunk = literal[start : start + 32]
            out.append(len(chunk) - 1)
            out.extend(chunk)
        literal.clear()

    while i < end:
        match_len = 0
        if i + 3 <= end:
            key = data[i : i + 3]
            ref = table.get(key)
            table[key] = i
            if ref is not None and 0 < i - ref <= 8192:
                limit = min(264, end - i)
                while match_len < limit and data[ref + match_len] == data[i + match_len]:
                    match_len += 1
        if match_len >= 3:
            flush()
            off = i - ref - 1
            n = match_len - 2
            if n < 7:
                out.append(n << 5 | off >> 8)
            else:
                out.append(7 << 5 | off >> 8)
                out.append(n - 7)
            out.append(off & 0xFF)
            for j in range(i + 1, min(i + match_len, end - 2)):
                table[data[j : j + 3]] = j
            i += match_len
        else:
            literal.append(data[i])
            i += 1
    flush()
    return bytes(out)


def lzf_has_backref(stream: bytes) -> bool:
    """Whether an LZF stream uses at least one back-reference (so a test knows what it exercises)."""
    ip = 0
    while ip < len(stream):
        ctrl = stream[ip]
        if ctrl >= 32:
            return True
        ip += ctrl + 2
    return False


# -- compact blobs ---------------------------------------------------------------------------------------------


def _lp_backlen(size: int) -> bytes:
    if size <= 127:
        return bytes([size])
    if size < 16383:
        return bytes([size >> 7, (size & 127) | 128])
    if size < 2097151:
        return bytes([size >> 14, ((size >> 7) & 127) | 128, (size & 127) | 128])
    if size < 268435455:
        return bytes([size >> 21, ((size >> 14) & 127) | 128, ((size >> 7) & 127) | 128, (size & 127) | 128])
    return bytes(
        [
            size >> 28,
            ((size >> 21) & 127) | 128,
            ((size >> 14) & 127) | 128,
            ((size >> 7) & 127) | 128,
            (size & 127) | 128,
        ]
    )


def lp_entry(item: Element) -> bytes:
    """One listpack entry (encoding, data, back-length). Ints use the smallest integer encoding."""
    if isinstance(item, int):
        v = item
        if 0 <= v <= 127:
            body = bytes([v])
        elif -4096 <= v <= 4095:
            u = v & 0x1FFF
            body = bytes([0xC0 | u >> 8, u & 0xFF])
        elif -(1 << 15) <= v < 1 << 15:
            body = b"\xf1" + v.to_bytes(2, "little", signed=True)
        elif -(1 << 23) <= v < 1 << 23:
            body = b"\xf2" + v.to_bytes(3, "little", signed=True)
        elif -(1 << 31) <= v < 1 << 31:
            body = b"\xf3" + v.to_bytes(4, "little", signed=True)
        else:
            body = b"\xf4" + v.to_bytes(8, "little", signed=True)
    else:
        n = len(item)
        if n < 64:
            body = bytes([0x80 | n]) + item
        elif n < 4096:
            body = bytes([0xE0 | n >> 8, n & 0xFF]) + item
        else:
            body = b"\xf0" + n.to_bytes(4, "little") + item
    return body + _lp_backlen(len(body))


def listpack(items: Iterable[Element], *, count: int | None = None) -> bytes:
    """A listpack; `count` overrides the u16 header count (65535 = "unknown, walk"; larger counts clamp)."""
    body = bytearray()
    n = 0
    for item in items:
        body += lp_entry(item)
        n += 1
    header_count = min(n, 65535) if count is None else count
    total = 6 + len(body) + 1
    return total.to_bytes(4, "little") + header_count.to_bytes(2, "little") + bytes(body) + b"\xff"


def _zl_entry(item: Element, prevlen: int) -> bytes:
    prev = bytes([prevlen]) if prevlen < 254 else b"\xfe" + prevlen.to_bytes(4, "little")
    if isinstance(item, int):
        v = item
        if 0 <= v <= 12:
            enc = bytes([0xF1 + v])
        elif -128 <= v <= 127:
            enc = b"\xfe" + v.to_bytes(1, "little", signed=True)
        elif -(1 << 15) <= v < 1 << 15:
            enc = b"\xc0" + v.to_bytes(2, "little", signed=True)
        elif -(1 << 23) <= v < 1 << 23:
            enc = b"\xf0" + v.to_bytes(3, "little", signed=True)
        elif -(1 << 31) <= v < 1 << 31:
            enc = b"\xd0" + v.to_bytes(4, "little", signed=True)
        else:
            enc = b"\xe0" + v.to_bytes(8, "little", signed=True)
    else:
        n = len(item)
        if n < 64:
            enc = bytes([n]) + item
        elif n < 16384:
            enc = bytes([0x40 | n >> 8, n & 0xFF]) + item
        else:
            enc = b"\x80" + n.to_bytes(4, "big") + item
    return prev + enc


def ziplist(items: Iterable[Element], *, count: int | None = None) -> bytes:
    """A ziplist (zlbytes, zltail, zllen u16 — 65535 means "walk"), entries with 1- or 5-byte prevlen."""
    body = bytearray()
    prevlen = 0
    tail = 10
    n = 0
    for item in items:
        entry = _zl_entry(item, prevlen)
        tail = 10 + len(body)
        body += entry
        prevlen = len(entry)
        n += 1
    header_count = min(n, 65535) if count is None else count
    total = 10 + len(body) + 1
    return (
        total.to_bytes(4, "little") + tail.to_bytes(4, "little") + header_count.to_bytes(2, "little") + body + b"\xff"
    )


def intset(values: Sequence[int]) -> bytes:
    """An intset with the narrowest encoding that holds every value, sorted as the server keeps it."""
    width = 2
    for v in values:
        if not -(1 << 15) <= v < 1 << 15:
            width = max(width, 4)
        if not -(1 << 31) <= v < 1 << 31:
            width = 8
    body = b"".join(v.to_bytes(width, "little", signed=True) for v in sorted(values))
    return width.to_bytes(4, "little") + len(values).to_bytes(4, "little") + body


def zipmap(pairs: Sequence[tuple[bytes, bytes]], *, count: int | None = None) -> bytes:
    """A zipmap (RDB ≤ 3 hashes): zmlen byte, then len field len free value, 0xFF. Big lengths: 0xFE + u32 LE."""

    def zlen(n: int) -> bytes:
        return bytes([n]) if n < 254 else b"\xfe" + n.to_bytes(4, "little")

    out = bytearray([min(len(pairs), 254) if count is None else count])
    for f, v in pairs:
        out += zlen(len(f)) + f + zlen(len(v)) + b"\x00" + v
    out.append(0xFF)
    return bytes(out)


# -- streams ---------------------------------------------------------------------------------------------------

StreamId = tuple[int, int]


def raw_id(sid: StreamId) -> bytes:
    """A stream ID as Redis stores it in node keys and PELs: ms and seq as big-endian u64."""
    return sid[0].to_bytes(8, "big") + sid[1].to_bytes(8, "big")


def stream_node(entries: Sequence[tuple[StreamId, Sequence[tuple[bytes, bytes]]]]) -> tuple[bytes, bytes]:
    """(node key, listpack) for one radix-tree node holding `entries` (t_stream.c layout, no SAMEFIELDS)."""
    master = entries[0][0]
    master_fields = [f for f, _ in entries[0][1]]
    items: list[Element] = [len(entries), 0, len(master_fields), *master_fields, 0]
    for sid, fields in entries:
        items += [0, sid[0] - master[0], sid[1] - master[1], len(fields)]
        for f, v in fields:
            items += [f, v]
        items.append(len(fields) * 2 + 4)
    return raw_id(master), listpack(items)


@dataclass
class Consumer:
    name: bytes
    seen_ms: int = 0
    active_ms: int = 0
    pel: list[StreamId] = field(default_factory=list)


@dataclass
class Group:
    name: bytes
    last_id: StreamId = (0, 0)
    entries_read: int = 0
    pel: list[tuple[StreamId, int, int]] = field(default_factory=list)  # (id, delivery ms, delivery count)
    consumers: list[Consumer] = field(default_factory=list)
    nacked: list[StreamId] = field(default_factory=list)  # v5: PEL ids owned by no consumer


# -- module values ---------------------------------------------------------------------------------------------


def module_id(name: str, encver: int) -> int:
    """The 64-bit module type id: nine 6-bit chars (first char most significant) then a 10-bit encver."""
    if len(name) != 9:
        raise ValueError("module type names have 9 characters")
    value = 0
    for ch in name:
        value = value << 6 | MODULE_CHARSET.index(ch)
    return value << 10 | encver


ModuleOp = tuple[str, object]  # ("sint", -5), ("uint", 7), ("float", 1.5), ("double", 2.5), ("string", b"x")


def module_stream(ops: Iterable[ModuleOp]) -> bytes:
    """A module opcode stream with its EOF: each value is preceded by its opcode (a length)."""
    out = bytearray()
    for kind, value in ops:
        if kind == "sint":
            out += enc_len(MOD_SINT) + enc_len(int(value) & 0xFFFFFFFFFFFFFFFF)
        elif kind == "uint":
            out += enc_len(MOD_UINT) + enc_len(int(value))
        elif kind == "float":
            out += enc_len(MOD_FLOAT) + struct.pack("<f", value)
        elif kind == "double":
            out += enc_len(MOD_DOUBLE) + struct.pack("<d", value)
        elif kind == "string":
            out += enc_len(MOD_STRING) + enc_str(value)
        else:
            raise ValueError(kind)
    return bytes(out + enc_len(MOD_EOF))


# -- the builder -----------------------------------------------------------------------------------------------


class RdbBuilder:
    """Appends records in call order; `build()` adds EOF and the checksum. Every method returns self.

    Per-key prefix options (all methods that write a key accept them): `expire_ms` (EXPIRETIME_MS, i64 LE),
    `expire_s` (old EXPIRETIME, i32 LE seconds), `idle` (IDLE, a length), `freq` (FREQ, one byte),
    `key_meta` (RDB 13 KEY_META: a list of (4-byte class spec, module ops)), `key_lzf` (the key name as an
    LZF string with back-references), `key_len_width` (force a length form for the key).
    """

    def __init__(self, version: int = 12, *, magic: str = "REDIS") -> None:
        self.magic = magic
        self.version = version
        self.parts: list[bytes] = []
        #: (offset, size) of every key record written, in order, for tests that assert RdbKey.offset/size.
        self.records: list[tuple[int, int]] = []

    # file-level records

    def header(self) -> bytes:
        if self.magic == "REDIS":
            return b"REDIS" + b"%04d" % self.version
        return self.magic.encode() + b"%03d" % self.version

    def _offset(self) -> int:
        return len(self.header()) + sum(len(p) for p in self.parts)

    def raw(self, data: bytes) -> RdbBuilder:
        self.parts.append(data)
        return self

    def aux(self, key: bytes, value: bytes, *, lzf: str | None = None) -> RdbBuilder:
        return self.raw(b"\xfa" + enc_str(key) + enc_str(value, lzf=lzf))

    def select(self, db: int, *, len_width: int | None = None) -> RdbBuilder:
        return self.raw(b"\xfe" + enc_len(db, width=len_width))

    def resizedb(self, size: int, expires: int) -> RdbBuilder:
        return self.raw(b"\xfb" + enc_len(size) + enc_len(expires))

    def slot_info(self, slot: int, size: int, expires: int) -> RdbBuilder:
        return self.raw(b"\xf4" + enc_len(slot) + enc_len(size) + enc_len(expires))

    def function(self, code: bytes) -> RdbBuilder:
        return self.raw(b"\xf5" + enc_str(code))

    def module_aux(self, name: str, encver: int, ops: Iterable[ModuleOp], *, when: int = 2) -> RdbBuilder:
        return self.raw(
            b"\xf7" + enc_len(module_id(name, encver), width=9) + enc_len(MOD_UINT) + enc_len(when) + module_stream(ops)
        )

    def hash_template(self, template_id: int, fields: Sequence[bytes]) -> RdbBuilder:
        """Redis RDB 15 opcode 242: a template's id and its field names."""
        return self.raw(b"\xf2" + enc_len(template_id) + enc_len(len(fields)) + b"".join(enc_str(f) for f in fields))

    def slot_import(self, job: bytes, ranges: Sequence[tuple[int, int]]) -> RdbBuilder:
        """Valkey 80 opcode 243: a job name and slot ranges."""
        body = enc_str(job) + enc_len(len(ranges)) + b"".join(enc_len(a) + enc_len(b) for a, b in ranges)
        return self.raw(b"\xf3" + body)

    def valkey_update(self, *argv: bytes) -> RdbBuilder:
        """Valkey 81 opcode 242 UPDATE: one replicated command as a RESP multi-bulk."""
        resp = b"*%d\r\n" % len(argv) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in argv)
        return self.raw(b"\xf2" + resp)

    # keys

    def key(
        self,
        type_byte: int,
        key: bytes,
        payload: bytes,
        *,
        expire_ms: int | None = None,
        expire_s: int | None = None,
        idle: int | None = None,
        freq: int | None = None,
        key_meta: Sequence[tuple[bytes, Sequence[ModuleOp]]] | None = None,
        key_lzf: bool = False,
        key_len_width: int | None = None,
    ) -> RdbBuilder:
        """One key record: prefix opcodes, type byte, key name, value payload (already encoded)."""
        out = bytearray()
        if expire_ms is not None:
            out += b"\xfc" + expire_ms.to_bytes(8, "little", signed=True)
        if expire_s is not None:
            out += b"\xfd" + expire_s.to_bytes(4, "little", signed=True)
        if idle is not None:
            out += b"\xf8" + enc_len(idle)
        if freq is not None:
            out += b"\xf9" + bytes([freq])
        if key_meta:
            out += b"\xf3" + enc_len(len(key_meta))
            for spec, ops in key_meta:
                if len(spec) != 4:
                    raise ValueError("a key-metadata class spec is 4 raw bytes")
                out += spec + module_stream(ops)
        out.append(type_byte)
        out += enc_str(key, lzf="backref" if key_lzf else None, len_width=key_len_width)
        out += payload
        self.records.append((self._offset(), len(out)))
        return self.raw(bytes(out))

    def string(
        self,
        key: bytes,
        value: bytes,
        *,
        lzf: str | None = None,
        as_int: bool = False,
        len_width: int | None = None,
        **prefix: Any,
    ) -> RdbBuilder:
        return self.key(0, key, enc_str(value, lzf=lzf, as_int=as_int, len_width=len_width), **prefix)

    def set_hashtable(self, key: bytes, members: Sequence[bytes], **prefix: Any) -> RdbBuilder:
        return self.key(2, key, enc_len(len(members)) + b"".join(enc_str(m) for m in members), **prefix)

    def hash_hashtable(self, key: bytes, pairs: Sequence[tuple[bytes, bytes]], **prefix: Any) -> RdbBuilder:
        body = enc_len(len(pairs)) + b"".join(enc_str(f) + enc_str(v) for f, v in pairs)
        return self.key(4, key, body, **prefix)

    def blob(
        self,
        type_byte: int,
        key: bytes,
        blob: bytes,
        *,
        lzf: str | None = None,
        len_width: int | None = None,
        **prefix: Any,
    ) -> RdbBuilder:
        """A compact-blob type (9–13, 16, 17, 20): the blob as one RDB string, optionally LZF-compressed."""
        return self.key(type_byte, key, enc_str(blob, lzf=lzf, len_width=len_width), **prefix)

    def quicklist2(
        self, key: bytes, nodes: Sequence[tuple[int, bytes]], *, lzf: str | None = None, **prefix: Any
    ) -> RdbBuilder:
        """Type 18: nodes as (container, blob): 1 = PLAIN (blob is the element), 2 = PACKED (a listpack)."""
        body = enc_len(len(nodes)) + b"".join(enc_len(c) + enc_str(b, lzf=lzf) for c, b in nodes)
        return self.key(18, key, body, **prefix)

    def quicklist1(self, key: bytes, ziplists: Sequence[bytes], **prefix: Any) -> RdbBuilder:
        return self.key(14, key, enc_len(len(ziplists)) + b"".join(enc_str(z) for z in ziplists), **prefix)

    def hash_metadata(
        self, key: bytes, fields: Sequence[tuple[bytes, bytes, int | None]], *, pre_ga: bool = False, **prefix: Any
    ) -> RdbBuilder:
        """Types 24 (GA: u64 minExpire, then per field len ttl relative to it, 0 = none) and 22 (pre-GA: absolute)."""
        ttls = [t for _, _, t in fields if t is not None]
        min_expire = min(ttls) if ttls else 0
        body = bytearray() if pre_ga else bytearray(min_expire.to_bytes(8, "little"))
        body += enc_len(len(fields))
        for f, v, t in fields:
            if t is None:
                body += enc_len(0)
            else:
                body += enc_len(t if pre_ga else t - min_expire + 1)
            body += enc_str(f) + enc_str(v)
        return self.key(22 if pre_ga else 24, key, bytes(body), **prefix)

    def hash_listpack_ex(
        self,
        key: bytes,
        fields: Sequence[tuple[bytes, bytes, int | None]],
        *,
        pre_ga: bool = False,
        lzf: str | None = None,
        **prefix: Any,
    ) -> RdbBuilder:
        """Types 25 (u64 minExpire header + listpack of field, value, ttl) and 23 (pre-GA, no header)."""
        ttls = [t for _, _, t in fields if t is not None]
        items: list[Element] = []
        for f, v, t in fields:
            items += [f, v, t or 0]
        body = b"" if pre_ga else (min(ttls) if ttls else 0).to_bytes(8, "little")
        return self.key(23 if pre_ga else 25, key, body + enc_str(listpack(items), lzf=lzf), **prefix)

    def valkey_hash2(self, key: bytes, fields: Sequence[tuple[bytes, bytes, int | None]], **prefix: Any) -> RdbBuilder:
        """Valkey 80 type 22: field, value, i64 LE expiry ms (−1 = none)."""
        body = enc_len(len(fields)) + b"".join(
            enc_str(f) + enc_str(v) + (-1 if t is None else t).to_bytes(8, "little", signed=True) for f, v, t in fields
        )
        return self.key(22, key, body, **prefix)

    def stream(
        self,
        key: bytes,
        *,
        version: int = 3,
        nodes: Sequence[Sequence[tuple[StreamId, Sequence[tuple[bytes, bytes]]]]] = (),
        length: int | None = None,
        last_id: StreamId | None = None,
        entries_added: int | None = None,
        groups: Sequence[Group] = (),
        idmp: tuple[int, int] = (100, 100),
        **prefix: Any,
    ) -> RdbBuilder:
        """Streams v1–v5 (types 15, 19, 21, 26, 27). v4 writes an IDMP block with no producers."""
        type_byte = {1: 15, 2: 19, 3: 21, 4: 26, 5: 27}[version]
        all_entries = [e for node in nodes for e in node]
        body = bytearray(enc_len(len(nodes)))
        for node in nodes:
            node_key, lp = stream_node(node)
            body += enc_str(node_key) + enc_str(lp)
        n = len(all_entries) if length is None else length
        last = last_id or (all_entries[-1][0] if all_entries else (0, 0))
        body += enc_len(n) + enc_len(last[0]) + enc_len(last[1])
        if version >= 2:
            first = all_entries[0][0] if all_entries else (0, 0)
            body += enc_len(first[0]) + enc_len(first[1]) + enc_len(0) + enc_len(0)
            body += enc_len(n if entries_added is None else entries_added)
        body += enc_len(len(groups))
        for g in groups:
            body += enc_str(g.name) + enc_len(g.last_id[0]) + enc_len(g.last_id[1])
            if version >= 2:
                body += enc_len(g.entries_read)
            body += enc_len(len(g.pel))
            for sid, delivered, count in g.pel:
                body += raw_id(sid) + delivered.to_bytes(8, "little") + enc_len(count)
            body += enc_len(len(g.consumers))
            for c in g.consumers:
                body += enc_str(c.name) + c.seen_ms.to_bytes(8, "little")
                if version >= 3:
                    body += c.active_ms.to_bytes(8, "little", signed=True)
                body += enc_len(len(c.pel)) + b"".join(raw_id(s) for s in c.pel)
            if version >= 5:
                body += enc_len(len(g.nacked)) + b"".join(raw_id(s) for s in g.nacked)
        if version >= 4:
            body += enc_len(idmp[0]) + enc_len(idmp[1]) + enc_len(0) + enc_len(0) + enc_len(0)
        return self.key(type_byte, key, bytes(body), **prefix)

    def module(self, key: bytes, name: str, encver: int, ops: Iterable[ModuleOp], **prefix: Any) -> RdbBuilder:
        """Type 7 (MODULE_2): module id (0x81 + u64 BE), opcode stream, EOF."""
        return self.key(7, key, enc_len(module_id(name, encver), width=9) + module_stream(ops), **prefix)

    def module_pre_ga(self, key: bytes, name: str, encver: int, payload: bytes, **prefix: Any) -> RdbBuilder:
        """Type 6 (MODULE, RDB 8 pre-GA): module id then module-private bytes with no opcodes."""
        return self.key(6, key, enc_len(module_id(name, encver), width=9) + payload, **prefix)

    def array(
        self, key: bytes, elements: Sequence[tuple[int, object]], *, insert_idx: int | None = None, **prefix: Any
    ) -> RdbBuilder:
        """Redis RDB 14 type 28: count, insert-index flag [+ index], then (index, tag, payload) per element.

        Element values: int → tag 1 (i64 LE), float → tag 2 (f64 LE), bytes ≤ 7 → tag 3 (small string),
        longer bytes → tag 0 (sds); both string tags are RDB strings.
        """
        body = bytearray(enc_len(len(elements)))
        body += enc_len(0) if insert_idx is None else enc_len(1) + enc_len(insert_idx)
        for index, value in elements:
            body += enc_len(index)
            if isinstance(value, bool) or not isinstance(value, int | float | bytes):
                raise TypeError(value)
            if isinstance(value, int):
                body += enc_len(1) + value.to_bytes(8, "little", signed=True)
            elif isinstance(value, float):
                body += enc_len(2) + struct.pack("<d", value)
            else:
                body += enc_len(3 if len(value) <= 7 else 0) + enc_str(value)
        return self.key(28, key, bytes(body), **prefix)

    def hash_tmpl_lp_ref(self, key: bytes, template_id: int, values: Sequence[Element], **prefix: Any) -> RdbBuilder:
        """Type 30: one listpack, first entry the template id, then the values in template field order."""
        return self.key(30, key, enc_str(listpack([template_id, *values])), **prefix)

    def hash_tmpl_array_ref(self, key: bytes, template_id: int, values: Sequence[bytes], **prefix: Any) -> RdbBuilder:
        """Type 32: template id (a length), then one string per template field."""
        return self.key(32, key, enc_len(template_id) + b"".join(enc_str(v) for v in values), **prefix)

    # output

    def body(self) -> bytes:
        """Everything up to and including the EOF opcode (what the CRC covers)."""
        return self.header() + b"".join(self.parts) + b"\xff"

    def build(self, *, checksum: bool = True, lz4_envelope: bool = False) -> bytes:
        """The file: body, then the CRC-64 (zeros with checksum=False; nothing for RDB < 5), maybe LZ4-wrapped."""
        data = self.body()
        if self.magic != "REDIS" or self.version >= 5:
            data += (crc64(data) if checksum else 0).to_bytes(8, "little")
        if lz4_envelope:
            data = vcs_envelope(data)
        return data


def vcs_envelope(rdb: bytes) -> bytes:
    """Valkey 9.2's whole-file envelope: "VCS", version 1, codec 1 (LZ4), reserved 0, kind 1 (RDB), LZ4 frame."""
    import lz4.frame

    return b"VCS\x01\x01\x00\x01" + lz4.frame.compress(rdb, content_checksum=True)
