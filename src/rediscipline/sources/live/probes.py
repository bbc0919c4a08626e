"""Which commands probe a key, stage by stage, packed as RESP with one bytes format per key.

Stage 1 (name known): TYPE, PTTL, MEMORY USAGE … SAMPLES n, OBJECT ENCODING, OBJECT IDLETIME or FREQ; TYPE
only when a field needs it (the type itself, or a later stage, which picks its command by type). With no
stage-1 command at all (rules on names only) a key is reported as SCAN listed it.
Stage 2 (type known): the length command of the type; for a string GETRANGE of its first bytes, which also
gives the length of any string shorter than HEAD_BYTES (MEMORY USAGE tells which), so STRLEN is only sent
for longer strings.
Stage 3 (a collection that may hide one big element): a bounded random look at its elements.
Stage 4 (hash fields known): HSTRLEN of each sampled field.

Only commands whose facts the run's ProbePlan asks for are sent (`probes_for`); every command is O(1) or
bounded by a small count.
Never SAMPLES 0, never a whole-collection read. Packing a key's stage-1 commands with one `%` format costs
about 1 µs, against about 2.5 µs for the same commands through `hiredis.pack_command`.

Stage 3 is bounded in bytes too, not only in elements: an
element comes back whole (and the server copies it into our output buffer first), so the count is cut to
what ELEMENT_BUDGET holds at the collection's average element size (MEMORY USAGE / length), and a
collection whose average element is above ELEMENT_CAP is not read at all: its average, a lower bound of its
largest element, stands for it. An element far above its collection's average can still exceed the budget;
nothing cheaper than reading it tells its size.

A key the scanning user may not read (ACL key patterns) answers NOPERM to every probe: it is marked
`unreadable`, not `gone`, so the report can say so instead of counting it as vanished.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rediscipline.model.facts import HEAD_BYTES
from rediscipline.model.plan import ProbePlan
from rediscipline.model.server import (
    CHECK_KEY_READS,
    CHECK_LENGTH,
    CHECK_MEMORY,
    CHECK_OBJECT,
    CHECK_TYPE,
    ServerFact,
)
from rediscipline.sources.live.wire import is_error

LENGTH_COMMANDS = {
    "string": b"STRLEN",
    "list": b"LLEN",
    "hash": b"HLEN",
    "set": b"SCARD",
    "zset": b"ZCARD",
    "stream": b"XLEN",
}
#: Encodings that keep every element small by construction (a listpack refuses elements above `*-value`).
COMPACT_ENCODINGS = frozenset({"listpack", "ziplist", "intset", "embstr", "int"})
#: A collection is looked into when its average element is at least this big, whatever its encoding.
ELEMENT_PROBE_AVERAGE = 1024
#: Elements sampled from a large collection (all of them when it has at most ALL_FIELDS; see stage3).
ELEMENT_SAMPLE = 16
ALL_FIELDS = 256
#: Largest set or sorted set (by MEMORY USAGE) whose members are all read back to find the biggest one.
MEMBER_TRANSFER_LIMIT = 1 << 20
#: Bytes the element probe of one key is expected to move at most (at the collection's average element size).
ELEMENT_BUDGET = 2 << 20
#: Largest average element read at all: above it, one element alone may be bigger than anything we read.
ELEMENT_CAP = 8 << 20


def is_key_denied(reply: Any) -> bool:
    """A NOPERM about the key itself (ACL key patterns), not about the command."""
    text = str(reply) if is_error(reply) else ""
    return text.startswith("NOPERM") and "key" in text and "to run" not in text


#: Error replies of a cluster node about where a key lives or whether the cluster serves it now.
_CLUSTER_REFUSALS = ("MOVED ", "ASK ", "CLUSTERDOWN", "TRYAGAIN")


def is_cluster_refusal(reply: Any) -> bool:
    """The node will not read this key now: it moved (MOVED, ASK, a slot in migration), or the cluster is down
    (CLUSTERDOWN: some slot is served by nobody) or busy (TRYAGAIN)."""
    return is_error(reply) and str(reply).startswith(_CLUSTER_REFUSALS)


def is_command_denied(reply: Any) -> bool:
    return is_error(reply) and str(reply).startswith("NOPERM") and not is_key_denied(reply)


def _bulk(word: bytes) -> bytes:
    return b"$%d\r\n%s\r\n" % (len(word), word)


def key_template(*words: bytes, key_at: int) -> bytes:
    """RESP of one command with the key's length and bytes left as `%d`/`%b` slots at position `key_at`."""
    parts = [b"*%d\r\n" % (len(words) + 1)]
    for index in range(len(words) + 1):
        if index == key_at:
            parts.append(b"$%d\r\n%b\r\n")
        else:
            parts.append(_bulk(words[index if index < key_at else index - 1]))
    return b"".join(parts)


@dataclass(slots=True)
class KeyRecord:
    """A key being probed; fields fill in stage by stage."""

    name: bytes
    batch: int
    type: str | None = None
    ttl_ms: int | None = None
    #: the absolute expiry on the server's clock, from the PTTL reply and the moment its round trip came back
    expire_at_ms: int | None = None
    memory: int | None = None
    encoding: str | None = None
    idle_seconds: int | None = None
    freq: int | None = None
    length: int | None = None
    head: bytes | None = None
    largest_element: int | None = None
    fields: list[bytes] | None = None
    sample: int = 0  # elements the stage-3 probe asks for
    gone: bool = False  # vanished or retyped between SCAN and probe
    unreadable: bool = False  # the scanning user may not read it (then `gone` is set too: nothing more is sent)


class Probes:
    """What to ask about each key, derived from the ProbePlan and what the server allows."""

    def __init__(
        self,
        *,
        type: bool = True,
        ttl: bool,
        memory: bool,
        memory_samples: int,
        encoding: bool,
        idle: bool,
        freq: bool,
        length: bool,
        head: bool,
        element: bool,
    ) -> None:
        self.ttl, self.memory, self.encoding = ttl, memory, encoding
        self.idle, self.freq = idle, freq
        self.length, self.head, self.element = length, head, element
        self.type = type or length or head or element  # the later stages pick their command by type
        self.elements_unread = 0  # collections whose average element was above ELEMENT_CAP
        stage1 = [key_template(b"TYPE", key_at=1)] if self.type else []
        if ttl:
            stage1.append(key_template(b"PTTL", key_at=1))
        if memory:
            stage1.append(key_template(b"MEMORY", b"USAGE", b"SAMPLES", b"%d" % memory_samples, key_at=2))
        if encoding:
            stage1.append(key_template(b"OBJECT", b"ENCODING", key_at=2))
        if idle:
            stage1.append(key_template(b"OBJECT", b"IDLETIME", key_at=2))
        if freq:
            stage1.append(key_template(b"OBJECT", b"FREQ", key_at=2))
        #: replies per key in stage 1, and the RESP of its commands with 2 slots per command
        self.stage1_count = len(stage1)
        self._stage1 = b"".join(stage1)
        self._length = {kind: key_template(command, key_at=1) for kind, command in LENGTH_COMMANDS.items()}
        self._getrange = key_template(b"GETRANGE", b"0", b"%d" % (HEAD_BYTES - 1), key_at=1)

    def stage1(self, name: bytes) -> bytes:
        return self._stage1 % ((len(name), name) * self.stage1_count)

    @property
    def later_stages(self) -> bool:
        """Whether any key can need a stage after the first."""
        return self.length or self.head or self.element

    def stage2(self, record: KeyRecord) -> tuple[bytes, int]:
        """The stage-2 commands of a key and how many replies they produce."""
        kind, name = record.type, record.name
        size = len(name)
        if kind == "string":
            if not self.head:
                return (self._length["string"] % (size, name), 1) if self.length else (b"", 0)
            if record.memory is not None and record.memory < HEAD_BYTES:
                return self._getrange % (size, name), 1  # the head is the whole value
            return (self._length["string"] + self._getrange) % (size, name, size, name), 2
        template = self._length.get(kind or "")
        if template is None or not (self.length or self.element):
            return b"", 0
        return template % (size, name), 1

    def wants_elements(self, record: KeyRecord) -> bool:
        """Look inside a collection only when it may hide a big element (a compact encoding rules that out)
        and its memory bounds what the look moves; sets `record.sample`, or the average when it is too big."""
        if not self.element or record.type not in ("hash", "set", "zset", "list") or not record.length:
            return False
        memory, length = record.memory, record.length
        if memory is None:
            return False  # nothing bounds an element's size: reading one could move any amount
        big_average = memory >= ELEMENT_PROBE_AVERAGE * length
        if not big_average and (record.type == "list" or record.encoding in COMPACT_ENCODINGS):
            return False
        average = -(-memory // length)
        if average > ELEMENT_CAP:
            record.largest_element = average  # some element is at least this big; reading one may exceed the cap
            self.elements_unread += 1
            return False
        if record.type == "hash":  # field names come back; their values are measured by HSTRLEN
            wanted = length if length <= ALL_FIELDS else ELEMENT_SAMPLE
        elif record.type == "list":
            wanted = 2  # the head and the tail
        else:  # set and sorted-set members come back whole: all of them only when the whole key is small
            wanted = length if length <= ALL_FIELDS and memory <= MEMBER_TRANSFER_LIMIT else ELEMENT_SAMPLE
        record.sample = max(1, min(wanted, ELEMENT_BUDGET // average))
        return True

    def stage3(self, record: KeyRecord) -> list[tuple[Any, ...]]:
        name, count = record.name, record.sample or 1
        if record.type == "hash":
            return [(b"HRANDFIELD", name, count)]
        if record.type == "set":
            return [(b"SRANDMEMBER", name, count)]
        if record.type == "zset":
            return [(b"ZRANDMEMBER", name, count)]
        return [(b"LINDEX", name, 0), (b"LINDEX", name, -1)][:count]

    def stage4(self, record: KeyRecord) -> list[tuple[Any, ...]]:
        return [(b"HSTRLEN", record.name, name) for name in record.fields or ()]

    def read_stage1(self, record: KeyRecord, replies: list[Any], at: int) -> list[tuple[str, Any]]:
        """Fill stage-1 fields from `replies[at:]`; return the probes the server refused (check, reply)."""
        refused: list[tuple[str, Any]] = []
        if self.type:
            kind = replies[at]
            if kind.__class__ is not bytes or kind == b"none":
                record.gone = True
                if is_key_denied(kind):
                    record.unreadable = True
                elif is_cluster_refusal(kind):
                    record.unreadable = True
                    refused.append((CHECK_KEY_READS, kind))
                elif is_command_denied(kind):
                    record.unreadable = True
                    refused.append((CHECK_TYPE, kind))
                return refused
            record.type = kind.decode("ascii", "replace")
            at += 1
        if self.ttl:
            ttl = replies[at]
            at += 1
            if ttl == -2:
                record.gone = True
                return refused
            if ttl.__class__ is not int and (is_key_denied(ttl) or is_cluster_refusal(ttl)):
                record.gone = record.unreadable = True
                if is_cluster_refusal(ttl):
                    refused.append((CHECK_KEY_READS, ttl))
                return refused
            record.ttl_ms = ttl if ttl.__class__ is int else None
        if self.memory:
            reply = replies[at]
            at += 1
            if reply.__class__ is int:
                record.memory = reply
            elif reply is None:
                record.gone = True
                return refused
            elif is_key_denied(reply) or is_cluster_refusal(reply):
                record.gone = record.unreadable = True
                if is_cluster_refusal(reply):
                    refused.append((CHECK_KEY_READS, reply))
                return refused
            else:
                refused.append((CHECK_MEMORY, reply))
        if self.encoding:
            reply = replies[at]
            at += 1
            if reply.__class__ is bytes:
                record.encoding = reply.decode("ascii", "replace")
            elif reply is not None:
                refused.append((CHECK_OBJECT, reply))
        if self.idle or self.freq:
            reply = replies[at]
            if reply.__class__ is int:
                if self.idle:
                    record.idle_seconds = reply
                else:
                    record.freq = reply
            elif reply is not None:
                refused.append((CHECK_OBJECT, reply))
        return refused

    def read_stage2(self, record: KeyRecord, replies: list[Any]) -> list[tuple[str, Any]]:
        """Fill the length and head; return the probes the server refused (check, reply)."""
        for reply in replies:
            if is_command_denied(reply):
                return [(CHECK_LENGTH, reply)]
            if is_error(reply):  # WRONGTYPE: the key was replaced by another type since TYPE
                record.gone = True
                return []
        if record.type == "string" and self.head:
            head = replies[-1] if replies else None
            record.head = head if head.__class__ is bytes else None
            if len(replies) == 2:
                record.length = replies[0]
            elif record.head is not None:
                record.length = len(record.head)
            return []
        if replies and replies[0].__class__ is int:
            record.length = replies[0]
            if record.length == 0 and record.type != "string":
                record.gone = True  # Redis never keeps an empty collection: it was deleted
        return []

    def read_stage3(self, record: KeyRecord, replies: list[Any]) -> bool:
        """Take the sampled elements; True when hash fields still need their value lengths (stage 4)."""
        if record.type == "hash":
            fields = replies[0]
            record.fields = [f for f in fields if isinstance(f, bytes)] if isinstance(fields, list) else []
            return bool(record.fields)
        elements: list[bytes] = []
        for reply in replies:
            if isinstance(reply, list):
                elements.extend(e for e in reply if isinstance(e, bytes))
            elif isinstance(reply, bytes):
                elements.append(reply)
        record.largest_element = max((len(e) for e in elements), default=None)
        return False

    def read_stage4(self, record: KeyRecord, replies: list[Any]) -> None:
        """The largest sampled hash field name or value (HSTRLEN replies)."""
        sizes = [len(field) for field in record.fields or ()] + [r for r in replies if isinstance(r, int)]
        record.largest_element = max(sizes, default=None)


def probes_for(plan: ProbePlan, server: ServerFact, memory_samples: int) -> Probes:
    """The probes the plan asks for on this server: OBJECT IDLETIME under an LRU policy, OBJECT FREQ under
    an LFU one (each is an error under the other). Looking for the largest element takes the key's memory and
    length too: they bound what the look may read (`Probes.wants_elements`)."""
    wants = plan.key_fields
    lfu = "lfu" in (server.maxmemory_policy or "")
    element = "element" in wants
    return Probes(
        type="type" in wants,
        ttl="ttl" in wants,
        memory="memory" in wants or element,
        memory_samples=memory_samples,
        encoding="encoding" in wants,
        idle="idle" in wants and not lfu,
        freq="freq" in wants and lfu,
        length="length" in wants or element,
        head="head" in wants,
        element=element,
    )
