"""Keyspace statistics of one run: memory by type, TTL coverage, histograms, namespaces, top keys.

Computed by the engine from the key facts it sees (bounded: top-K heaps, capped namespace table), used by
instance rules (eviction policy versus TTL coverage) and by renderers (the summary and the charts).
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.plan import SUMMARY_FIELDS

#: TTL histogram buckets: (label, upper bound in seconds, exclusive); persistent keys are `no expiry`.
TTL_BUCKETS: tuple[tuple[str, float], ...] = (
    ("< 1 min", 60),
    ("1 min – 1 h", 3600),
    ("1 h – 24 h", 86400),
    ("1 d – 7 d", 7 * 86400),
    ("7 d – 30 d", 30 * 86400),
    ("> 30 d", float("inf")),
)
NO_EXPIRY = "no expiry"
#: The namespace of names without a `:` level.
NO_NAMESPACE = "<no namespace>"

#: The expiry timeline's bins: one per minute of the next 24 hours, one per hour of the next 30 days.
TIMELINE_MINUTES = 24 * 60
TIMELINE_SECONDS = TIMELINE_MINUTES * 60
TIMELINE_HOURS = 30 * 24
MINUTE_MS = 60_000
HOUR_MS = 3_600_000


@dataclass(frozen=True, slots=True)
class TypeStat:
    type: str
    keys: int
    memory: int  # bytes (sum of MEMORY USAGE; 0 when not probed)
    elements: int  # sum of lengths (bytes for strings)
    with_ttl: int


@dataclass(frozen=True, slots=True)
class Bucket:
    """One bar of a histogram or one namespace: a label, how many keys, how many bytes."""

    label: str
    keys: int
    memory: int


@dataclass(frozen=True, slots=True)
class SizeBucket:
    """One bar of the key-size histogram: the keys whose memory is in [low, high) bytes, and their bytes.

    Bucket k holds the memory m with `m.bit_length() == k`: [2^(k-1), 2^k), and bucket 0 is m = 0 (low 0,
    high 1). Powers of two keep the table bounded (65 buckets cover every 64-bit size) and a key's bucket
    one integer operation away.
    """

    low: int  # bytes, inclusive
    high: int  # bytes, exclusive
    keys: int
    memory: int


@dataclass(frozen=True, slots=True)
class ExpiryTimeline:
    """When the keys with a TTL expire, counted from each key's TTL as read: per minute of the next 24 hours
    and per hour of the next 30 days, so that many keys due in the same minute or hour (an expiry cliff)
    stand out. A key due within 24 hours is in both tables; `keys` = sum(per_hour) + later. `peak_second` has,
    for each minute, the most keys due in one second of it: how tight a cliff is (all its keys in one second,
    or spread over the minute), which the expire cycle's work depends on."""

    per_minute: tuple[int, ...]  # TIMELINE_MINUTES values: keys with minute k ≤ TTL < minute k + 1
    per_hour: tuple[int, ...]  # TIMELINE_HOURS values: keys with hour k ≤ TTL < hour k + 1
    later: int  # keys expiring 30 days or more ahead
    keys: int  # keys with a TTL counted
    peak_second: tuple[int, ...] = ()  # TIMELINE_MINUTES values: the most keys due in one second of minute k


@dataclass(frozen=True, slots=True)
class TopKey:
    name: bytes
    db: int | None
    type: str | None
    memory: int | None
    length: int | None
    ttl_ms: int | None
    encoding: str | None


@dataclass(frozen=True, slots=True)
class Estimate:
    """A quantity estimated from a uniform random sample, with its 95% confidence interval."""

    name: str
    value: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Sampling:
    """How a sampled scan drew its keys: each key was kept independently with probability `rate`."""

    rate: float
    population: int  # keys in the scanned databases when the scan started
    sampled: int
    estimates: tuple[Estimate, ...] = ()


@dataclass(frozen=True, slots=True)
class KeyspaceStats:
    keys: int = 0
    memory: int = 0
    with_ttl: int = 0
    memory_with_ttl: int = 0
    by_type: tuple[TypeStat, ...] = ()
    by_db: tuple[Bucket, ...] = ()
    ttl_histogram: tuple[Bucket, ...] = ()
    namespaces: tuple[Bucket, ...] = ()  # by memory, then keys; capped, with `<other>` last
    encodings: tuple[Bucket, ...] = ()
    top_by_memory: tuple[TopKey, ...] = ()
    top_by_length: tuple[TopKey, ...] = ()
    skipped: int = 0  # keys that vanished or changed type between SCAN and probe
    sampling: Sampling | None = None
    #: None when memory is MEMORY USAGE as the server measured it; else the model that estimated it (a dump)
    memory_model: str | None = None
    #: keys and memory per power-of-two bucket of a key's memory, from the smallest non-empty bucket to the
    #: largest (empty ones between them included); empty when memory was not measured
    size_buckets: tuple[SizeBucket, ...] = ()
    #: None when TTLs were not measured
    expiry: ExpiryTimeline | None = None
    #: the summary's fields (SUMMARY_FIELDS) that keys carried: a scan whose rules probe no memory (and that
    #: was not asked for the full summary) has TTL coverage but no memory figures, and says so
    measured: frozenset[str] = SUMMARY_FIELDS

    @property
    def ttl_coverage(self) -> float | None:
        """Share of keys with a TTL (None without keys, or when TTLs were not probed)."""
        return self.with_ttl / self.keys if self.keys and "ttl" in self.measured else None

    @property
    def memory_ttl_coverage(self) -> float | None:
        """Share of memory held by keys with a TTL (None when memory was not measured)."""
        return self.memory_with_ttl / self.memory if self.memory and "ttl" in self.measured else None

    @property
    def not_measured(self) -> tuple[str, ...]:
        """The summary's fields no key carried, in a fixed order (empty for a full summary)."""
        return tuple(sorted(SUMMARY_FIELDS - self.measured))


def namespace_of(name: bytes) -> str:
    """The first `:` level of a key or pattern, as `user:*`; names without `:` are `<no namespace>`."""
    head, sep, _rest = name.partition(b":")
    if not sep:
        return NO_NAMESPACE
    return head.decode("utf-8", "backslashreplace") + ":*"
