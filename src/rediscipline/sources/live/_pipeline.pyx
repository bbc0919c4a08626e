# cython: language_level=3, boundscheck=False, wraparound=False
"""The compiled twin of the per-key work of a live scan's round trip (`pipeline.DbScan`, `probes.Probes`).

`Stages(probes)` holds what one scan's probes send and read, and does in C what `DbScan` does per key:

- `records`: the new keys' `KeyRecord`s (`DbScan._new_batch`), built at their slot offsets;
- `stage1` / `stage2`: the RESP of their first and second stages (`Probes.stage1`, `Probes.stage2`), written
  from the same templates the Probes made, with the key's length and bytes in each slot;
- `critical`: the replies of a round trip read into the records (`DbScan._critical`, `Probes.read_stage1`,
  `read_stage2`, and the common answers of `wants_elements`);
- `facts`: the facts of the keys done (`DbScan._facts`), each `KeyFact` built at its slot offsets.

A key whose replies are anything but the usual ones (an error reply, a key gone between two probes, a type
the length probe does not know) is read by the pure methods themselves, from its first reply, so both cores
leave the same fields and record the same refusals; so is a collection that may be looked into (stage 3),
and the rare stages are read in Python by both. Any change to those methods is made here too; the tests
compare both cores' JSON reports of the same live keyspaces.
"""

import cython
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.object cimport PyObject
from cpython.ref cimport Py_DECREF
from libc.string cimport memcpy

from rediscipline._slots cimport set_slot, slot, slot_offset

CYTHON_VERSION = cython.__version__


cdef extern from "Python.h":
    ctypedef struct AllocatingType "PyTypeObject":
        PyObject* (*tp_alloc)(AllocatingType*, Py_ssize_t)

# What the twin reads from the pure modules, bound on the first `Stages` (`bind`): importing this module
# stays as light as `rediscipline --version` needs it to be.
cdef bint bound = False
cdef object SKIPPED, Unreadable, deque, HEAD_BYTES, read_rare
cdef frozenset COMPACT_ENCODINGS
cdef long long ELEMENT_PROBE_AVERAGE
cdef type KeyRecordType, KeyFactType
cdef object KEY_SLOT
# KeyRecord: the offsets of all its fields (in `dataclasses.fields` order) and their defaults, and of each
cdef Py_ssize_t R_FIELDS[32]
cdef Py_ssize_t R_COUNT = 0
cdef tuple R_DEFAULTS
cdef Py_ssize_t R_NAME, R_BATCH, R_TYPE, R_TTL, R_EXPIRE, R_MEMORY, R_ENCODING, R_IDLE, R_FREQ, R_LENGTH
cdef Py_ssize_t R_HEAD, R_LARGEST, R_GONE, R_UNREADABLE
# KeyFact's fields, and the _Batch fields the report counts keys out of
cdef Py_ssize_t F_NAME, F_ORIGIN, F_DB, F_TYPE, F_TTL, F_MEMORY, F_LENGTH, F_ENCODING, F_IDLE, F_FREQ
cdef Py_ssize_t F_EXPIRE, F_LARGEST, F_HEAD, F_COUNT
cdef Py_ssize_t B_ID, B_PENDING, B_NAMES
# Where a round trip (`pipeline._RoundTrip`) keeps its parts
cdef Py_ssize_t T_COMMANDS, T_SCAN, T_STAGE1, T_STAGE2, T_RARE, T_CLOCK
#: Type and encoding replies decoded once: the same str for the same bytes (a handful of distinct values)
cdef dict DECODED = {}
cdef Py_ssize_t DECODED_CAP = 256
#: The types `Probes.wants_elements` may look into
cdef frozenset ELEMENT_TYPES = frozenset({"hash", "set", "zset", "list"})


cdef void bind() except *:
    global bound, SKIPPED, Unreadable, deque, COMPACT_ENCODINGS, HEAD_BYTES, ELEMENT_PROBE_AVERAGE, read_rare
    global KeyRecordType, KeyFactType, KEY_SLOT, R_COUNT, R_DEFAULTS
    global R_NAME, R_BATCH, R_TYPE, R_TTL, R_EXPIRE, R_MEMORY, R_ENCODING, R_IDLE, R_FREQ, R_LENGTH
    global R_HEAD, R_LARGEST, R_GONE, R_UNREADABLE
    global F_NAME, F_ORIGIN, F_DB, F_TYPE, F_TTL, F_MEMORY, F_LENGTH, F_ENCODING, F_IDLE, F_FREQ
    global F_EXPIRE, F_LARGEST, F_HEAD, F_COUNT, B_ID, B_PENDING, B_NAMES
    global T_COMMANDS, T_SCAN, T_STAGE1, T_STAGE2, T_RARE, T_CLOCK
    cdef Py_ssize_t index
    import collections
    import dataclasses
    from rediscipline.model import facts
    from rediscipline.sources.live import pipeline, probes

    SKIPPED, Unreadable, deque = pipeline.SKIPPED, pipeline.Unreadable, collections.deque
    read_rare = pipeline.read_rare
    COMPACT_ENCODINGS, HEAD_BYTES = probes.COMPACT_ENCODINGS, probes.HEAD_BYTES
    ELEMENT_PROBE_AVERAGE = probes.ELEMENT_PROBE_AVERAGE
    KEY_SLOT = probes.key_template(b"X", key_at=0)[len(b"*2\r\n"):-len(b"$1\r\nX\r\n")]
    KeyRecordType, KeyFactType = probes.KeyRecord, facts.KeyFact
    fields = dataclasses.fields(KeyRecordType)
    if len(fields) > 32:
        raise TypeError("more KeyRecord fields than the twin's table holds")
    for index in range(len(fields)):
        R_FIELDS[index] = slot_offset(KeyRecordType, fields[index].name)
    R_COUNT = len(fields)
    R_DEFAULTS = tuple(None if field.default is dataclasses.MISSING else field.default for field in fields)
    R_NAME, R_BATCH = slot_offset(KeyRecordType, "name"), slot_offset(KeyRecordType, "batch")
    R_TYPE, R_TTL = slot_offset(KeyRecordType, "type"), slot_offset(KeyRecordType, "ttl_ms")
    R_EXPIRE, R_MEMORY = slot_offset(KeyRecordType, "expire_at_ms"), slot_offset(KeyRecordType, "memory")
    R_ENCODING, R_IDLE = slot_offset(KeyRecordType, "encoding"), slot_offset(KeyRecordType, "idle_seconds")
    R_FREQ, R_LENGTH = slot_offset(KeyRecordType, "freq"), slot_offset(KeyRecordType, "length")
    R_HEAD, R_LARGEST = slot_offset(KeyRecordType, "head"), slot_offset(KeyRecordType, "largest_element")
    R_GONE, R_UNREADABLE = slot_offset(KeyRecordType, "gone"), slot_offset(KeyRecordType, "unreadable")
    fact_fields = [field.name for field in dataclasses.fields(KeyFactType)]
    F_COUNT = len(fact_fields)
    F_NAME, F_ORIGIN, F_DB = slot_offset(KeyFactType, "name"), slot_offset(KeyFactType, "origin"), slot_offset(KeyFactType, "db")
    F_TYPE, F_TTL = slot_offset(KeyFactType, "type"), slot_offset(KeyFactType, "ttl_ms")
    F_MEMORY, F_LENGTH = slot_offset(KeyFactType, "memory"), slot_offset(KeyFactType, "length")
    F_ENCODING, F_IDLE = slot_offset(KeyFactType, "encoding"), slot_offset(KeyFactType, "idle_seconds")
    F_FREQ, F_EXPIRE = slot_offset(KeyFactType, "freq"), slot_offset(KeyFactType, "expire_at_ms")
    F_LARGEST, F_HEAD = slot_offset(KeyFactType, "largest_element"), slot_offset(KeyFactType, "head")
    if F_COUNT != 13:
        raise TypeError(f"KeyFact has {F_COUNT} fields; the twin's `facts` sets 13")
    batch = pipeline._Batch
    B_ID, B_PENDING, B_NAMES = slot_offset(batch, "id"), slot_offset(batch, "pending"), slot_offset(batch, "names")
    trip = pipeline._RoundTrip._fields
    T_COMMANDS = trip.index("commands")
    T_SCAN, T_STAGE1, T_STAGE2 = trip.index("scan"), trip.index("stage1"), trip.index("stage2")
    T_RARE, T_CLOCK = trip.index("rare"), trip.index("clock")
    bound = True


cdef inline object new_object(type cls):
    """An instance of a slots class with every field unset, without its `__init__`: what `object.__new__(cls)`
    does for our dataclasses (the type's `tp_alloc`), without looking `__new__` up."""
    cdef PyObject* made = (<AllocatingType*>cls).tp_alloc(<AllocatingType*>cls, 0)
    if made is NULL:
        raise MemoryError()
    instance = <object>made
    Py_DECREF(instance)  # `<object>` took a reference of its own
    return instance


cdef object new_record(object name, object batch):
    """`KeyRecord(name, batch)`: every other field at its default."""
    cdef Py_ssize_t index
    record = new_object(KeyRecordType)
    for index in range(R_COUNT):
        set_slot(record, R_FIELDS[index], R_DEFAULTS[index])
    set_slot(record, R_NAME, name)
    set_slot(record, R_BATCH, batch)
    return record


cdef object decoded(bytes reply):
    """`reply.decode("ascii", "replace")`, the same str object for the same bytes."""
    text = DECODED.get(reply)
    if text is None:
        text = reply.decode("ascii", "replace")
        if len(DECODED) < DECODED_CAP:
            DECODED[reply] = text
    return text


# -- RESP templates ---------------------------------------------------------------------------------------


cdef class Template:
    """A `probes.key_template` (or several joined): its literal parts, each key slot between two of them."""

    cdef list parts
    cdef Py_ssize_t slots
    cdef Py_ssize_t literal

    def __init__(self, bytes template):
        self.parts = template.split(KEY_SLOT)
        self.slots = len(self.parts) - 1
        self.literal = sum(len(part) for part in self.parts)
        if b"%" in b"".join(self.parts):
            raise ValueError(f"a RESP template with a slot the twin does not fill: {template!r}")


cdef inline Py_ssize_t digits(Py_ssize_t value):
    cdef Py_ssize_t count = 1
    while value >= 10:
        value //= 10
        count += 1
    return count


cdef class Writer:
    """A growing byte buffer the RESP of a stage is written into, reused from one round trip to the next."""

    cdef char* data
    cdef Py_ssize_t size
    cdef Py_ssize_t capacity

    def __dealloc__(self):
        PyMem_Free(self.data)

    cdef void reserve(self, Py_ssize_t more) except *:
        cdef Py_ssize_t wanted = self.size + more
        cdef char* grown
        if wanted <= self.capacity:
            return
        wanted = max(wanted, 2 * self.capacity, 4096)
        grown = <char*>PyMem_Realloc(self.data, wanted)
        if grown is NULL:
            raise MemoryError()
        self.data, self.capacity = grown, wanted

    cdef void put(self, Template template, bytes name) except *:
        """The template with `name` in every slot (what `template % (len(name), name, ...)` gives)."""
        cdef Py_ssize_t length = PyBytes_GET_SIZE(name)
        cdef Py_ssize_t width = digits(length)
        cdef Py_ssize_t index, at, value
        cdef bytes part
        cdef char* out
        self.reserve(template.literal + template.slots * (length + width + 5))
        out = self.data + self.size
        for index in range(template.slots + 1):
            part = <bytes>template.parts[index]
            memcpy(out, PyBytes_AS_STRING(part), PyBytes_GET_SIZE(part))
            out += PyBytes_GET_SIZE(part)
            if index == template.slots:
                break
            out[0] = b"$"
            value = length
            at = width
            while at > 0:
                out[at] = <char>(48 + value % 10)
                value //= 10
                at -= 1
            out += width + 1
            out[0], out[1] = b"\r", b"\n"
            memcpy(out + 2, PyBytes_AS_STRING(name), length)
            out += length + 2
            out[0], out[1] = b"\r", b"\n"
            out += 2
        self.size = out - self.data

    cdef bytes take(self):
        """What was written since the last `take`, as bytes; the buffer is emptied."""
        cdef bytes written = PyBytes_FromStringAndSize(self.data, self.size)
        self.size = 0
        return written


# -- the stages -------------------------------------------------------------------------------------------


cdef class Stages:
    """The per-key work of `DbScan` for one scan's `Probes` (their switches and templates, read once)."""

    cdef object probes
    cdef bint type, ttl, memory, encoding, idle, freq, length, head, element, later
    cdef Py_ssize_t width
    cdef Template first, getrange, string_both
    cdef dict lengths  # type name -> Template of its length command
    cdef Writer writer

    def __init__(self, probes):
        if not bound:
            bind()
        self.probes = probes
        self.type, self.ttl, self.memory = probes.type, probes.ttl, probes.memory
        self.encoding, self.idle, self.freq = probes.encoding, probes.idle, probes.freq
        self.length, self.head, self.element = probes.length, probes.head, probes.element
        self.later = probes.later_stages
        self.width = probes.stage1_count
        self.first = Template(probes._stage1)
        self.getrange = Template(probes._getrange)
        self.string_both = Template(probes._length["string"] + probes._getrange)
        self.lengths = {kind: Template(template) for kind, template in probes._length.items()}
        self.writer = Writer()

    # -- records and requests (`DbScan._new_batch`, `Probes.stage1`, `Probes.stage2`) -----------------

    def records(self, batch, list names, set skip, rate, draw):
        """The records of the keys of a new batch: every name, less those in `skip`, and each drawn with
        probability `rate` (`draw()` called once per name not skipped, in order, as the pure code does)."""
        cdef list records = []
        if rate is None and not skip:
            for name in names:
                records.append(new_record(name, batch))
            return records
        for name in names:
            if name not in skip and (rate is None or draw() < rate):
                records.append(new_record(name, batch))
        return records

    def stage1(self, list records):
        """The first-stage commands of every record, as one RESP payload."""
        cdef Writer writer = self.writer
        for record in records:
            name = slot(record, R_NAME)
            if type(name) is not bytes:
                writer.size = 0
                pack = self.probes.stage1
                return b"".join([pack(slot(other, R_NAME)) for other in records])
            writer.put(self.first, <bytes>name)
        return writer.take()

    def stage2(self, list records):
        """(payload, [(record, replies)], replies): the second-stage commands of every record."""
        cdef Writer writer = self.writer
        cdef list sent = []
        cdef Py_ssize_t commands = 0, count
        cdef Template template
        for record in records:
            name = slot(record, R_NAME)
            kind = slot(record, R_TYPE)
            template = None
            count = 0
            if type(name) is not bytes:
                writer.size = 0
                return self._stage2_pure(records)
            if kind == "string":
                if not self.head:
                    if self.length:
                        template, count = self.lengths["string"], 1
                else:
                    memory = slot(record, R_MEMORY)
                    if memory is not None and memory < HEAD_BYTES:
                        template, count = self.getrange, 1
                    else:
                        template, count = self.string_both, 2
            elif self.length or self.element:
                found = self.lengths.get(kind if kind is not None else "")
                if found is not None:
                    template, count = <Template>found, 1
            if template is not None:
                writer.put(template, <bytes>name)
                commands += count
            sent.append((record, count))
        return writer.take(), sent, commands

    def _stage2_pure(self, list records):
        """`stage2` through `Probes.stage2`, for a record the templates cannot write."""
        cdef list chunks = [], sent = []
        commands = 0
        for record in records:
            payload, count = self.probes.stage2(record)
            if count:
                chunks.append(payload)
                commands += count
            sent.append((record, count))
        return b"".join(chunks), sent, commands

    # -- the critical section (`DbScan._critical`) -----------------------------------------------------

    def critical(self, scan, trip, list replies):
        """(records for stage 2, [(stage, record)] for stages 3 and 4, records done), as `_critical` gives."""
        cdef Py_ssize_t position, width = self.width, count
        cdef list next_stage2 = [], next_rare = [], done = []
        cdef tuple request = <tuple>trip  # a _RoundTrip
        cdef list stage1 = request[T_STAGE1]
        cdef tuple pair
        owner = scan.owner
        probes = self.probes
        if len(replies) < request[T_COMMANDS]:  # not every reply: the pure code raises what it raises
            return scan._critical(trip, replies)
        position = 1 if request[T_SCAN] is not None else 0
        received_ms = scan._server_ms(replies[position + width * len(stage1)]) if request[T_CLOCK] else None
        if received_ms is None and self.ttl:
            received_ms = owner.now_ms()
        for record in stage1:
            if not self.read_stage1(record, replies, position):
                for refusal in probes.read_stage1(record, replies, position):
                    owner.refused(*refusal)
            ttl = slot(record, R_TTL)
            if ttl is not None and ttl >= 0 and received_ms is not None:
                set_slot(record, R_EXPIRE, received_ms + ttl)
            position += width
            if self.later and not slot(record, R_GONE):
                next_stage2.append(record)
            else:
                done.append(record)
        position += 1 if request[T_CLOCK] else 0
        for pair in request[T_STAGE2]:
            record = pair[0]
            count = pair[1]
            if not self.read_stage2(record, replies, position, count):
                for refusal in probes.read_stage2(record, replies[position : position + count]):
                    owner.refused(*refusal)
            position += count
            if not slot(record, R_GONE) and self.wants_elements(record):
                next_rare.append((3, record))
            else:
                done.append(record)
        read_rare(probes, request[T_RARE], replies, position, next_rare=next_rare, done=done)
        return next_stage2, next_rare, done

    cdef bint read_stage1(self, object record, list replies, Py_ssize_t at) except -1:
        """`Probes.read_stage1` for a key whose every reply is the usual one (True); False leaves the record
        untouched, for the pure method to read."""
        kind = ttl = memory = encoding = idle = None
        if self.type:
            kind = replies[at]
            if type(kind) is not bytes or kind == b"none":
                return False
            at += 1
        if self.ttl:
            ttl = replies[at]
            if type(ttl) is not int or ttl == -2:
                return False
            at += 1
        if self.memory:
            memory = replies[at]
            if type(memory) is not int:
                return False
            at += 1
        if self.encoding:
            encoding = replies[at]
            if type(encoding) is not bytes:
                return False
            at += 1
        if self.idle or self.freq:
            idle = replies[at]
            if type(idle) is not int:
                return False
        if self.type:
            set_slot(record, R_TYPE, decoded(<bytes>kind))
        if self.ttl:
            set_slot(record, R_TTL, ttl)
        if self.memory:
            set_slot(record, R_MEMORY, memory)
        if self.encoding:
            set_slot(record, R_ENCODING, decoded(<bytes>encoding))
        if self.idle:
            set_slot(record, R_IDLE, idle)
        elif self.freq:
            set_slot(record, R_FREQ, idle)
        return True

    cdef bint read_stage2(self, object record, list replies, Py_ssize_t at, Py_ssize_t count) except -1:
        """`Probes.read_stage2` for replies that are all integers or strings (True); False (an error reply, a
        nil) leaves the record untouched, for the pure method to read."""
        cdef Py_ssize_t index
        for index in range(at, at + count):
            if type(replies[index]) is not int and type(replies[index]) is not bytes:
                return False
        kind = slot(record, R_TYPE)
        if kind == "string" and self.head:
            head = replies[at + count - 1] if count else None
            if type(head) is not bytes:
                head = None
            set_slot(record, R_HEAD, head)
            if count == 2:
                set_slot(record, R_LENGTH, replies[at])
            elif head is not None:
                set_slot(record, R_LENGTH, len(<bytes>head))
            return True
        if count and type(replies[at]) is int:
            length = replies[at]
            set_slot(record, R_LENGTH, length)
            if length == 0 and kind != "string":
                set_slot(record, R_GONE, True)
        return True

    cdef bint wants_elements(self, object record) except -1:
        """`Probes.wants_elements`: the keys it turns down for their type, length, memory or encoding are
        turned down here; any other is asked of the pure method (which may set `sample` or `largest_element`)."""
        cdef long long memory_value, length_value
        if not self.element:
            return False
        kind = slot(record, R_TYPE)
        length = slot(record, R_LENGTH)
        if kind not in ELEMENT_TYPES or not length:
            return False
        memory = slot(record, R_MEMORY)
        if memory is None:
            return False
        if type(memory) is int and type(length) is int and 0 < length < (1 << 40) and 0 <= memory < (1 << 62):
            memory_value, length_value = memory, length
            if memory_value < ELEMENT_PROBE_AVERAGE * length_value and (
                kind == "list" or slot(record, R_ENCODING) in COMPACT_ENCODINGS
            ):
                return False
        return self.probes.wants_elements(record)

    # -- the report (`DbScan._facts`) ------------------------------------------------------------------

    def facts(self, scan, list done):
        """What the engine gets for the keys done, in order, each counted out of its batch (`DbScan._facts`)."""
        cdef list facts = []
        cdef set finished = set()
        cdef dict by_id = {}
        location = scan.owner.location(scan.db)
        db = scan.db
        for batch in scan.batches:
            by_id[slot(batch, B_ID)] = batch
        for record in done:
            name = slot(record, R_NAME)
            batch = by_id.get(slot(record, R_BATCH))
            if batch is not None:
                pending = slot(batch, B_PENDING) - 1
                set_slot(batch, B_PENDING, pending)
                (<list>slot(batch, B_NAMES)).append(name)
                if pending == 0:
                    finished.add(slot(batch, B_ID))
            if slot(record, R_GONE):
                facts.append(Unreadable(name, location) if slot(record, R_UNREADABLE) else SKIPPED)
                continue
            fact = new_object(KeyFactType)
            set_slot(fact, F_NAME, name)
            set_slot(fact, F_ORIGIN, location)
            set_slot(fact, F_DB, db)
            set_slot(fact, F_TYPE, slot(record, R_TYPE))
            set_slot(fact, F_TTL, slot(record, R_TTL))
            set_slot(fact, F_MEMORY, slot(record, R_MEMORY))
            set_slot(fact, F_LENGTH, slot(record, R_LENGTH))
            set_slot(fact, F_ENCODING, slot(record, R_ENCODING))
            set_slot(fact, F_IDLE, slot(record, R_IDLE))
            set_slot(fact, F_FREQ, slot(record, R_FREQ))
            set_slot(fact, F_EXPIRE, slot(record, R_EXPIRE))
            set_slot(fact, F_LARGEST, slot(record, R_LARGEST))
            set_slot(fact, F_HEAD, slot(record, R_HEAD))
            facts.append(fact)
        if finished:
            scan.batches = deque(batch for batch in scan.batches if slot(batch, B_ID) not in finished)
        return facts
