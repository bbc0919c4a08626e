# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled twin of `Walk.run`: the same walk over a dump, with the commonest records read in C.

The prefix opcodes of a key (expiry in ms, idle, frequency) and, under a key of at most 63 bytes, a string
(plain or LZF-compressed with 6- or 14-bit lengths, or an 8/16/32-bit integer), a compact collection (from its
blob's header) or a collection stored element by element are decoded here, from the file's bytes through a
pointer; every other record goes through the same value readers (`values.py`) and opcode handling (`Walk`)
the pure walk calls, with the same arguments. A record the fast path cannot prove lies inside the file (a truncated or
damaged dump) is handed, from its first byte, to the pure walk, which then reads the rest of the file: both
cores raise the same error at the same offset because the same code raises it.

Any change to `Walk.run` is made here too; the tests compare both cores' facts and errors on every dump.
"""

import cython

from rediscipline._slots cimport set_slot, slot, slot_offset

CYTHON_VERSION = cython.__version__

# What the walk reads from the pure modules, bound on the first call (`bind`): importing this module stays
# as light as `rediscipline --version` needs it to be.
cdef bint bound = False
cdef object pure_run, RdbError, LzfError, LZF_MAX_RATIO
cdef tuple WALK_ERRORS
cdef Py_ssize_t HEAD, DECODE_FROM, INT_MAX_BYTES, EMBSTR_MAX, STEP, WALK_FROM, UNKNOWN
cdef int EMBED_R, EMBED_V, OP_MS, OP_IDLE_, OP_FREQ_, OP_EXPIRE_S, OP_META
# RdbKey: its type, the offsets of all its fields in `dataclasses.fields` order (FIELDS) and their defaults,
# and those a new key or the dump loop reads or writes
cdef type RdbKeyType
cdef Py_ssize_t FIELDS[40]
cdef Py_ssize_t FIELD_COUNT = 0
cdef tuple DEFAULTS
cdef Py_ssize_t K_NAME, K_ORIGIN, K_DB, K_TYPE, K_TTL, K_MEMORY, K_LENGTH, K_ENCODING, K_IDLE, K_FREQ, K_EXPIRE
cdef Py_ssize_t K_HEAD, K_OFFSET, K_SIZE, K_VALUE_BYTES, K_NODES, K_HFE, K_LARGEST


cdef void bind() except *:
    global bound, pure_run, RdbError, LzfError, LZF_MAX_RATIO, HEAD, DECODE_FROM, WALK_ERRORS
    global INT_MAX_BYTES, EMBSTR_MAX, STEP, WALK_FROM, UNKNOWN, EMBED_R, EMBED_V, OP_MS, OP_IDLE_, OP_FREQ_
    global OP_EXPIRE_S, OP_META, RdbKeyType, FIELD_COUNT, DEFAULTS
    global K_NAME, K_ORIGIN, K_DB, K_TYPE, K_TTL, K_MEMORY, K_LENGTH, K_ENCODING, K_IDLE, K_FREQ, K_EXPIRE
    global K_HEAD, K_OFFSET, K_SIZE, K_VALUE_BYTES, K_NODES, K_HFE, K_LARGEST
    cdef Py_ssize_t index
    import dataclasses
    from rediscipline.redis_meta import encodings
    from rediscipline.sources.rdb import blobs, errors, lzf, parser, primitives, records

    pure_run, RdbError, LzfError = parser.Walk.run, errors.RdbError, lzf.LzfError
    WALK_ERRORS = parser.WALK_ERRORS
    LZF_MAX_RATIO = primitives.LZF_MAX_RATIO
    HEAD, DECODE_FROM = primitives.HEAD_BYTES, primitives.HEAD_DECODE_FROM
    INT_MAX_BYTES, EMBSTR_MAX = encodings.INT_STRING_MAX_BYTES, encodings.EMBSTR_MAX_BYTES
    STEP, WALK_FROM, UNKNOWN = parser.RELEASE_STEP, parser.WALK_BLOBS_FROM, blobs.UNKNOWN_COUNT
    EMBED_R, EMBED_V = primitives.EMBED_REDIS, primitives.EMBED_VALKEY
    OP_MS, OP_IDLE_, OP_FREQ_ = parser.OP_EXPIRETIME_MS, parser.OP_IDLE, parser.OP_FREQ
    OP_EXPIRE_S, OP_META = parser.OP_EXPIRETIME, parser.OP_KEY_META
    RdbKeyType = records.RdbKey
    fields = dataclasses.fields(RdbKeyType)
    if len(fields) > 40:
        raise TypeError("more RdbKey fields than the walk's table holds")
    for index in range(len(fields)):
        FIELDS[index] = slot_offset(RdbKeyType, fields[index].name)
    FIELD_COUNT = len(fields)
    DEFAULTS = tuple(None if field.default is dataclasses.MISSING else field.default for field in fields)
    offsets = {field.name: FIELDS[index] for index, field in enumerate(fields)}
    K_NAME, K_ORIGIN, K_DB, K_TYPE = offsets["name"], offsets["origin"], offsets["db"], offsets["type"]
    K_TTL, K_MEMORY, K_LENGTH = offsets["ttl_ms"], offsets["memory"], offsets["length"]
    K_ENCODING, K_IDLE, K_FREQ = offsets["encoding"], offsets["idle_seconds"], offsets["freq"]
    K_EXPIRE, K_HEAD, K_OFFSET, K_SIZE = offsets["expire_at_ms"], offsets["head"], offsets["offset"], offsets["size"]
    K_VALUE_BYTES, K_NODES, K_HFE = offsets["value_bytes"], offsets["nodes"], offsets["hfe_fields"]
    K_LARGEST = offsets["largest_element"]
    bound = True


cdef object new_key(bytes name, tuple place, str kind, object length, str encoding, object value_bytes):
    """`RdbKey(name, origin, db, kind, -1, None, length, encoding, ...)` (`place`: the walk's (origin, db)) with
    every other field at its default, built without the dataclass's `__init__` (a Python function, a tenth
    of a key's time)."""
    cdef Py_ssize_t index
    key = object.__new__(RdbKeyType)
    for index in range(FIELD_COUNT):
        set_slot(key, FIELDS[index], DEFAULTS[index])
    set_slot(key, K_NAME, name)
    set_slot(key, K_ORIGIN, place[0])
    set_slot(key, K_DB, place[1])
    set_slot(key, K_TYPE, kind)
    set_slot(key, K_TTL, -1)
    set_slot(key, K_LENGTH, length)
    set_slot(key, K_ENCODING, encoding)
    set_slot(key, K_VALUE_BYTES, value_bytes)
    return key


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


cdef bint int_like(const unsigned char* text, Py_ssize_t n):
    """`primitives.is_int` (what `string2ll` accepts exactly) for `n` bytes at `text`."""
    cdef bint negative
    cdef Py_ssize_t i, digits
    cdef unsigned long long value = 0
    if n == 0 or n > INT_MAX_BYTES:
        return False
    negative = text[0] == 45  # '-'
    digits = n - negative
    if digits == 0 or digits > 19:  # 20 digits are 10^19 or more, past the int64 range
        return False
    for i in range(negative, n):
        if text[i] < 48 or text[i] > 57:
            return False
        value = value * 10 + (text[i] - 48)
    if text[negative] == 48 and (digits > 1 or negative):  # a leading zero, or "-0"
        return False
    return value <= 9223372036854775807ULL + negative


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
    cdef long long number
    cdef bint want_head = walk.want_head
    cdef bint deep = walk.deep
    cdef int embed_key = walk.embed_key
    cdef dict handlers = walk.handlers
    now_ms = walk.now_ms
    place = (walk.origin, walk.db)
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
                    pos = start + size
                    if size <= INT_MAX_BYTES and int_like(buf + start, size):
                        encoding = "int"
                    elif embedded(embed_key, n, size, expire is not None):
                        encoding = "embstr"
                    else:
                        encoding = "raw"
                    fact = new_key(key, place, "string", size, encoding, size)
                    if want_head:
                        set_slot(fact, K_HEAD, (<const char*>buf)[start : start + (size if size < HEAD else HEAD)])
                elif 0xC0 <= b <= 0xC2:
                    size = 1 << (b & 0x3F)
                    if p + 1 + size > end:
                        break
                    if size == 1:
                        number = <signed char>buf[p + 1]
                    elif size == 2:
                        number = <short>(buf[p + 1] | buf[p + 2] << 8)
                    else:
                        number = <int>(<unsigned int>buf[p + 1] | <unsigned int>buf[p + 2] << 8
                                       | <unsigned int>buf[p + 3] << 16 | <unsigned int>buf[p + 4] << 24)
                    text = str(number).encode()
                    key = (<const char*>buf)[pos + 2 : p]
                    pos = p + 1 + size
                    fact = new_key(key, place, "string", len(text), "int", len(text))
                    if want_head:
                        set_slot(fact, K_HEAD, text)
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
                            head = lzf_decompress((<const char*>buf)[q:pos], ulen, HEAD)
                        else:
                            run_length = buf[q] + 1
                            if run_length <= 32:
                                head = (<const char*>buf)[q + 1 : q + 1 + (run_length if run_length < clen - 1 else clen - 1)]
                            else:
                                head = b""
                    encoding = "embstr" if embedded(embed_key, n, ulen, expire is not None) else "raw"
                    fact = new_key(key, place, "string", ulen, encoding, ulen)
                    set_slot(fact, K_HEAD, head)
            elif 1 <= op <= 5 and buf[pos + 1] < 0x40:
                fact = one_by_one(place, buf, end, pos, op, &p)
                if fact is not None:
                    pos = p
            elif 10 <= op <= 20 and buf[pos + 1] < 0x40 and not deep:
                shape = COMPACT.get(op)
                if shape is not None:
                    fact = compact(walk, place, buf, end, pos, op, <tuple>shape)
                    if fact is not None:
                        pos = walk.pos
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
                        now_ms = walk.now_ms  # an AUX ctime sets it
                        place = (walk.origin, walk.db)  # a SELECTDB sets them
                    continue
                walk.record = record
                walk.pos = pos + 1
                walk.expire_pending = expire is not None
                fact = handler(walk, op, walk._key())
                pos = walk.pos
            set_slot(fact, K_OFFSET, record)
            set_slot(fact, K_SIZE, pos - record)
            if idle is not None or freq is not None:
                set_slot(fact, K_IDLE, idle)
                set_slot(fact, K_FREQ, freq)
            if pos > end:
                raise RdbError("unexpected end of file inside a record", min(record, end))
            record = pos
            if expire is not None:
                set_slot(fact, K_EXPIRE, expire)
                left = expire - now_ms
                expire = None
                if left <= 0:
                    if walk.drop_expired:
                        walk.rdb.expired += 1
                        idle = freq = None
                        continue
                    left = 0
                set_slot(fact, K_TTL, left)
            idle = freq = None
            yield fact
    except Exception:
        walk.record = record  # the record being read, for the error's offset (`RdbFile.keys`)
        raise
    walk.pos = record
    walk.record = record
    yield from pure_run(walk)


#: Type byte → (type, encoding, strings per element, score after each: 0 none, 1 text, 2 binary) of the
#: collections stored element by element (`values._one_by_one`, `values._zset`).
cdef dict ONE_BY_ONE = {
    1: ("list", "linkedlist", 1, 0),
    2: ("set", "hashtable", 1, 0),
    3: ("zset", "skiplist", 1, 1),
    4: ("hash", "hashtable", 2, 0),
    5: ("zset", "skiplist", 1, 2),
}


cdef object one_by_one(
    tuple place, const unsigned char* buf, Py_ssize_t end, Py_ssize_t pos, int op, Py_ssize_t* after
):
    """The RdbKey of a collection stored element by element at `pos` (its type byte), as its value reader
    gives it, with where the record ends in `after`; None when an element is of a form `stepped` leaves to
    the value reader or the record runs past the end: the reader then reads it from its first byte."""
    cdef Py_ssize_t n = buf[pos + 1]
    cdef Py_ssize_t p = pos + 2 + n
    cdef Py_ssize_t count = 0, total = 0, largest = 0
    cdef tuple shape = ONE_BY_ONE[op]
    p = length_at(buf, p, end, &count)
    if p < 0:
        return None
    p = stepped(buf, end, p, count * <Py_ssize_t>shape[2], shape[3], &total, &largest)
    if p < 0:
        return None
    fact = new_key((<const char*>buf)[pos + 2 : pos + 2 + n], place, shape[0], count, shape[1], total)
    set_slot(fact, K_LARGEST, largest)
    after[0] = p
    return fact


cdef inline Py_ssize_t plain_string(const unsigned char* buf, Py_ssize_t end, Py_ssize_t pos, Py_ssize_t* size):
    """The string at `pos` (< `end`) when it is of a form read without a walk (a 6-, 14- or 32-bit length, an
    8/16/32-bit integer): its length (the integer's digits) in `size` and where it ends, which may lie past
    `end`; -1 for another form (compressed, a 64-bit length) or a header cut by the end of the file."""
    cdef unsigned char b = buf[pos]
    if b < 0x40:
        size[0] = b
        return pos + 1 + b
    if b < 0x80:
        if pos + 1 >= end:
            return -1
        size[0] = (b & 0x3F) << 8 | buf[pos + 1]
        return pos + 2 + size[0]
    if b == 0x80:
        if pos + 5 > end:
            return -1
        size[0] = (<Py_ssize_t>buf[pos + 1]) << 24 | buf[pos + 2] << 16 | buf[pos + 3] << 8 | buf[pos + 4]
        return pos + 5 + size[0]
    if b == 0xC0:
        if pos + 1 >= end:
            return -1
        size[0] = digits(<signed char>buf[pos + 1])
        return pos + 2
    if b == 0xC1:
        if pos + 3 > end:
            return -1
        size[0] = digits(<short>(buf[pos + 1] | buf[pos + 2] << 8))
        return pos + 3
    if b == 0xC2:
        if pos + 5 > end:
            return -1
        size[0] = digits(<int>(<unsigned int>buf[pos + 1] | <unsigned int>buf[pos + 2] << 8
                               | <unsigned int>buf[pos + 3] << 16 | <unsigned int>buf[pos + 4] << 24))
        return pos + 5
    return -1


cdef Py_ssize_t stepped(
    const unsigned char* buf, Py_ssize_t end, Py_ssize_t pos, Py_ssize_t items, int score,
    Py_ssize_t* total, Py_ssize_t* largest,
):
    """`values.elements` without a walk: step over `items` strings from `pos`, each followed by a score when
    `score` is set (1: a length byte then text, 2: 8 bytes), adding their lengths to `total` and the longest
    to `largest`; where they end, or -1 when a string is compressed or has a 64-bit length (read by
    `Walk._skip`) or anything runs past `end`. Each string takes at least one byte, so a count that claims more
    than the file holds ends the loop at the end of the file."""
    cdef Py_ssize_t i, size, n
    for i in range(items):
        if pos >= end:
            return -1
        pos = plain_string(buf, end, pos, &size)
        if pos < 0:
            return -1
        total[0] += size
        if size > largest[0]:
            largest[0] = size
        if score == 2:
            pos += 8
        elif score == 1:
            if pos >= end:
                return -1
            n = buf[pos]
            pos += 1 if n >= 253 else 1 + n
        if pos > end:
            return -1
    return pos


cdef object compact(
    object walk, tuple place, const unsigned char* buf, Py_ssize_t end, Py_ssize_t pos, int op, tuple shape
):
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
        head = lzf_decompress((<const char*>buf)[data : data + clen], size, header + 2)
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
        encoding = "listpack" if walk.list_packed else "quicklist"
    fact = new_key((<const char*>buf)[pos + 2 : pos + 2 + n], place, kind, entries, encoding, size)
    if op == 18:
        set_slot(fact, K_NODES, 1)
    walk.pos = after
    return fact


#: Key types whose memory estimate depends only on the fields of `estimate_key` (`memory.MemoryModel`).
cdef frozenset MEMO_TYPES = frozenset({"string", "list", "set", "zset", "hash"})
cdef Py_ssize_t MEMO_LIMIT = 100_000


def dump_facts(reading):
    """`source._read` over a `source.DumpReading`: walk the dump, count keys per db, filter, estimate memory.
    The model's estimate of a string or collection is a function of the fields in its memo key, so equal keys
    are estimated once. The walk's own generator is driven here, its errors turned into the file's RdbError
    as `RdbFile.keys` does: no Python generator stands between the file and the engine."""
    cdef dict memo = {}
    cdef dict counts
    if not bound:
        bind()
    dump = reading.open()
    walk = None
    keys = None
    try:
        walk = dump.start()
        keys = run(walk)
        options, counts, matcher = reading.options, reading.summary.keys_by_db, reading.matcher
        db_only, type_only = options.db, options.type
        model = None
        while True:
            try:
                fact = next(keys)
            except StopIteration:
                break
            except WALK_ERRORS as error:
                raise dump.failure(error, walk) from None
            if model is None:
                model = reading.model()
            db = slot(fact, K_DB) or 0
            counts[db] = counts.get(db, 0) + 1
            if db_only is not None and db != db_only:
                continue
            kind = slot(fact, K_TYPE)
            if type_only is not None and kind != type_only:
                continue
            name = slot(fact, K_NAME)
            if matcher is not None and matcher.match(name) is None:
                continue
            if kind in MEMO_TYPES:
                estimate_key = (
                    kind, slot(fact, K_ENCODING), len(name), slot(fact, K_EXPIRE) is not None,
                    slot(fact, K_VALUE_BYTES), slot(fact, K_LENGTH), slot(fact, K_NODES), slot(fact, K_HFE),
                )
                memory = memo.get(estimate_key)
                if memory is None:
                    memory = model(fact)
                    if len(memo) >= MEMO_LIMIT:
                        memo.clear()
                    memo[estimate_key] = memory
                set_slot(fact, K_MEMORY, memory)
            else:
                set_slot(fact, K_MEMORY, model(fact))
            yield fact
        reading.finish()
    finally:
        if keys is not None:
            # the walk's generator holds a view of the map until it is freed: the map cannot close before
            keys.close()
            keys = None
        reading.close()


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


def elements(walk, count, Py_ssize_t per_item, int score=0):
    """`values.elements`: step over `count * per_item` strings (each followed by a score when `score` is set);
    (total, largest). Reads past the end fail as the pure loop's do: IndexError where it indexes a byte beyond
    the file, RdbError where an element's length runs past it. Each string takes at least one byte, so a
    count (up to 2^64) that claims more strings than bytes are left fails on the same byte as the pure loop."""
    if not bound:
        bind()
    cdef const unsigned char[:] view = walk.buf
    cdef const unsigned char* buf = &view[0]
    cdef Py_ssize_t end = view.shape[0]
    cdef Py_ssize_t pos = walk.pos
    cdef Py_ssize_t total = 0, largest = 0, size = 0, i, n, items, q
    items = min(count * per_item, end - pos + 1)
    for i in range(items):
        if pos >= end:
            raise IndexError
        q = plain_string(buf, end, pos, &size)
        if q >= 0:
            pos = q
        elif buf[pos] < 0x80 or buf[pos] == 0xC0:  # a header cut by the end: the pure loop indexes past it
            raise IndexError
        elif buf[pos] == 0xC1 or buf[pos] == 0xC2:  # an integer cut by the end: the checks below fail
            size = 0
            pos += 3 if buf[pos] == 0xC1 else 5
        else:
            walk.pos = pos
            skipped = walk._skip()
            if walk.pos > end:  # a length past the end (up to 2^64): fail where the pure loop does
                if score == 1:
                    raise IndexError
                raise RdbError("collection runs past the end of the file", walk.record)
            size = skipped
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


def lzf_decompress(const unsigned char[:] data, Py_ssize_t size, limit=None):
    """`lzf.decompress`, the same bytes and the same LzfError for the same input."""
    if not bound:
        bind()
    cdef Py_ssize_t want = size if limit is None else min(size, <Py_ssize_t>limit)
    cdef Py_ssize_t end = data.shape[0], ip = 0, op = 0, run, back, start, i
    cdef unsigned int ctrl
    # The output may pass `want` by one token (at most 264 bytes) before the loop stops, as the pure one's does.
    cdef bytearray out = bytearray(want + 300)
    cdef unsigned char* o = out
    while op < want:
        if ip >= end:
            raise LzfError("compressed data ends before its announced length")
        ctrl = data[ip]
        ip += 1
        if ctrl < 32:
            run = ctrl + 1
            if ip + run > end:
                raise LzfError("literal run past the end of the compressed data")
            for i in range(run):
                o[op + i] = data[ip + i]
            op += run
            ip += run
        else:
            run = ctrl >> 5
            if run == 7:
                if ip >= end:
                    raise LzfError("truncated back-reference")
                run += data[ip]
                ip += 1
            if ip >= end:
                raise LzfError("truncated back-reference")
            back = ((ctrl & 0x1F) << 8) + data[ip] + 1
            ip += 1
            start = op - back
            if start < 0:
                raise LzfError("back-reference before the start of the output")
            run += 2
            for i in range(run):  # byte by byte: an overlapping copy repeats the pattern, as LZF means it to
                o[op + i] = o[start + i]
            op += run
        if op > size:
            raise LzfError("decompressed data is longer than announced")
    if limit is None and (op != size or ip != end):
        raise LzfError("decompressed length differs from the announced one")
    return bytes(out[:want])
