"""Facts: frozen observations that sources produce and rules consume.

A field left at None was not observed, either because the source cannot see it (a key list has no TTL)
or because no enabled rule asked for it (see `model.plan.ProbePlan`).

Besides whole facts, a source can report keys it could only name: `KeyNames` (a batch of names from a key
list, with their lines), `UnreadableKey` (listed, but the scanning user may not read it), `VANISHED` (listed,
gone before it was probed), and `KeySample` (the keys that follow are a random sample).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.location import Location

#: How many leading bytes of a string value a source reads for `head` (never the whole value).
HEAD_BYTES = 1024

#: Where a CommandFact was observed.
EVIDENCE_COMMANDSTATS = "commandstats"  # INFO commandstats: the name and a call count, no arguments
EVIDENCE_SLOWLOG = "slowlog"  # SLOWLOG GET: the arguments (truncated by the server) and a duration
EVIDENCE_CODE = "code"  # a call site in source code
EVIDENCE_RUNTIME = "runtime"  # a command as the application sent it, seen by the runtime guard


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
    """A command that was (or will be) sent: from `INFO commandstats`, the slow log or code.

    `name` is lowercase with a `|` before a subcommand (`config|set`), as Redis names them in commandstats.
    `args` are the arguments after the command name (subcommand included), or None when only the name is
    known. `calls` is how many times it ran (commandstats) or 1. `senders`: the clients (`ip:port`) seen
    sending it, when a traffic source saw them (the slow log's entry, a MONITOR sample), else empty.
    """

    name: str
    origin: Location
    evidence: str
    args: tuple[bytes, ...] | None = None
    calls: int = 1
    duration_us: int | None = None
    senders: tuple[str, ...] = ()


#: One name of a key list: the key's bytes, its line in the list (None in memory) and its type when the list
#: gives one (JSON lines with `type`).
NameRecord = tuple[bytes, "int | None", "str | None"]


@dataclass(frozen=True, slots=True)
class KeyNames:
    """Key names read from one input (a key list), judged by name only: one fact for many names, so that a
    40 M-line list costs no fact object per key. `records` may be read as it is consumed (once)."""

    origin: Location
    records: Iterable[NameRecord]


@dataclass(frozen=True, slots=True)
class UnreadableKey:
    """A key a scan listed but the scanning user may not read (ACL key patterns): judged by its name only."""

    name: bytes
    origin: Location


class Vanished:
    """A key a scan listed that was gone (deleted, expired or retyped) before its probes ran."""

    __slots__ = ()


VANISHED = Vanished()


@dataclass(frozen=True, slots=True)
class KeySample:
    """The keys that follow are a Bernoulli sample: each of `population` keys was kept with probability `rate`."""

    rate: float
    population: int
