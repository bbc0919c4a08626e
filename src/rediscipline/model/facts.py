"""Facts: frozen observations that sources produce and rules consume.

A field left at None was not observed, either because the source cannot see it (a key list has no TTL)
or because no enabled rule asked for it (see `engine.plan.ProbePlan`).
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.location import Location

#: Fields of KeyFact a rule may declare it needs; a source fills only the requested ones.
#: `ttl` fills both `ttl_ms` and `expire_at_ms`; `element` (the largest element) and `head` are bounded looks
#: inside a value.
KEY_FIELDS = ("type", "ttl", "memory", "length", "encoding", "idle", "freq", "element", "head")

#: How many leading bytes of a string value a source reads for `head` (never the whole value).
HEAD_BYTES = 1024

#: Where a CommandFact was observed.
EVIDENCE_COMMANDSTATS = "commandstats"  # INFO commandstats: the name and a call count, no arguments
EVIDENCE_SLOWLOG = "slowlog"  # SLOWLOG GET: the arguments (truncated by the server) and a duration
EVIDENCE_CODE = "code"  # a call site in source code
EVIDENCE_RUNTIME = "runtime"  # a command the runtime guard saw


@dataclass(slots=True)
class KeyFact:
    """One key: its name (concrete bytes or a template from code) and whatever was probed about it.

    Treat it as immutable. It is not `frozen` only because a frozen dataclass pays `object.__setattr__`
    per field: 3.0 µs to build one against 0.5 µs, a fifth of a live scan's per-key budget.
    """

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
    expire_at_ms: int | None = None  # absolute Unix time in ms when the key expires (None: persistent/unknown)
    largest_element: int | None = None  # bytes of the largest element seen by a bounded sample of the value
    head: bytes | None = None  # the first HEAD_BYTES bytes of a string value


@dataclass(frozen=True, slots=True)
class CommandFact:
    """A command that was (or will be) sent: from `INFO commandstats`, the slow log, code or the runtime guard.

    `name` is lowercase with a `|` before a subcommand (`config|set`), as Redis names them in commandstats.
    `args` are the arguments after the command name (subcommand included), or None when only the name is
    known. `calls` is how many times it ran (commandstats) or 1.
    """

    name: str
    origin: Location
    evidence: str
    args: tuple[bytes, ...] | None = None
    calls: int = 1
    duration_us: int | None = None
