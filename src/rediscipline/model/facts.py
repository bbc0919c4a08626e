"""Facts: frozen observations that sources produce and rules consume.

A field left at None was not observed, either because the source cannot see it (a key list has no TTL)
or because no enabled rule asked for it (see `engine.plan.ProbePlan`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.location import Location

#: Fields of KeyFact a rule may declare it needs; a source fills only the requested ones.
KEY_FIELDS = ("type", "ttl", "memory", "length", "encoding", "idle", "freq")


@dataclass(frozen=True, slots=True)
class KeyFact:
    """One key: its name (concrete bytes or a template from code) and whatever was probed about it."""

    name: bytes | KeyTemplate
    origin: Location
    db: int | None = None
    type: str | None = None  # string, list, hash, set, zset, stream, or a module type name
    ttl_ms: int | None = None  # -1 = no expiry
    memory: int | None = None  # bytes, as MEMORY USAGE or an estimate
    length: int | None = None  # elements, or bytes for a string
    encoding: str | None = None
    idle_seconds: int | None = None
    freq: int | None = None
