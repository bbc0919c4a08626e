# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled twin of `Walk.run`: the same walk over a dump, with the commonest records read in C.

The prefix opcodes of a key (expiry in ms, idle, frequency) and a string value under a key of at most 63 bytes,
plain or LZF-compressed with 6- or 14-bit lengths, are decoded here, from the file's bytes through a pointer;
every other record goes through the same value readers (`values.py`) and opcode handling (`Walk`) the pure walk
calls, with the same arguments. A record the fast path cannot prove lies inside the file (a truncated or
damaged dump) is handed, from its first byte, to the pure walk, which then reads the rest of the file: both
cores raise the same error at the same offset because the same code raises it.

Any change to `Walk.run` is made here too; the tests compare both cores' facts and errors on every dump.
"""

import cython

CYTHON_VERSION = cython.__version__

# What the walk reads from the pure modules, bound on the first call (`bind`): importing this module stays
# as light as `rediscipline --version` needs it to be.
cdef bint bound = False
cdef object pure_run, RdbError, decompress, is_int, RdbKey, LZF_MAX_RATIO
cdef Py_ssize_t HEAD, DECODE_FROM, INT_MAX_BYTES, EMBSTR_MAX, STEP, WALK_FROM, UNKNOWN
cdef int EMBED_R, EMBED_V, OP_MS, OP_IDLE_, OP_FREQ_, OP_EXPIRE_S, OP_META
cdef frozenset INT_FIRST


cdef void bind() except *:
    global bound, pure_run, RdbError, decompress, is_int, RdbKey, LZF_MAX_RATIO, HEAD, DECODE_FROM
    global INT_MAX_BYTES, EMBSTR_MAX, STEP, WALK_FROM, UNKNOWN, EMBED_R, EMBED_V, OP_MS, OP_IDLE_, OP_FREQ_
    global OP_EXPIRE_S, OP_META, INT_FIRST
    from rediscipline.redis_meta import encodings
    from rediscipline.sources.rdb import blobs, errors, lzf, parser, primitives, records

    pure_run, RdbError, decompress = parser.Walk.run, errors.RdbError, lzf.decompress
    is_int, RdbKey, LZF_MAX_RATIO = primitives.is_int, records.RdbKey, primitives.LZF_MAX_RATIO
    HEAD, DECODE_FROM = primitives.HEAD_BYTES, primitives.HEAD_DECODE_FROM
    INT_MAX_BYTES, EMBSTR_MAX = encodings.INT_STRING_MAX_BYTES, encodings.EMBSTR_MAX_BYTES
    STEP, WALK_FROM, UNKNOWN = parser.RELEASE_STEP, parser.WALK_BLOBS_FROM, blobs.UNKNOWN_COUNT
    EMBED_R, EMBED_V = primitives.EMBED_REDIS, primitives.EMBED_VALKEY
    OP_MS, OP_IDLE_, OP_FREQ_ = parser.OP_EXPIRETIME_MS, parser.OP_IDLE, parser.OP_FREQ
    OP_EXPIRE_S, OP_META = parser.OP_EXPIRETIME, parser.OP_KEY_META
    INT_FIRST = primitives.INT_START
    bound = True


#: Type byte → (type, encoding, listpack (else ziplist), entries per element) of the collections held in one
#: listpack, ziplist or intset blob (`values._compact`, `values._intset`; 18: a quicklist of one packed node).
cdef dict COMPACT = {
    10: ("list", "ziplist", False, 1),
    11: ("set", "intset", False, 1),
    12: ("zset", "ziplist", False, 2),
    13: ("hash", "ziplist", False, 2),
    16: ("hash", "listpack", True, 2),
    17: ("zset", "listpack", True, 2),
    18: ("list", "quicklist", True, 1),
    20: ("set", "listpack", True, 1),
}


cdef inline Py_ssize_t u32(const unsigned char* at):
    return at[0] | at[1] << 8 | at[2] << 16 | (<Py_ssize_t>at[3]) << 24


cdef Py_ssize_t length_at(const unsigned char* buf, Py_ssize_t pos, Py_ssize_t end, Py_ssize_t* out):
    """An RDB length of the 6-, 14- or 32-bit form at `pos` into `out`; where it ends, or -1 (another form, or
    past `end`)."""
    cdef unsigned char b
    if pos >= end:
        return -1
    b = buf[pos]
    if b < 0x40:
        out[0] = b
        return pos + 1
    if b < 0x80:
        if pos + 2 > end:
            return -1
        out[0] = (b & 0x3F) << 8 | buf[pos + 1]
        return pos + 2
    if b == 0x80:
        if pos + 5 > end:
            return -1
        out[0] = (<Py_ssize_t>buf[pos + 1]) << 24 | buf[pos + 2] << 16 | buf[pos + 3] << 8 | buf[pos + 4]
        return pos + 5
    return -1


cdef inline bint embedded(int embed_key, Py_ssize_t key_length, Py_ssize_t value_length, bint expires):
    """`primitives.embstr`."""
    if embed_key == EMBED_R:
        return key_length + value_length <= (33 if expires else 41)
    if embed_key == EMBED_V:
        if expires and key_length >= 108:
            return False
        return value_length <= (113 if key_length < 32 else 111) - key_length
    return value_length <= EMBSTR_MAX


def run(walk):
    """`Walk.run` over `walk`'s file: its keys in file order."""
    if not bound:
        bind()
    cdef const unsigned char[:] view = walk.buf
    cdef const unsigned char* buf = &view[0]
    cdef Py_ssize_t end = view.shape[0]
    cdef Py_ssize_t pos = walk.pos
    cdef Py_ssize_t mark = STEP
    cdef Py_ssize_t record = pos
    cdef Py_ssize_t n, p, size, start, clen, ulen, q, run_length
    cdef unsigned char op, b, c, u
    cdef unsigned long long stamp
    cdef bint want_head = walk.want_head
    cdef bint deep = walk.deep
    cdef int embed_key = walk.embed_key
    cdef dict handlers = walk.handlers
    expire = None
    idle = None
    freq = None
    try:
        while True:
            if pos >= mark:
                if pos > end:
                    raise RdbError("unexpected end of file inside a record", min(record, end))
                walk._release(pos)
                mark = pos + STEP
            if pos + 3 > end:
                break  # too close to the end for the fast path: the pure walk reads the rest
            op = buf[pos]
            if op == OP_MS:
                if pos + 9 > end:
                    break
                stamp = 0
                for n in range(8):
                    stamp |= (<unsigned long long>buf[pos + 1 + n]) << (8 * n)
                expire = <long long>stamp
                pos += 9
                continue
            if op == OP_IDLE_ and buf[pos + 1] < 0x80:
                b = buf[pos + 1]
                if b < 0x40:
                    idle = b
                    pos += 2
                else:
                    idle = (b & 0x3F) << 8 | buf[pos + 2]
                    pos += 3
                continue
            if op == OP_FREQ_:
                freq = buf[pos + 1]
                pos += 2
                continue
            fact = None
            if op == 0 and buf[pos + 1] < 0x40:
                n = buf[pos + 1]
                p = pos + 2 + n
                if p + 3 > end:
                    break
                b = buf[p]
                if b < 0x80:
                    if b < 0x40:
                        size = b
                        start = p + 1
                    else:
                        size = (b & 0x3F) << 8 | buf[p + 1]
                        start = p + 2
                    if start + size > end:
                        break
                    key = (<const char*>buf)[pos + 2 : p]
                    value = None
                    if want_head or size <= INT_MAX_BYTES:
                        value = (<const char*>buf)[start : start + (size if size < HEAD else HEAD)]
                    pos = start + size
                    if size <= INT_MAX_BYTES and size and buf[start] in INT_FIRST and is_int(value):
                        encoding = "int"
                    elif embedded(embed_key, n, size, expire is not None):
                        encoding = "embstr"
                    else:
                        encoding = "raw"
                    fact = RdbKey(
                        key, walk.origin, walk.db, "string", -1, None, size, encoding, idle, freq, None, None,
                        value if want_head else None, record, pos - record, size,
                    )
                elif b == 0xC3 and buf[p + 1] < 0x80 and p + 2 + (buf[p + 1] >> 6) < end and buf[p + 2 + (buf[p + 1] >> 6)] < 0x80:
                    c = buf[p + 1]
                    if c < 0x40:
                        clen = c
                        q = p + 2
                    else:
                        clen = (c & 0x3F) << 8 | buf[p + 2]
                        q = p + 3
                    if q + 2 > end:
                        break
                    u = buf[q]
                    if u < 0x40:
                        ulen = u
                        q = q + 1
                    else:
                        ulen = (u & 0x3F) << 8 | buf[q + 1]
                        q = q + 2
                    if ulen > LZF_MAX_RATIO * clen:
                        raise RdbError("compressed string claims more than LZF can expand to", record)
                    if q + clen > end or q >= end:
                        break
                    key = (<const char*>buf)[pos + 2 : p]
                    pos = q + clen
                    head = None
                    if want_head and clen:
                        if ulen >= DECODE_FROM:
                            head = decompress((<const char*>buf)[q:pos], ulen, HEAD)
                        else:
                            run_length = buf[q] + 1
                            if run_length <= 32:
                                head = (<const char*>buf)[q + 1 : q + 1 + (run_length if run_length < clen - 1 else clen - 1)]
                            else:
                                head = b""
                    encoding = "embstr" if embedded(embed_key, n, ulen, expire is not None) else "raw"
                    fact = RdbKey(
                        key, walk.origin, walk.db, "string", -1, None, ulen, encoding, idle, freq, None, None,
                        head, record, pos - record, ulen,
                    )
            elif 10 <= op <= 20 and buf[pos + 1] < 0x40 and not deep:
                shape = COMPACT.get(op)
                if shape is not None:
                    fact = compact(walk, buf, end, pos, op, <tuple>shape)
                    if fact is not None:
                        fact.offset = record
                        pos = walk.pos
                        fact.size = pos - record
                        if idle is not None or freq is not None:
                            fact.idle_seconds = idle
                            fact.freq = freq
            if fact is None:
                handler = handlers.get(op)
                if handler is None:
                    walk.record = record
                    pos = walk._prefix_or_opcode(op, pos + 1, record)
                    if pos < 0:
                        return
                    if op == OP_EXPIRE_S:
                        expire = walk.expire
                    elif op == OP_IDLE_:
                        idle = walk.idle
                    elif op != OP_META or walk.valkey:
                        record = pos
                        embed_key = walk.embed_key
                    continue
                walk.record = record
                walk.pos = pos + 1
                walk.expire_pending = expire is not None
                fact = handler(walk, op, walk._key())
                pos = walk.pos
                fact.offset = record
                fact.size = pos - record
                if idle is not None or freq is not None:
                    fact.idle_seconds = idle
                    fact.freq = freq
            if pos > end:
                raise RdbError("unexpected end of file inside a record", min(record, end))
            record = pos
            if expire is not None:
                fact.expire_at_ms = expire
                fact.ttl_ms = expire - walk.now_ms
                expire = None
                if fact.ttl_ms <= 0:
                    if walk.drop_expired:
                        walk.rdb.expired += 1
                        idle = freq = None
                        continue
                    fact.ttl_ms = 0
            idle = freq = None
            yield fact
    except Exception:
        walk.record = record  # the record being read, for the error's offset (`RdbFile.keys`)
        raise
    walk.pos = record
    walk.record = record
    yield from pure_run(walk)


cdef object compact(object walk, const unsigned char* buf, Py_ssize_t end, Py_ssize_t pos, int op, tuple shape):
    """The RdbKey of a small collection in one blob at `pos` (its type byte), as the value reader of `op`
    gives it when the blob is not walked, with `walk.pos` after it; None when the record is anything else (a
    key of 64 bytes or more, a blob the reader would walk or reject, a length past the end): the value reader
    then reads it as usual."""
    cdef Py_ssize_t n = buf[pos + 1]
    cdef Py_ssize_t p = pos + 2 + n
    cdef Py_ssize_t nodes = 1, container = 2, size, data, clen, width, entries, header
    cdef bint listpack = shape[2]
    if op == 18:
        p = length_at(buf, p, end, &nodes)
        if p < 0 or nodes != 1:
            return None
        p = length_at(buf, p, end, &container)
        if p < 0 or container != 2:
            return None
    header = 8 if op == 11 or not listpack else 4
    if p >= end:
        return None
    if buf[p] == 0xC3:
        data = length_at(buf, p + 1, end, &clen)
        if data < 0:
            return None
        data = length_at(buf, data, end, &size)
        if data < 0 or size > LZF_MAX_RATIO * clen or data + clen > end:
            return None
        head = decompress((<const char*>buf)[data : data + clen], size, header + 2)
        after = data + clen
    else:
        data = length_at(buf, p, end, &size)
        if data < 0 or data + size > end:
            return None
        head = (<const char*>buf)[data : data + (size if size < header + 2 else header + 2)]
        after = data + size
    if len(head) < header + 2 or size >= WALK_FROM:
        return None
    kind, encoding = shape[0], shape[1]
    if op == 11:
        width = u32(head)
        entries = u32((<const unsigned char*>(<bytes>head)) + 4)
        if (width != 2 and width != 4 and width != 8) or 8 + width * entries != size:
            return None
    else:
        if u32(head) != size:
            return None
        entries = head[header] | head[header + 1] << 8
        if entries == UNKNOWN:
            return None
        entries //= <Py_ssize_t>shape[3]
    if op == 18:
        fact = RdbKey(
            (<const char*>buf)[pos + 2 : pos + 2 + n], walk.origin, walk.db, kind,
            -1, None, entries, "listpack" if walk.list_packed else "quicklist", None, None, None, None, None,
            0, 0, size,
        )
        fact.nodes = 1
    else:
        fact = RdbKey(
            (<const char*>buf)[pos + 2 : pos + 2 + n], walk.origin, walk.db, kind,
            -1, None, entries, encoding, None, None, None, None, None, 0, 0, size,
        )
    walk.pos = after
    return fact


#: Key types whose memory estimate depends only on the fields of `estimate_key` (`memory.MemoryModel`).
cdef frozenset MEMO_TYPES = frozenset({"string", "list", "set", "zset", "hash"})
cdef Py_ssize_t MEMO_LIMIT = 100_000


def dump_facts(dump, db_only, type_only, matcher, dict counts, describe):
    """`source.read_dump`'s loop over an open dump: count keys per db, filter, estimate memory. The model's
    estimate of a string or collection is a function of the fields in its memo key, so equal keys are
    estimated once; `describe()` picks the model when the first key arrives (after the AUX fields)."""
    cdef dict memo = {}
    if not bound:
        bind()
    model = None
    for fact in dump:
        if model is None:
            model = describe()
        db = fact.db or 0
        counts[db] = counts.get(db, 0) + 1
        if db_only is not None and db != db_only:
            continue
        kind = fact.type
        if type_only is not None and kind != type_only:
            continue
        if matcher is not None and matcher.match(fact.name) is None:
            continue
        if kind in MEMO_TYPES:
            estimate_key = (
                kind, fact.encoding, len(fact.name), fact.expire_at_ms is not None, fact.value_bytes, fact.length,
                fact.nodes, fact.hfe_fields,
            )
            memory = memo.get(estimate_key)
            if memory is None:
                memory = model(fact)
                if len(memo) >= MEMO_LIMIT:
                    memo.clear()
                memo[estimate_key] = memory
            fact.memory = memory
        else:
            fact.memory = model(fact)
        yield fact


cdef inline Py_ssize_t digits(long long value):
    """len(str(value))."""
    cdef Py_ssize_t n = 1
    if value < 0:
        n += 1
        value = -value
    while value >= 10:
        value //= 10
        n += 1
    return n


def elements(walk, Py_ssize_t count, Py_ssize_t per_item, int score=0):
    """`values.elements`: step over `count * per_item` strings (each followed by a score when `score` is set);
    (total, largest). Reads past the end fail as the pure loop's do: IndexError where it indexes a byte beyond
    the file, RdbError where an element's length runs past it."""
    if not bound:
        bind()
    cdef const unsigned char[:] view = walk.buf
    cdef const unsigned char* buf = &view[0]
    cdef Py_ssize_t end = view.shape[0]
    cdef Py_ssize_t pos = walk.pos
    cdef Py_ssize_t total = 0, largest = 0, size, i, n
    cdef unsigned char b
    for i in range(count * per_item):
        if pos >= end:
            raise IndexError
        b = buf[pos]
        if b < 0x40:
            size = b
            pos += 1 + b
        elif b < 0x80:
            if pos + 1 >= end:
                raise IndexError
            size = (b & 0x3F) << 8 | buf[pos + 1]
            pos += 2 + size
        elif b == 0xC0:
            if pos + 1 >= end:
                raise IndexError
            size = digits(<signed char>buf[pos + 1])
            pos += 2
        elif b == 0xC1 or b == 0xC2:
            n = 2 if b == 0xC1 else 4
            if pos + 1 + n > end:
                size = 0  # past the end: the checks below fail as the pure loop's do
            elif n == 2:
                size = digits(<short>(buf[pos + 1] | buf[pos + 2] << 8))
            else:
                size = digits(<int>(<unsigned int>buf[pos + 1] | <unsigned int>buf[pos + 2] << 8
                                    | <unsigned int>buf[pos + 3] << 16 | <unsigned int>buf[pos + 4] << 24))
            pos += 1 + n
        else:
            walk.pos = pos
            size = walk._skip()
            pos = walk.pos
        total += size
        if size > largest:
            largest = size
        if score:
            if score == 2:
                pos += 8
            else:
                if pos >= end:
                    raise IndexError
                n = buf[pos]
                pos += 1 if n >= 253 else 1 + n
        if pos > end:
            raise RdbError("collection runs past the end of the file", walk.record)
    walk.pos = pos
    return total, largest
