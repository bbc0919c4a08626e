"""A streaming, skim-first RDB parser: one RdbKey per key, without building the elements it does not need.

The file is memory-mapped and walked once. Compact blobs (listpack, ziplist, intset, zipmap) are read from
their headers: an LZF-compressed blob is decoded only as far as its header. Elements stored one by one
(hashtable hashes and sets, skiplist zsets, linked lists) are stepped over by their length prefixes. Pages
already parsed are checksummed and released every few megabytes, so resident memory stays flat however big
the file is.

Formats: RDB 1–15 (Redis 2.x to 8.10) and Valkey's `VALKEY080`/`081`, whose type bytes 22–23 and opcodes
242–243 mean something else than Redis's: the dispatch tables are chosen by (magic, version). RDB records
carry no lengths, so an unknown type or opcode cannot be stepped over; the parser stops with RdbError and the
byte offset instead of guessing. Module values are skipped through their self-describing opcode stream.
"""

from __future__ import annotations

import mmap
import os
import struct
from collections.abc import Callable, Iterator
from itertools import islice
from types import TracebackType
from typing import TypeVar

from rediscipline.model.location import SOURCE_RDB, Location
from rediscipline.sources.rdb import blobs
from rediscipline.sources.rdb.blobs import BlobError
from rediscipline.sources.rdb.crc import Crc64
from rediscipline.sources.rdb.envelope import unwrap
from rediscipline.sources.rdb.errors import RdbError
from rediscipline.sources.rdb.lzf import LzfError, decompress
from rediscipline.sources.rdb.records import RdbHeader, RdbKey

#: Leading bytes of a string value kept as `RdbKey.head` (the rules' view of a value; see KeyFact.head).
HEAD_BYTES = 1024
#: Compressed strings shorter than this keep only their first LZF literal run (≤ 32 bytes) as head: enough
#: for magic numbers, and no rule reads further into values this small. Longer ones are decoded to HEAD_BYTES.
HEAD_DECODE_FROM = 1024
#: In metadata mode, compact blobs at least this big are walked for their largest element (smaller blobs
#: cannot hold an element worth reporting); deep mode walks every blob.
WALK_BLOBS_FROM = 8 * 1024
#: Parsed pages are checksummed and released in steps of this many bytes.
RELEASE_STEP = 16 * 1024 * 1024

_MODULE_CHARSET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_DOUBLE = struct.Struct("<d")

# Opcodes (rdb.h).
OP_FUNCTION2 = 245
OP_FUNCTION_PRE_GA = 246
OP_MODULE_AUX = 247
OP_IDLE = 248
OP_FREQ = 249
OP_AUX = 250
OP_RESIZEDB = 251
OP_EXPIRETIME_MS = 252
OP_EXPIRETIME = 253
OP_SELECTDB = 254
OP_EOF = 255
OP_SLOT_INFO = 244
OP_KEY_META = 243  # Redis RDB 13+; Valkey 80+ uses 243 for SLOT_IMPORT
OP_HASH_TEMPLATE = 242  # Redis RDB 15; Valkey 81 uses 242 for UPDATE

# Module opcode stream (rdb.h RDB_MODULE_OPCODE_*).
_MOD_EOF, _MOD_SINT, _MOD_UINT, _MOD_FLOAT, _MOD_DOUBLE, _MOD_STRING = range(6)

Handler = Callable[["_Walk", int, bytes], RdbKey]
_T = TypeVar("_T")


class RdbFile:
    """An open dump: `header`, then `keys()` walks it; `aux`, `functions`, `resize` fill in as it goes.

    Use as a context manager (or call `close()`): the file is memory-mapped.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        deep: bool = False,
        verify: bool = True,
        head: bool = True,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        self.path = os.fspath(path)
        self.deep = deep
        self.verify = verify
        self.want_head = head
        self.progress = progress
        self.aux: dict[str, bytes] = {}
        self.functions: list[bytes] = []
        self.resize: dict[int, tuple[int, int]] = {}
        self.module_aux: list[str] = []
        self.slots: dict[int, int] = {}
        self.expired = 0  # keys whose expiry had passed when the dump was written (a server drops them on load)
        self.checksum: str = "not checked"  # "verified", "absent" (written as zeros / RDB < 5), "not checked"
        self.position = 0
        try:
            self._file = open(self.path, "rb")  # noqa: SIM115 - closed by close()
        except OSError as error:
            raise RdbError(f"cannot open: {error.strerror}", 0, self.path) from None
        try:
            size = os.fstat(self._file.fileno()).st_size
            if size == 0:
                raise RdbError("empty file, not an RDB dump", 0, self.path)
            self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
            self._envelope = unwrap(self._map, self.path)
            data = self._envelope.data if self._envelope is not None else self._map
            self._buf: mmap.mmap | bytes = data
            self.header = _read_header(data, size, self.path, "lz4" if self._envelope is not None else None)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> RdbFile:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        for name in ("_envelope", "_map", "_file"):
            resource = getattr(self, name, None)
            if resource is not None:
                resource.close()
                setattr(self, name, None)

    def __iter__(self) -> Iterator[RdbKey]:
        return self.keys()

    def keys(self) -> Iterator[RdbKey]:
        """Every key in file order; raises RdbError with the offset on malformed or unsupported data."""
        walk = _Walk(self)
        try:
            yield from walk.run()
            return
        except RdbError as error:
            reason, offset = error.reason, error.offset
        except (IndexError, struct.error, BlobError, LzfError, ValueError, OverflowError) as error:
            reason, offset = _describe(error), min(walk.record, walk.end)
        except MemoryError:
            reason, offset = "a length field asks for more memory than is available", walk.record
        if self.header.envelope is not None:
            reason += f" (offset in the decompressed {self.header.envelope} data)"
        raise RdbError(reason, offset, self.path) from None


def open_rdb(
    path: str | os.PathLike[str],
    *,
    deep: bool = False,
    verify: bool = True,
    head: bool = True,
    progress: Callable[[int], None] | None = None,
) -> RdbFile:
    """Open a dump for one pass of `keys()`. `deep` walks every element (largest element everywhere)."""
    return RdbFile(path, deep=deep, verify=verify, head=head, progress=progress)


def _describe(error: Exception) -> str:
    if isinstance(error, IndexError | struct.error):
        return "unexpected end of file inside a record"
    if isinstance(error, BlobError | LzfError):
        return f"corrupt value: {error}"
    return f"corrupt record: {error}"


def _read_header(data: mmap.mmap | bytes, size: int, path: str, envelope: str | None) -> RdbHeader:
    if data[:5] == b"REDIS" and len(data) >= 9 and data[5:9].isdigit():
        version = int(data[5:9])
        if not 1 <= version <= 15:
            raise RdbError(f"unsupported RDB version {version} (this parser reads 1–15)", 5, path)
        return RdbHeader("REDIS", version, size, envelope)
    if data[:6] == b"VALKEY" and len(data) >= 9 and data[6:9].isdigit():
        version = int(data[6:9])
        if not 80 <= version <= 81:
            raise RdbError(f"unsupported Valkey RDB version {version} (this parser reads 80–81)", 6, path)
        return RdbHeader("VALKEY", version, size, envelope)
    raise RdbError("not an RDB dump: the file does not start with REDIS or VALKEY and a version", 0, path)


class _Walk:
    """One pass over the file. Kept apart from RdbFile so the hot loop reads plain attributes and locals."""

    def __init__(self, rdb: RdbFile) -> None:
        self.rdb = rdb
        self.buf = rdb._buf
        self.end = len(self.buf)
        header = rdb.header
        self.header = header
        self.valkey = header.magic == "VALKEY"
        self.deep = rdb.deep
        self.want_head = rdb.want_head
        self.pos = 9
        self.record = 9  # start of the record being parsed, for error offsets
        self.db = 0
        self.crc = Crc64() if rdb.verify and (header.version >= 5 or self.valkey) else None
        self.crc_done = 0
        self.released = 0
        self.handlers = _handlers(header)
        self.list_packed = False  # set from redis-ver: 7.2+ keeps single-node lists as listpack
        self.expire: int | None = None  # the prefix opcode just read (see _prefix_or_opcode)
        self.idle: int | None = None
        self.freq: int | None = None
        self.origin = Location(SOURCE_RDB, rdb.path, None, None, 0)
        # TTLs count from the dump's AUX `ctime`; old dumps without it fall back on the file's mtime, which
        # may be much later (a copied file), so then no key is dropped as already expired.
        self.now_ms = int(os.stat(rdb.path).st_mtime * 1000)
        self.drop_expired = False
        self.embed_key = 0  # how the writer sizes embedded strings (EMBED_*), from its version
        self.expire_pending = False  # the key being read has an expiry (embedded strings depend on it)
        self.templates: dict[int, int] = {}  # RDB 15 hash template id → field count
        self.blob_start = 0  # where the blob a handler is reading starts, to re-read it in full

    # -- the loop --------------------------------------------------------------------------------------

    def run(self) -> Iterator[RdbKey]:
        buf, end, handlers = self.buf, self.end, self.handlers
        pos = self.pos
        mark = RELEASE_STEP
        expire: int | None = None
        idle: int | None = None
        freq: int | None = None
        record = pos
        want_head = self.want_head
        embed_key = self.embed_key
        while True:
            if pos >= mark:
                if pos > end:
                    raise RdbError("unexpected end of file inside a record", min(record, end))
                self._release(pos)
                mark = pos + RELEASE_STEP
            op = buf[pos]
            if op == 0 and buf[pos + 1] < 0x40:
                # The commonest records, inlined: a short key holding a short or compressed string.
                n = buf[pos + 1]
                p = pos + 2 + n
                b = buf[p]
                if b < 0x40:
                    key = buf[pos + 2 : p]
                    value = buf[p + 1 : p + 1 + b]
                    pos = p + 1 + b
                    embstr = b <= 44 if not embed_key else _embstr(embed_key, n, b, expire is not None)
                    encoding = "embstr" if embstr else "raw"
                    if b <= 20 and b and value[0] in _INT_START and _is_int(value):
                        encoding = "int"
                    fact = RdbKey(
                        key, self.origin, self.db, "string", -1, None, b, encoding, idle, freq, None, None,
                        value if want_head else None, record, pos - record, b,
                    )  # fmt: skip
                elif b == 0xC3 and buf[p + 1] < 0x40 and 0x40 <= buf[p + 2] < 0x80:
                    clen = buf[p + 1]  # 6-bit compressed length, 14-bit uncompressed length
                    ulen = (buf[p + 2] & 0x3F) << 8 | buf[p + 3]
                    if ulen > LZF_MAX_RATIO * clen:
                        raise RdbError("compressed string claims more than LZF can expand to", record)
                    key = buf[pos + 2 : p]
                    pos = p + 4 + clen
                    head = None
                    if want_head:
                        run = buf[p + 4] + 1
                        head = buf[p + 5 : p + 5 + min(run, clen - 1)] if run <= 32 else b""
                        if ulen >= HEAD_DECODE_FROM:
                            head = decompress(buf[p + 4 : pos], ulen, HEAD_BYTES)
                    fact = RdbKey(
                        key, self.origin, self.db, "string", -1, None, ulen,
                        "embstr" if _embstr(embed_key, n, ulen, expire is not None) else "raw",
                        idle, freq, None, None, head, record, pos - record, ulen,
                    )  # fmt: skip
                else:
                    self.record = record
                    self.pos = pos + 1
                    self.expire_pending = expire is not None
                    fact = _string_value(self, op, self._key())
                    pos = self.pos
                    fact.offset, fact.size = record, pos - record
                    fact.idle_seconds, fact.freq = idle, freq
            else:
                handler = handlers.get(op)
                if handler is None:
                    self.record = record
                    pos = self._prefix_or_opcode(op, pos + 1, record)
                    if pos < 0:
                        return
                    if op in (OP_EXPIRETIME_MS, OP_EXPIRETIME):
                        expire = self.expire
                    elif op == OP_IDLE:
                        idle = self.idle
                    elif op == OP_FREQ:
                        freq = self.freq
                    elif op != OP_KEY_META or self.valkey:
                        record = pos
                        embed_key = self.embed_key  # an AUX field may have named the writer
                    continue
                self.record = record
                self.pos = pos + 1
                self.expire_pending = expire is not None
                fact = handler(self, op, self._key())
                pos = self.pos
                fact.offset, fact.size = record, pos - record
                if idle is not None or freq is not None:
                    fact.idle_seconds, fact.freq = idle, freq
            if pos > end:
                raise RdbError("unexpected end of file inside a record", min(record, end))
            record = pos
            if expire is not None:
                fact.expire_at_ms, fact.ttl_ms = expire, expire - self.now_ms
                expire = None
                if fact.ttl_ms <= 0:  # -1 would read as "no expiry"
                    if self.drop_expired:
                        self.rdb.expired += 1
                        idle = freq = None
                        continue
                    fact.ttl_ms = 0
            idle = freq = None
            yield fact

    def _prefix_or_opcode(self, op: int, pos: int, record: int) -> int:
        """Read a key's prefix opcode (into self.expire/idle/freq) or a file-level opcode; -1 after EOF."""
        buf = self.buf
        if op == OP_EXPIRETIME_MS:
            self.expire = int.from_bytes(buf[pos : pos + 8], "little", signed=True)
            return pos + 8
        if op == OP_EXPIRETIME:
            self.expire = int.from_bytes(buf[pos : pos + 4], "little", signed=True) * 1000
            return pos + 4
        if op == OP_IDLE:
            self.idle, pos = _length(buf, pos)
            return pos
        if op == OP_FREQ:
            self.freq = buf[pos]
            return pos + 1
        if pos - 1 != record and (op != OP_KEY_META or self.valkey):
            raise RdbError(f"opcode {op} between a key's expiry and its type", record)
        self.pos = pos
        if self._opcode(op, record):
            self._finish()
            return -1
        return self.pos

    def _opcode(self, op: int, record: int) -> bool:
        """Handle a file-level opcode at self.pos (just after it); True at EOF."""
        buf = self.buf
        pos = self.pos
        if op == OP_SELECTDB:
            self.db, pos = _length(buf, pos)
            self.origin = Location(SOURCE_RDB, self.rdb.path, None, None, self.db)
        elif op == OP_RESIZEDB:
            size, pos = _length(buf, pos)
            expires, pos = _length(buf, pos)
            self.rdb.resize[self.db] = (size, expires)
        elif op == OP_AUX:
            self.pos = pos
            name = self._string()
            value = self._string()
            self.rdb.aux[name.decode("utf-8", "replace")] = value
            if name == b"ctime" and value.isdigit():
                self.now_ms = int(value) * 1000
                self.drop_expired = True
            elif name == b"redis-ver" and b"valkey-ver" not in (k.encode() for k in self.rdb.aux):
                version = _version_tuple(value)
                self.list_packed = version >= (7, 2)
                self.embed_key = EMBED_REDIS if version >= (8,) else 0
            elif name == b"valkey-ver":
                version = _version_tuple(value)
                self.list_packed = True
                self.embed_key = EMBED_VALKEY if version >= (8, 1) else 0
            return False
        elif op == OP_MODULE_AUX:
            module_id, pos = _length(buf, pos)
            when_op, pos = _length(buf, pos)
            if when_op != _MOD_UINT:
                raise RdbError("module aux record without its 'when' field", record)
            _when, pos = _length(buf, pos)
            self.pos = pos
            self._skip_module_stream()
            self.rdb.module_aux.append(_module_name(module_id))
            return False
        elif op == OP_FUNCTION2:
            self.pos = pos
            self.rdb.functions.append(self._string())
            return False
        elif op == OP_FUNCTION_PRE_GA:
            raise RdbError("function record of a Redis 7.0 release candidate (unsupported; resave with 7.0 GA)", record)
        elif op == OP_SLOT_INFO:
            slot, pos = _length(buf, pos)
            size, pos = _length(buf, pos)
            _expires, pos = _length(buf, pos)
            self.rdb.slots[slot] = size
        elif op == OP_KEY_META and not self.valkey:
            self.pos = pos
            self._skip_key_meta()
            return False
        elif op == OP_KEY_META and self.valkey:  # SLOT_IMPORT: slot range and a job name
            self.pos = pos
            self._skip_slot_import()
            return False
        elif op == OP_HASH_TEMPLATE and not self.valkey:
            template, pos = _length(buf, pos)
            fields, pos = _length(buf, pos)
            self.pos = pos
            for _ in range(fields):
                self._skip()
            self.templates[template] = fields
            return False
        elif op == OP_HASH_TEMPLATE and self.valkey and self.header.version >= 81:
            self.pos = pos
            self._skip_resp_command()
            return False
        elif op == OP_EOF:
            self.pos = pos
            return True
        else:
            raise RdbError(f"unknown opcode or type {op} in {self.header.label}", record)
        self.pos = pos
        return False

    def _finish(self) -> None:
        """After EOF: the 8-byte CRC-64 (RDB 5+), compared with ours unless it was written as zeros."""
        pos, buf = self.pos, self.buf
        rdb = self.rdb
        if self.header.version < 5 and not self.valkey:
            rdb.checksum = "absent"
            rdb.position = pos
            return
        if pos + 8 > self.end:
            raise RdbError("file ends before its checksum (truncated)", min(pos, self.end))
        stored = int.from_bytes(buf[pos : pos + 8], "little")
        if stored == 0:
            rdb.checksum = "absent"
        elif self.crc is not None:
            computed = self.crc.update(buf, self.crc_done, pos)
            if computed != stored:
                raise RdbError(
                    f"CRC-64 mismatch: the file says {stored:016x}, its content gives {computed:016x} "
                    "(corrupt or modified; --no-verify reads it anyway)",
                    pos,
                )
            rdb.checksum = "verified"
        rdb.position = pos + 8
        if rdb.progress is not None:
            rdb.progress(self.header.size)

    def _release(self, pos: int) -> None:
        """Checksum what was parsed and hand its pages back to the kernel (RSS stays flat)."""
        if self.crc is not None:
            self.crc.update(self.buf, self.crc_done, pos)
            self.crc_done = pos
        buf = self.buf
        page = (pos // mmap.PAGESIZE) * mmap.PAGESIZE
        if isinstance(buf, mmap.mmap) and page > self.released and hasattr(mmap, "MADV_DONTNEED"):
            buf.madvise(mmap.MADV_DONTNEED, self.released, page - self.released)
            self.released = page
        self.rdb.position = pos
        if self.rdb.progress is not None:
            self.rdb.progress(pos)

    # -- strings ---------------------------------------------------------------------------------------

    def _key(self) -> bytes:
        buf, pos = self.buf, self.pos
        b = buf[pos]
        if b < 0x40:
            self.pos = pos + 1 + b
            return buf[pos + 1 : pos + 1 + b]
        return self._string()

    def _string(self) -> bytes:
        """A whole string (keys, AUX, functions): int and LZF forms are decoded."""
        buf, pos = self.buf, self.pos
        b = buf[pos]
        kind = b >> 6
        if kind == 3:
            enc = b & 0x3F
            if enc < 3:
                width = 1 << enc
                self.pos = pos + 1 + width
                return str(int.from_bytes(buf[pos + 1 : pos + 1 + width], "little", signed=True)).encode()
            if enc == 3:
                self.pos = pos + 1
                return self._lzf(None)
            raise RdbError(f"unknown string encoding {enc}", self.record)
        n, pos = _length(buf, pos)
        if pos + n > self.end:
            raise RdbError("string runs past the end of the file", self.record)
        self.pos = pos + n
        return buf[pos : pos + n]

    def _lzf(self, limit: int | None) -> bytes:
        """An LZF string at self.pos (after its 0xC3 byte); `limit` decodes only a prefix."""
        buf = self.buf
        clen, pos = _length(buf, self.pos)
        ulen, pos = _length(buf, pos)
        _check_lzf(clen, ulen, self.record)
        if pos + clen > self.end:
            raise RdbError("compressed string runs past the end of the file", self.record)
        self.pos = pos + clen
        return decompress(buf[pos : pos + clen], ulen, limit)

    def _blob(self) -> bytes:
        """A compact blob (listpack, ziplist, intset, zipmap) in full."""
        buf, pos = self.buf, self.pos
        if buf[pos] == 0xC3:
            self.pos = pos + 1
            return self._lzf(None)
        return self._string()

    def _blob_head(self, want: int) -> tuple[bytes, int, bool]:
        """The first `want` bytes of a blob, its uncompressed size, and whether it was compressed."""
        buf, pos = self.buf, self.pos
        if buf[pos] == 0xC3:
            clen, p = _length(buf, pos + 1)
            ulen, p = _length(buf, p)
            _check_lzf(clen, ulen, self.record)
            if p + clen > self.end:
                raise RdbError("compressed string runs past the end of the file", self.record)
            self.pos = p + clen
            return decompress(buf[p : p + clen], ulen, want), ulen, True
        n, p = _length(buf, pos)
        if p + n > self.end:
            raise RdbError("string runs past the end of the file", self.record)
        self.pos = p + n
        return buf[p : p + min(n, want)], n, False

    def _skip(self) -> int:
        """Step over a string; its uncompressed length."""
        buf, pos = self.buf, self.pos
        b = buf[pos]
        if b < 0x40:
            self.pos = pos + 1 + b
            return b
        if b >> 6 == 3:
            enc = b & 0x3F
            if enc < 3:
                width = 1 << enc
                self.pos = pos + 1 + width
                return len(str(int.from_bytes(buf[pos + 1 : pos + 1 + width], "little", signed=True)))
            if enc == 3:
                clen, pos = _length(buf, pos + 1)
                ulen, pos = _length(buf, pos)
                _check_lzf(clen, ulen, self.record)
                self.pos = pos + clen
                return ulen
            raise RdbError(f"unknown string encoding {enc}", self.record)
        n, pos = _length(buf, pos)
        self.pos = pos + n
        return n

    def _walk_blob(self, size: int) -> bool:
        return self.deep or size >= WALK_BLOBS_FROM

    # -- module values ---------------------------------------------------------------------------------

    def _skip_module_stream(self) -> None:
        """Step over a module's self-describing opcode stream up to its EOF opcode."""
        buf = self.buf
        while True:
            op, pos = _length(buf, self.pos)
            self.pos = pos
            if op == _MOD_EOF:
                return
            if op in (_MOD_SINT, _MOD_UINT):
                _, self.pos = _length(buf, pos)
            elif op == _MOD_FLOAT:
                self.pos = pos + 4
            elif op == _MOD_DOUBLE:
                self.pos = pos + 8
            elif op == _MOD_STRING:
                self._skip()
            else:
                raise RdbError(f"unknown module opcode {op}", self.record)
            if self.pos > self.end:
                raise RdbError("module value runs past the end of the file", self.record)

    def _skip_key_meta(self) -> None:
        """RDB 13 KEY_META: a count of metadata classes, each a 4-byte class spec and an opcode stream."""
        count, self.pos = _length(self.buf, self.pos)
        for _ in range(count):
            self.pos += 4
            self._skip_module_stream()

    def _skip_resp_command(self) -> None:
        """Valkey 81 UPDATE: one command in RESP (`*argc` then `$len` bulk strings), replayed on load."""
        argc = self._resp_number(b"*")
        for _ in range(argc):
            size = self._resp_number(b"$")
            if self.buf[self.pos + size : self.pos + size + 2] != b"\r\n":
                raise RdbError("malformed RESP argument in an UPDATE record", self.record)
            self.pos += size + 2

    def _resp_number(self, prefix: bytes) -> int:
        buf, pos = self.buf, self.pos
        if buf[pos : pos + 1] != prefix:
            raise RdbError("malformed RESP header in an UPDATE record", self.record)
        line_end = buf.find(b"\r\n", pos, pos + 24)
        digits = buf[pos + 1 : line_end] if line_end > 0 else b""
        if not digits.isdigit():
            raise RdbError("malformed RESP length in an UPDATE record", self.record)
        self.pos = line_end + 2
        return int(digits)

    def _skip_slot_import(self) -> None:
        """Valkey SLOT_IMPORT: a job name and slot ranges."""
        self._skip()
        count, self.pos = _length(self.buf, self.pos)
        for _ in range(count):
            _lo, self.pos = _length(self.buf, self.pos)
            _hi, self.pos = _length(self.buf, self.pos)


# -- value handlers ---------------------------------------------------------------------------------------
# Each reads the value of one key at walk.pos (after the type byte and the key) and returns its RdbKey with
# the prefix fields (expiry, idle, freq, offset, size) still unset: the loop fills them in.


def _key(walk: _Walk, key: bytes, kind: str, encoding: str, length: int, value_bytes: int) -> RdbKey:  # noqa: PLR0917
    return RdbKey(
        key, walk.origin, walk.db, kind, -1, None, length, encoding, None, None, None, None, None, 0, 0, value_bytes
    )


def _string_value(walk: _Walk, _op: int, key: bytes) -> RdbKey:
    """Any string the inlined path in `_Walk.run` did not take: int-encoded, compressed or long."""
    buf, pos = walk.buf, walk.pos
    b = buf[pos]
    head: bytes | None = None
    if b >> 6 == 3:
        enc = b & 0x3F
        if enc < 3:
            width = 1 << enc
            walk.pos = pos + 1 + width
            text = str(int.from_bytes(buf[pos + 1 : pos + 1 + width], "little", signed=True)).encode()
            out = _key(walk, key, "string", "int", len(text), len(text))
            out.head = text if walk.want_head else None
            return out
        if enc != 3:
            raise RdbError(f"unknown string encoding {enc}", walk.record)
        clen, p = _length(buf, pos + 1)
        ulen, p = _length(buf, p)
        _check_lzf(clen, ulen, walk.record)
        if p + clen > walk.end:
            raise RdbError("compressed string runs past the end of the file", walk.record)
        walk.pos = p + clen
        if walk.want_head:
            head = (
                decompress(buf[p : p + clen], ulen, HEAD_BYTES)
                if ulen >= HEAD_DECODE_FROM
                else _first_literal(buf, p, clen)
            )
        embstr = _embstr(walk.embed_key, len(key), ulen, walk.expire_pending)
        out = _key(walk, key, "string", "embstr" if embstr else "raw", ulen, ulen)
        out.head = head
        return out
    n, p = _length(buf, pos)
    if p + n > walk.end:
        raise RdbError("string runs past the end of the file", walk.record)
    walk.pos = p + n
    encoding = "embstr" if _embstr(walk.embed_key, len(key), n, walk.expire_pending) else "raw"
    if n <= 20 and _is_int(buf[p : p + n]):
        encoding = "int"
    out = _key(walk, key, "string", encoding, n, n)
    if walk.want_head:
        out.head = buf[p : p + min(n, HEAD_BYTES)]
    return out


#: Writers that embed the key (and its expiry) in the value's allocation, which moves the embstr limit:
#: Redis 8 (kvobj) and Valkey 8.1+. Before them a string of at most 44 bytes is embstr, whatever the key.
EMBED_REDIS = 1
EMBED_VALKEY = 2


def _embstr(embed_key: int, key_length: int, value_length: int, expires: bool) -> bool:
    """Would the writing server keep this string value embedded (OBJECT ENCODING embstr)?

    Measured on reloads (about 19,000 random cases on Redis 8.2.3, 30,000 on Valkey 9.1.2, no miss):
    Redis 8: key + value ≤ 41 bytes, or ≤ 33 with an expiry; Valkey: value ≤ 113 − key (key < 32 bytes)
    or 111 − key, and never with an expiry and a key of 108 bytes or more.
    """
    if embed_key == EMBED_REDIS:
        return key_length + value_length <= (33 if expires else 41)
    if embed_key == EMBED_VALKEY:
        if expires and key_length >= 108:
            return False
        return value_length <= (113 if key_length < 32 else 111) - key_length
    return value_length <= 44


#: The most LZF can inflate: a 3-byte back-reference token copies at most 264 bytes.
LZF_MAX_RATIO = 88


def _check_lzf(clen: int, ulen: int, record: int) -> None:
    """A compressed length that cannot inflate to the claimed one is corrupt (and must not be allocated)."""
    if ulen > LZF_MAX_RATIO * clen:
        raise RdbError(f"compressed string of {clen} bytes claims {ulen} bytes, more than LZF can expand to", record)


def _first_literal(buf: mmap.mmap | bytes, pos: int, clen: int) -> bytes:
    """The first literal run of an LZF stream: its first 1–32 bytes, with no decoding loop."""
    run = buf[pos] + 1 if clen else 0
    return buf[pos + 1 : pos + 1 + min(run, clen - 1)] if run <= 32 else b""


_INT_START = frozenset(b"-0123456789")
_INT_MIN = -(2**63)
_INT_MAX = 2**63 - 1


def _is_int(value: bytes) -> bool:
    """Would the server keep this string int-encoded (`string2ll` accepts it exactly)?"""
    if not value or len(value) > 20:
        return False
    digits = value[1:] if value[:1] == b"-" else value
    if not digits.isdigit() or not digits.isascii():
        return False
    if digits[:1] == b"0" and (len(digits) > 1 or value[:1] == b"-"):
        return False
    return _INT_MIN <= int(value) <= _INT_MAX


def _elements(walk: _Walk, count: int, per_item: int, score: int = 0) -> tuple[int, int]:
    """Step over `count * per_item` strings (each followed by a score when `score` is set); (total, largest).

    The hot loop of hashtable hashes and sets and skiplist zsets: plain 6- and 14-bit lengths and 8- and
    16-bit integers are decoded inline, without a method call per element; anything else (32-bit integers,
    compressed or long strings) goes through `_Walk._skip`. `score` is 0 (none), SCORE_TEXT (RDB ZSET: a
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
            width = 2 if b == 0xC1 else 4
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


def _linked_list(walk: _Walk, _op: int, key: bytes) -> RdbKey:
    count, walk.pos = _length(walk.buf, walk.pos)
    total, largest = _elements(walk, count, 1)
    out = _key(walk, key, "list", "linkedlist", count, total)
    out.largest_element = largest
    return out


def _set(walk: _Walk, _op: int, key: bytes) -> RdbKey:
    count, walk.pos = _length(walk.buf, walk.pos)
    total, largest = _elements(walk, count, 1)
    out = _key(walk, key, "set", "hashtable", count, total)
    out.largest_element = largest
    return out


def _hash(walk: _Walk, _op: int, key: bytes) -> RdbKey:
    count, walk.pos = _length(walk.buf, walk.pos)
    total, largest = _elements(walk, count, 2)
    out = _key(walk, key, "hash", "hashtable", count, total)
    out.largest_element = largest
    return out


def _zset(walk: _Walk, op: int, key: bytes) -> RdbKey:
    """Skiplist zset: members one by one, each followed by its score."""
    count, walk.pos = _length(walk.buf, walk.pos)
    total, largest = _elements(walk, count, 1, SCORE_BINARY if op == 5 else SCORE_TEXT)
    out = _key(walk, key, "zset", "skiplist", count, total)
    out.largest_element = largest
    return out


def _intset(walk: _Walk, _op: int, key: bytes) -> RdbKey:
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


def _reread(walk: _Walk, reader: Callable[[bytes], _T]) -> _T:
    """Apply `reader` to the whole blob just stepped over (it started at walk.blob_start)."""
    end = walk.pos
    walk.pos = walk.blob_start
    blob = walk._blob()
    walk.pos = end
    return reader(blob)


def _compact(kind: str, encoding: str, header: int, pairs: int, counter: Callable[[bytes], int]) -> Handler:
    """Handler for a collection in one compact blob whose element count is at byte `header` (u16 LE)."""
    walker = blobs.listpack_items if counter is blobs.listpack_count else blobs.ziplist_items

    def handler(walk: _Walk, _op: int, key: bytes) -> RdbKey:
        walk.blob_start = walk.pos
        head, size, _compressed = walk._blob_head(header + 2)
        if len(head) < header + 2:
            raise BlobError(f"{encoding} blob shorter than its header")
        if int.from_bytes(head[0:4], "little") != size:
            raise BlobError(f"{encoding} header gives a size other than the blob's")
        entries = head[header] | head[header + 1] << 8
        largest = None
        if entries == blobs.UNKNOWN_COUNT or walk._walk_blob(size):
            blob = _reread(walk, bytes)
            entries = counter(blob)
            if walk._walk_blob(size):
                items = walker(blob)
                largest = blobs.largest(islice(items, 0, None, 2) if kind == "zset" else items)  # not scores
        out = _key(walk, key, kind, encoding, entries // pairs, size)
        out.largest_element = largest
        return out

    return handler


def _zipmap(walk: _Walk, _op: int, key: bytes) -> RdbKey:
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


def _quicklist(walk: _Walk, op: int, key: bytes) -> RdbKey:
    """Quicklist v1 (type 14: ziplist nodes) and v2 (type 18: PLAIN or PACKED listpack nodes)."""
    buf = walk.buf
    nodes, walk.pos = _length(buf, walk.pos)
    v2 = op == 18
    header = 4 if v2 else 8
    total = count = 0
    largest = 0
    plain_nodes = 0
    for _ in range(nodes):
        container = 2
        if v2:
            container, walk.pos = _length(buf, walk.pos)
        if container == 1:  # PLAIN: one element, stored as is
            size = walk._skip()
            total += size
            count += 1
            plain_nodes += 1
            largest = max(largest, size)
            continue
        if container != 2:
            raise RdbError(f"unknown quicklist container {container}", walk.record)
        walk.blob_start = walk.pos
        head, size, _compressed = walk._blob_head(header + 2)
        if len(head) < header + 2:
            raise BlobError("list node shorter than its header")
        if int.from_bytes(head[0:4], "little") != size:
            raise BlobError("list node header gives a size other than the blob's")
        total += size
        entries = head[header] | head[header + 1] << 8
        if entries == blobs.UNKNOWN_COUNT or walk._walk_blob(size):
            blob = _reread(walk, bytes)
            if v2:
                entries = blobs.listpack_count(blob)
                node_largest = blobs.largest(blobs.listpack_items(blob))
            else:
                entries = blobs.ziplist_count(blob)
                node_largest = blobs.largest(blobs.ziplist_items(blob))
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


def _listpack_ex(walk: _Walk, op: int, key: bytes) -> RdbKey:
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


def _hash_metadata(walk: _Walk, op: int, key: bytes) -> RdbKey:
    """Hashtable hash with field TTLs (types 22 pre-GA and 24): each field is preceded by its TTL."""
    buf = walk.buf
    if op == 24:
        walk.pos += 8  # smallest field expiry
    count, walk.pos = _length(buf, walk.pos)
    total = largest = ttls = 0
    skip = walk._skip
    for _ in range(count):
        ttl, walk.pos = _length(buf, walk.pos)  # 24: relative to the smallest expiry; 22: absolute; 0: none
        ttls += ttl != 0
        for _ in range(2):
            size = skip()
            total += size
            largest = max(largest, size)
    out = _key(walk, key, "hash", "hashtable", count, total)
    out.hfe_fields = ttls
    out.largest_element = largest
    return out


def _valkey_hash2(walk: _Walk, _op: int, key: bytes) -> RdbKey:
    """Valkey 9 HASH_2 (type 22 under VALKEY080): (field, value, expiry ms or −1) per entry."""
    buf = walk.buf
    count, walk.pos = _length(buf, walk.pos)
    total = largest = ttls = 0
    skip = walk._skip
    for _ in range(count):
        for _ in range(2):
            size = skip()
            total += size
            largest = max(largest, size)
        expiry = int.from_bytes(buf[walk.pos : walk.pos + 8], "little", signed=True)
        walk.pos += 8
        ttls += expiry != -1
    out = _key(walk, key, "hash", "hashtable", count, total)
    out.hfe_fields = ttls
    out.largest_element = largest
    return out


def _stream(walk: _Walk, op: int, key: bytes) -> RdbKey:
    """Streams v1–v5 (types 15, 19, 21, 26, 27): listpack nodes, then metadata, groups, PELs, consumers."""
    buf = walk.buf
    version = _STREAM_VERSION[op]
    nodes, walk.pos = _length(buf, walk.pos)
    total = 0
    for _ in range(nodes):
        walk._skip()  # master entry id (16 bytes)
        total += walk._skip()
    length, walk.pos = _length(buf, walk.pos)
    for _ in range(2):  # last id
        _, walk.pos = _length(buf, walk.pos)
    if version >= 2:
        for _ in range(5):  # first id, max deleted id, entries added
            _, walk.pos = _length(buf, walk.pos)
    groups, walk.pos = _length(buf, walk.pos)
    pel = consumers = 0
    for _ in range(groups):
        walk._skip()  # name
        for _ in range(2):  # last delivered id
            _, walk.pos = _length(buf, walk.pos)
        if version >= 2:
            _, walk.pos = _length(buf, walk.pos)  # entries read
        pending, walk.pos = _length(buf, walk.pos)
        pel += pending
        for _ in range(pending):
            walk.pos += 16 + 8  # entry id, delivery time
            _, walk.pos = _length(buf, walk.pos)  # delivery count
        members, walk.pos = _length(buf, walk.pos)
        consumers += members
        for _ in range(members):
            walk._skip()  # name
            walk.pos += 8 if version < 3 else 16  # seen time (and v3+: active time)
            owned, walk.pos = _length(buf, walk.pos)
            walk.pos += 16 * owned
        if version >= 5:
            _skip_stream_nacks(walk)
    if version >= 4:
        _skip_stream_idmp(walk)
    out = _key(walk, key, "stream", "stream", length, total)
    out.nodes = nodes
    out.stream_groups, out.stream_pel, out.stream_consumers = groups, pel, consumers
    return out


def _skip_stream_idmp(walk: _Walk) -> None:
    """Stream v4 (Redis 8.6): the idempotent-producer table after the groups."""
    buf = walk.buf
    for _ in range(2):  # duration, max entries
        _, walk.pos = _length(buf, walk.pos)
    producers, walk.pos = _length(buf, walk.pos)
    for _ in range(producers):
        walk._skip()  # producer id
        entries, walk.pos = _length(buf, walk.pos)
        for _ in range(entries):
            walk._skip()  # idempotency id
            walk.pos += 16  # the stream entry id it produced
    for _ in range(2):  # ids added, duplicates
        _, walk.pos = _length(buf, walk.pos)


def _skip_stream_nacks(walk: _Walk) -> None:
    """Stream v5 (Redis 8.8): per group, the pending ids that no consumer owns."""
    nacked, walk.pos = _length(walk.buf, walk.pos)
    walk.pos += 16 * nacked


_STREAM_VERSION = {15: 1, 19: 2, 21: 3, 26: 4, 27: 5}


def _array(walk: _Walk, _op: int, key: bytes) -> RdbKey:
    """RDB 14 ARRAY: a sparse array of (index, tagged value) entries."""
    buf = walk.buf
    count, walk.pos = _length(buf, walk.pos)
    flag, walk.pos = _length(buf, walk.pos)
    if flag == 1:
        _, walk.pos = _length(buf, walk.pos)  # insert index
    elif flag != 0:
        raise RdbError(f"array with an unknown insert-index flag {flag}", walk.record)
    total = largest = 0
    for _ in range(count):
        _, walk.pos = _length(buf, walk.pos)  # index
        tag, walk.pos = _length(buf, walk.pos)
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


def _template_listpack(walk: _Walk, _op: int, key: bytes) -> RdbKey:
    """RDB 15 HASH_TMPL_LP_REF: a listpack of the template id followed by the field values."""
    walk.blob_start = walk.pos
    head, size, _compressed = walk._blob_head(6)
    if len(head) < 6 or int.from_bytes(head[0:4], "little") != size:
        raise BlobError("hash template listpack header does not match its size")
    entries = head[4] | head[5] << 8
    largest = None
    if entries == blobs.UNKNOWN_COUNT or walk._walk_blob(size):
        blob = _reread(walk, bytes)
        entries = blobs.listpack_count(blob)
        largest = blobs.largest(blobs.listpack_items(blob))
    if entries < 1:
        raise BlobError("hash template listpack without its template id")
    out = _key(walk, key, "hash", "template-listpack", entries - 1, size)
    out.largest_element = largest
    return out


def _template_array(walk: _Walk, _op: int, key: bytes) -> RdbKey:
    """RDB 15 HASH_TMPL_ARRAY_REF: a template id, then one value per field of that template."""
    template, walk.pos = _length(walk.buf, walk.pos)
    fields = walk.templates.get(template)
    if fields is None:
        raise RdbError(f"hash refers to template {template}, which the file did not define", walk.record)
    total, largest = _elements(walk, fields, 1)
    out = _key(walk, key, "hash", "template-array", fields, total)
    out.largest_element = largest
    return out


def _dump_only(walk: _Walk, op: int, key: bytes) -> RdbKey:
    raise RdbError(f"type {op} is a DUMP/RESTORE payload form, not expected in an RDB file", walk.record)


def _module(walk: _Walk, op: int, key: bytes) -> RdbKey:
    module_id, walk.pos = _length(walk.buf, walk.pos)
    name = _module_name(module_id)
    if op == 6:
        raise RdbError(f"module value of {name!r} in the pre-4.0 format, which cannot be skipped", walk.record)
    walk._skip_module_stream()
    out = _key(walk, key, name, "raw", 0, 0)
    out.module = name
    return out


def _module_name(module_id: int) -> str:
    value = module_id >> 10
    chars = []
    for _ in range(9):
        chars.append(_MODULE_CHARSET[value & 63])
        value >>= 6
    return "".join(reversed(chars))


def _length(buf: mmap.mmap | bytes, pos: int) -> tuple[int, int]:
    """An RDB length: 6-bit, 14-bit, 32-bit or 64-bit big-endian; special (encoded) forms are an error."""
    b = buf[pos]
    kind = b >> 6
    if kind == 0:
        return b, pos + 1
    if kind == 1:
        return ((b & 0x3F) << 8) | buf[pos + 1], pos + 2
    if b == 0x80:
        if pos + 5 > len(buf):
            raise IndexError
        return int.from_bytes(buf[pos + 1 : pos + 5], "big"), pos + 5
    if b == 0x81:
        if pos + 9 > len(buf):
            raise IndexError
        return int.from_bytes(buf[pos + 1 : pos + 9], "big"), pos + 9
    raise ValueError(f"bad length byte 0x{b:02x}")


def _version_tuple(value: bytes) -> tuple[int, ...]:
    parts = []
    for part in value.split(b".")[:3]:
        digits = part.strip()
        parts.append(int(digits) if digits.isdigit() else 0)
    return tuple(parts)


def _handlers(header: RdbHeader) -> dict[int, Handler]:
    """Type byte → value reader for this file's magic.

    Like Redis's own loader, a type is accepted whatever the version number says: type numbers are never
    reused within one lineage, and writers are known to ship a type before the version that documents it.
    Only the magic changes meanings: Valkey 80+ gave 22 (and 23 in 81) meanings of its own.
    """
    table: dict[int, Handler] = {
        0: _string_value,
        1: _linked_list,
        2: _set,
        3: _zset,
        4: _hash,
        5: _zset,
        6: _module,
        7: _module,
        9: _zipmap,
        10: _compact("list", "ziplist", 8, 1, blobs.ziplist_count),
        11: _intset,
        12: _compact("zset", "ziplist", 8, 2, blobs.ziplist_count),
        13: _compact("hash", "ziplist", 8, 2, blobs.ziplist_count),
        14: _quicklist,
        15: _stream,
        16: _compact("hash", "listpack", 4, 2, blobs.listpack_count),
        17: _compact("zset", "listpack", 4, 2, blobs.listpack_count),
        18: _quicklist,
        19: _stream,
        20: _compact("set", "listpack", 4, 1, blobs.listpack_count),
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
