"""What the parser yields: one RdbKey (a KeyFact with the dump's own details) per key, and the file header."""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.facts import KeyFact


@dataclass(frozen=True, slots=True)
class RdbHeader:
    """The file's magic and format version, and its size in bytes (before any envelope was removed)."""

    magic: str  # "REDIS" or "VALKEY"
    version: int
    size: int
    envelope: str | None = None  # "lz4" when the file was wrapped in Valkey's whole-file compression

    @property
    def label(self) -> str:
        return f"{self.magic}{self.version:04d}" if self.magic == "REDIS" else f"{self.magic}{self.version:03d}"


@dataclass(slots=True)
class RdbKey(KeyFact):
    """One key as the dump shows it, read without materialising its elements.

    It is the KeyFact the rules see (so the parser builds one object per key, not two), plus what only a
    dump tells. `encoding` is the in-memory encoding of the writing server, named as OBJECT ENCODING names
    it, derived from the record's type byte (and for lists and strings from the content). `ttl_ms` counts
    from the moment the dump was written (its `ctime`). `value_bytes` is the uncompressed payload: a string's
    length, the total size of compact blobs, or the sum of element lengths for encodings stored element by
    element. `largest_element` is known in deep mode, and otherwise only where it costs nothing (elements
    stored one by one, PLAIN list nodes, blobs of 8 KB or more). `memory` is left to the memory model.
    """

    offset: int = 0  # file offset of the record's first byte (its first prefix opcode)
    size: int = 0  # serialized bytes of the whole record: prefix opcodes, type, key, value
    value_bytes: int = 0
    nodes: int | None = None  # quicklist nodes, stream listpack nodes
    module: str | None = None  # module type name, for module values
    stream_groups: int | None = None
    stream_pel: int | None = None  # pending entries, summed over groups
    stream_consumers: int | None = None
    hfe_fields: int | None = None  # hash fields with a TTL of their own

    @property
    def key(self) -> bytes:
        """The key name (always concrete bytes in a dump)."""
        return self.name  # type: ignore[return-value]
