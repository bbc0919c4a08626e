"""Which commands probe a key, stage by stage, and how their replies become KeyFact fields.

Stage 1 (name known): TYPE, PTTL, MEMORY USAGE … SAMPLES n, OBJECT ENCODING, OBJECT IDLETIME or FREQ.
Stage 2 (type known): the length command of the type, and GETRANGE for a string's first bytes.
Stage 3 (a collection that may hide one big element): a bounded random look at its elements.
Stage 4 (hash fields known): HSTRLEN of each sampled field.

Only commands whose facts an enabled rule needs are sent; every command is O(1) or bounded by a small count.
Never SAMPLES 0, never a whole-collection read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rediscipline.model.facts import HEAD_BYTES

LENGTH_COMMANDS = {
    b"string": b"STRLEN",
    b"list": b"LLEN",
    b"hash": b"HLEN",
    b"set": b"SCARD",
    b"zset": b"ZCARD",
    b"stream": b"XLEN",
}
#: Encodings that keep every element small by construction (a listpack refuses elements above `*-value`).
COMPACT_ENCODINGS = frozenset({"listpack", "ziplist", "intset", "embstr", "int"})
#: A collection is looked into when its average element is at least this big, whatever its encoding.
ELEMENT_PROBE_AVERAGE = 1024
#: Elements sampled from a large collection (all of them when it has at most ALL_ELEMENTS).
ELEMENT_SAMPLE = 16
ALL_ELEMENTS = 256


@dataclass(slots=True)
class KeyRecord:
    """A key being probed; fields fill in stage by stage."""

    name: bytes
    batch: int
    type: str | None = None
    ttl_ms: int | None = None
    memory: int | None = None
    encoding: str | None = None
    idle_seconds: int | None = None
    freq: int | None = None
    length: int | None = None
    head: bytes | None = None
    largest_element: int | None = None
    fields: list[bytes] = field(default_factory=list)
    gone: bool = False  # vanished or retyped between SCAN and probe


@dataclass(frozen=True, slots=True)
class Probes:
    """What to ask about each key, derived from the ProbePlan and what the server allows."""

    ttl: bool
    memory: bool
    memory_samples: int
    encoding: bool
    idle: bool  # OBJECT IDLETIME (LRU policies)
    freq: bool  # OBJECT FREQ (LFU policies)
    length: bool
    head: bool
    element: bool

    def stage1(self, name: bytes) -> list[tuple[Any, ...]]:
        commands: list[tuple[Any, ...]] = [(b"TYPE", name)]
        if self.ttl:
            commands.append((b"PTTL", name))
        if self.memory:
            commands.append((b"MEMORY", b"USAGE", name, b"SAMPLES", self.memory_samples))
        if self.encoding:
            commands.append((b"OBJECT", b"ENCODING", name))
        if self.idle:
            commands.append((b"OBJECT", b"IDLETIME", name))
        if self.freq:
            commands.append((b"OBJECT", b"FREQ", name))
        return commands

    def stage2(self, record: KeyRecord) -> list[tuple[Any, ...]]:
        assert record.type is not None
        commands: list[tuple[Any, ...]] = []
        length = LENGTH_COMMANDS.get(record.type.encode())
        if length is not None and (self.length or self.element or self.head):
            commands.append((length, record.name))
        if self.head and record.type == "string":
            commands.append((b"GETRANGE", record.name, 0, HEAD_BYTES - 1))
        return commands

    def wants_elements(self, record: KeyRecord) -> bool:
        """Look inside a collection only when it may hide a big element: a compact encoding rules that out."""
        if not self.element or record.type not in ("hash", "set", "zset", "list") or not record.length:
            return False
        if record.memory is not None and record.memory >= ELEMENT_PROBE_AVERAGE * record.length:
            return True
        return record.encoding is None or (record.encoding not in COMPACT_ENCODINGS and record.type != "list")

    def stage3(self, record: KeyRecord) -> list[tuple[Any, ...]]:
        name, length = record.name, record.length or 0
        count = length if length <= ALL_ELEMENTS else ELEMENT_SAMPLE
        if record.type == "hash":
            return [(b"HRANDFIELD", name, count)]
        if record.type == "set":
            return [(b"SRANDMEMBER", name, min(count, ELEMENT_SAMPLE))]
        if record.type == "zset":
            return [(b"ZRANDMEMBER", name, min(count, ELEMENT_SAMPLE))]
        return [(b"LINDEX", name, 0), (b"LINDEX", name, -1)]

    def stage4(self, record: KeyRecord) -> list[tuple[Any, ...]]:
        return [(b"HSTRLEN", record.name, name) for name in record.fields]
