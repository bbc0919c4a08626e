"""What the parser yields: one RdbKey per key, and the header facts of the file."""

from __future__ import annotations

from dataclasses import dataclass


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
class RdbKey:
    """One key as the dump shows it, read without materialising its elements.

    `encoding` is the in-memory encoding of the writing server, named as OBJECT ENCODING names it, derived
    from the record's type byte (and, for lists and strings, from its content). `value_bytes` is the
    uncompressed payload: a string's length, the total size of compact blobs, or the sum of element lengths
    for encodings stored element by element. `largest_element` is known in deep mode, and otherwise only
    where it costs nothing (elements stored one by one, PLAIN list nodes, big blobs).
    """

    db: int
    key: bytes
    type: str
    encoding: str
    expire_at_ms: int | None
    idle_seconds: int | None
    freq: int | None
    offset: int
    size: int
    length: int
    value_bytes: int
    nodes: int | None = None
    largest_element: int | None = None
    module: str | None = None
    stream_groups: int | None = None
    stream_pel: int | None = None
    stream_consumers: int | None = None
    hfe_fields: int | None = None
    head: bytes | None = None  # the first bytes of a string value (see parser: HEAD_BYTES)
