"""A streaming, skim-first RDB parser: one RdbKey per key, without building the elements it does not need.

The file is memory-mapped and walked once. Compact blobs (listpack, ziplist, intset, zipmap) are read from
their headers: an LZF-compressed blob is decoded only as far as its header. Elements stored one by one
(hashtable hashes and sets, skiplist zsets, linked lists) are stepped over by their length prefixes. Pages
already parsed are checksummed and released every few megabytes, so resident memory stays flat however big
the file is.

Formats: RDB 1–15 (Redis 2.x to 8.10) and Valkey's `VALKEY080`/`081`, whose type bytes 22–23 and opcodes
242–243 mean something else than Redis's: types and opcodes are dispatched on the magic. RDB records
carry no lengths, so an unknown type or opcode cannot be stepped over; the parser stops with RdbError and the
byte offset instead of guessing. Module values are skipped through their self-describing opcode stream.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import struct
from collections.abc import Callable, Generator, Iterator
from types import TracebackType

from rediscipline import compiled
from rediscipline.model.location import SOURCE_RDB, Location
from rediscipline.redis_meta.encodings import EMBSTR_MAX_BYTES, INT_STRING_MAX_BYTES
from rediscipline.redis_meta.versions import EMBEDDED_KEY, REDIS, SMALL_SETS_AND_LISTS_AS_LISTPACK, VALKEY
from rediscipline.sources.rdb.blobs import BlobError
from rediscipline.sources.rdb.crc import Crc64
from rediscipline.sources.rdb.envelope import unwrap
from rediscipline.sources.rdb.errors import RdbError
from rediscipline.sources.rdb.lzf import LzfError, decompress
from rediscipline.sources.rdb.primitives import (
    EMBED_REDIS,
    EMBED_VALKEY,
    HEAD_BYTES,
    HEAD_DECODE_FROM,
    INT_START,
    LZF_MAX_RATIO,
    check_lzf,
    embstr,
    int_string,
    is_int,
    module_name,
    read_length,
    version_tuple,
)
from rediscipline.sources.rdb.records import RdbHeader, RdbKey
from rediscipline.sources.rdb.values import elements, handlers_for

#: In metadata mode, compact blobs at least this big are walked for their largest element (smaller blobs
#: cannot hold an element worth reporting); deep mode walks every blob.
WALK_BLOBS_FROM = 8 * 1024
#: The compiled twin of `Walk.run` (see `rediscipline.compiled`).
WALK = "rediscipline.sources.rdb._walk"
#: Parsed pages are checksummed and released in steps of this many bytes.
RELEASE_STEP = 16 * 1024 * 1024


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


class RdbFile:
    """An open dump: `header`, then `keys()` walks it; `aux`, `functions`, `resize` (RESIZEDB per db),
    `slots` (SLOT_INFO: keys per cluster slot), `module_aux`, `expired` and `checksum` fill in as it goes.

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
        self._walking: Generator[RdbKey, None, None] | None = None  # the walk `__iter__` started, ended by `close`
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
        self, kind: type[BaseException] | None, value: BaseException | None, _traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        walking, self._walking = self._walking, None
        if walking is not None:
            walking.close()  # the compiled walk holds a view of the map until its generator ends
        for name in ("_envelope", "_map", "_file"):
            resource = getattr(self, name, None)
            if resource is not None:
                # a view of the map may outlive the walk (a value not yet freed where it was handed, a cycle the
                # collector has not reached): the map is then unmapped when the last view goes
                with contextlib.suppress(BufferError):
                    resource.close()
                setattr(self, name, None)

    def __iter__(self) -> Iterator[RdbKey]:
        self._walking = self.keys()
        return self._walking

    def keys(self) -> Generator[RdbKey, None, None]:
        """Every key in file order; raises RdbError with the offset on malformed or unsupported data.

        With the compiled core, its twin of `Walk.run` walks the file (`sources.rdb._walk`)."""
        walk = self.start()
        fast = compiled.load(WALK)
        try:
            yield from walk.run() if fast is None else fast.run(walk)
        except WALK_ERRORS as error:
            raise self.failure(error, walk) from None

    def start(self) -> Walk:
        """A walk from the first record, stepping over elements with the compiled core's loop when it is in
        use (the compiled dump loop, `_walk.dump_facts`, drives it itself)."""
        walk = Walk(self)
        fast = compiled.load(WALK)
        if fast is not None:
            walk.elements = fast.elements
        return walk

    def failure(self, error: Exception, walk: Walk) -> RdbError:
        """The RdbError, with this file's path and an offset, that an error of `WALK_ERRORS` raised by `walk`
        stands for."""
        if isinstance(error, RdbError):
            reason, offset = error.reason, error.offset
        elif isinstance(error, MemoryError):
            reason, offset = "a length field asks for more memory than is available", walk.record
        else:
            reason, offset = _describe(error), min(walk.record, walk.end)
        if self.header.envelope is not None:
            reason += f" (offset in the decompressed {self.header.envelope} data)"
        return RdbError(reason, offset, self.path)


#: What a walk over damaged data can raise; `RdbFile.failure` turns each into an RdbError with an offset.
WALK_ERRORS = (RdbError, IndexError, struct.error, BlobError, LzfError, ValueError, OverflowError, MemoryError)


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


class Walk:
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
        self.handlers = handlers_for(header)
        self.list_packed = False  # set from redis-ver: 7.2+ keeps single-node lists as listpack
        self.expire: int | None = None  # the prefix opcode just read (see _prefix_or_opcode)
        self.idle: int | None = None
        self.origin = Location(SOURCE_RDB, rdb.path, None, None, 0)
        # TTLs count from the dump's AUX `ctime`; old dumps without it fall back on the file's mtime, which
        # may be much later (a copied file), so then no key is dropped as already expired.
        self.now_ms = int(os.stat(rdb.path).st_mtime * 1000)
        self.drop_expired = False
        self.embed_key = 0  # how the writer sizes embedded strings (EMBED_*), from its version
        self.expire_pending = False  # the key being read has an expiry (embedded strings depend on it)
        self.templates: dict[int, int] = {}  # RDB 15 hash template id → field count
        self.blob_start = 0  # where the blob a handler is reading starts, to re-read it in full
        self.elements = elements  # steps over elements stored one by one (the compiled core's own, with it)

    # -- the loop --------------------------------------------------------------------------------------

    def run(self) -> Iterator[RdbKey]:
        """The hot loop. The commonest records are decoded inline, because a method call per key is a tenth
        of the whole budget: the expiry, idle and frequency prefixes, and a string value under a key of at
        most 63 bytes, plain or LZF-compressed with 6- or 14-bit lengths. Everything else goes through the
        type's handler or `_prefix_or_opcode`."""
        buf, end, handlers = self.buf, self.end, self.handlers
        pos = self.pos
        mark = RELEASE_STEP
        expire: int | None = None
        idle: int | None = None
        freq: int | None = None
        record = pos
        want_head = self.want_head
        embed_key = self.embed_key
        int_max, embstr_max = INT_STRING_MAX_BYTES, EMBSTR_MAX_BYTES  # locals: read once per key below
        try:
            while True:
                if pos >= mark:
                    if pos > end:
                        raise RdbError("unexpected end of file inside a record", min(record, end))
                    self._release(pos)
                    mark = pos + RELEASE_STEP
                op = buf[pos]
                if op == OP_EXPIRETIME_MS:
                    expire = int.from_bytes(buf[pos + 1 : pos + 9], "little", signed=True)
                    pos += 9
                    continue
                if op == OP_IDLE and buf[pos + 1] < 0x80:
                    b = buf[pos + 1]
                    if b < 0x40:
                        idle, pos = b, pos + 2
                    else:
                        idle, pos = (b & 0x3F) << 8 | buf[pos + 2], pos + 3
                    continue
                if op == OP_FREQ:
                    freq, pos = buf[pos + 1], pos + 2
                    continue
                fact = None
                if op == 0 and buf[pos + 1] < 0x40:
                    n = buf[pos + 1]  # key length
                    p = pos + 2 + n  # the value's first byte
                    b = buf[p]
                    if b < 0x80:  # a plain string, 6- or 14-bit length
                        if b < 0x40:
                            size, start = b, p + 1
                        else:
                            size, start = (b & 0x3F) << 8 | buf[p + 1], p + 2
                        value = buf[start : start + min(size, HEAD_BYTES)] if want_head or size <= int_max else None
                        key = buf[pos + 2 : p]
                        pos = start + size
                        if size <= int_max and size and value and value[0] in INT_START and is_int(value):
                            encoding = "int"
                        elif size <= embstr_max if not embed_key else embstr(embed_key, n, size, expire is not None):
                            encoding = "embstr"
                        else:
                            encoding = "raw"
                        fact = RdbKey(
                            key, self.origin, self.db, "string", -1, None, size, encoding, idle, freq, None, None,
                            value if want_head else None, record, pos - record, size,
                        )  # fmt: skip
                    elif b == 0xC3 and buf[p + 1] < 0x80 and buf[p + 2 + (buf[p + 1] >> 6)] < 0x80:
                        c = buf[p + 1]  # compressed length, then uncompressed length, each 6- or 14-bit
                        if c < 0x40:
                            clen, q = c, p + 2
                        else:
                            clen, q = (c & 0x3F) << 8 | buf[p + 2], p + 3
                        u = buf[q]
                        if u < 0x40:
                            ulen, q = u, q + 1
                        else:
                            ulen, q = (u & 0x3F) << 8 | buf[q + 1], q + 2
                        if ulen > LZF_MAX_RATIO * clen:
                            raise RdbError("compressed string claims more than LZF can expand to", record)
                        key = buf[pos + 2 : p]
                        pos = q + clen
                        head = None
                        if want_head and clen:
                            if ulen >= HEAD_DECODE_FROM:
                                head = decompress(buf[q:pos], ulen, HEAD_BYTES)
                            else:
                                run = buf[q] + 1  # the first literal run, no decoding loop
                                head = buf[q + 1 : q + 1 + min(run, clen - 1)] if run <= 32 else b""
                        encoding = "embstr" if embstr(embed_key, n, ulen, expire is not None) else "raw"
                        fact = RdbKey(
                            key, self.origin, self.db, "string", -1, None, ulen, encoding, idle, freq, None, None,
                            head, record, pos - record, ulen,
                        )  # fmt: skip
                if fact is None:
                    handler = handlers.get(op)
                    if handler is None:
                        self.record = record
                        pos = self._prefix_or_opcode(op, pos + 1, record)
                        if pos < 0:
                            return
                        if op == OP_EXPIRETIME:
                            expire = self.expire
                        elif op == OP_IDLE:
                            idle = self.idle
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
        except Exception:
            self.record = record  # the record being read, for the error's offset (`RdbFile.keys`)
            raise

    def _prefix_or_opcode(self, op: int, pos: int, record: int) -> int:
        """Read a key's rarer prefix opcodes (into self.expire / self.idle; `run` inlines the common forms) or a
        file-level opcode; -1 after EOF."""
        buf = self.buf
        if op == OP_EXPIRETIME:
            self.expire = int.from_bytes(buf[pos : pos + 4], "little", signed=True) * 1000
            return pos + 4
        if op == OP_IDLE:
            self.idle, pos = read_length(buf, pos)
            return pos
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
            self.db, pos = read_length(buf, pos)
            self.origin = Location(SOURCE_RDB, self.rdb.path, None, None, self.db)
        elif op == OP_RESIZEDB:
            size, pos = read_length(buf, pos)
            expires, pos = read_length(buf, pos)
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
                version = version_tuple(value)
                self.list_packed = SMALL_SETS_AND_LISTS_AS_LISTPACK.available(REDIS, version)
                self.embed_key = EMBED_REDIS if EMBEDDED_KEY.available(REDIS, version) else 0
            elif name == b"valkey-ver":
                version = version_tuple(value)
                self.list_packed = True  # Valkey began at 7.2
                self.embed_key = EMBED_VALKEY if EMBEDDED_KEY.available(VALKEY, version) else 0
            return False
        elif op == OP_MODULE_AUX:
            module_id, pos = read_length(buf, pos)
            when_op, pos = read_length(buf, pos)
            if when_op != _MOD_UINT:
                raise RdbError("module aux record without its 'when' field", record)
            _when, pos = read_length(buf, pos)
            self.pos = pos
            self._skip_module_stream()
            self.rdb.module_aux.append(module_name(module_id))
            return False
        elif op == OP_FUNCTION2:
            self.pos = pos
            self.rdb.functions.append(self._string())
            return False
        elif op == OP_FUNCTION_PRE_GA:
            raise RdbError("function record of a Redis 7.0 release candidate (unsupported; resave with 7.0 GA)", record)
        elif op == OP_SLOT_INFO:
            slot, pos = read_length(buf, pos)
            size, pos = read_length(buf, pos)
            _expires, pos = read_length(buf, pos)
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
            template, pos = read_length(buf, pos)
            fields, pos = read_length(buf, pos)
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
                return int_string(buf, pos + 1, width)
            if enc == 3:
                self.pos = pos + 1
                return self._lzf(None)
            raise RdbError(f"unknown string encoding {enc}", self.record)
        n, pos = read_length(buf, pos)
        if pos + n > self.end:
            raise RdbError("string runs past the end of the file", self.record)
        self.pos = pos + n
        return buf[pos : pos + n]

    def lzf_header(self, pos: int) -> tuple[int, int, int]:
        """The compressed and uncompressed lengths of the LZF string whose lengths start at `pos` (just after
        its 0xC3 byte), and where its data starts; checked against the LZF bound and the end of the file."""
        clen, pos = read_length(self.buf, pos)
        ulen, pos = read_length(self.buf, pos)
        check_lzf(clen, ulen, self.record)
        if pos + clen > self.end:
            raise RdbError("compressed string runs past the end of the file", self.record)
        return clen, ulen, pos

    def _lzf(self, limit: int | None) -> bytes:
        """An LZF string at self.pos (after its 0xC3 byte); `limit` decodes only a prefix."""
        clen, ulen, pos = self.lzf_header(self.pos)
        self.pos = pos + clen
        return decompress(self.buf[pos : pos + clen], ulen, limit)

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
            clen, ulen, p = self.lzf_header(pos + 1)
            self.pos = p + clen
            return decompress(buf[p : p + clen], ulen, want), ulen, True
        n, p = read_length(buf, pos)
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
                return len(int_string(buf, pos + 1, width))
            if enc == 3:
                clen, ulen, data = self.lzf_header(pos + 1)
                self.pos = data + clen
                return ulen
            raise RdbError(f"unknown string encoding {enc}", self.record)
        n, pos = read_length(buf, pos)
        self.pos = pos + n
        return n

    def _walk_blob(self, size: int) -> bool:
        return self.deep or size >= WALK_BLOBS_FROM

    # -- module values ---------------------------------------------------------------------------------

    def _skip_module_stream(self) -> None:
        """Step over a module's self-describing opcode stream up to its EOF opcode."""
        buf = self.buf
        while True:
            op, pos = read_length(buf, self.pos)
            self.pos = pos
            if op == _MOD_EOF:
                return
            if op in (_MOD_SINT, _MOD_UINT):
                _, self.pos = read_length(buf, pos)
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
        count, self.pos = read_length(self.buf, self.pos)
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
        count, self.pos = read_length(self.buf, self.pos)
        for _ in range(count):
            _lo, self.pos = read_length(self.buf, self.pos)
            _hi, self.pos = read_length(self.buf, self.pos)
