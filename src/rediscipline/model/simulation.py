"""What a simulator predicts a server would do: the outcome of replaying an access trace through the server's
eviction for each policy and `maxmemory` asked (`simulate.eviction`, `sources.simulation`).

An `EvictionSimulation` is one run's view: the trace (how many accesses and keys, over what span, the working
set: the memory every key read would take at once), the settings shared by every replay, and one
`EvictionResult` per policy and size. The simulation rules judge it at the end and the report shows it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.location import Location


@dataclass(frozen=True, slots=True)
class NamespaceEvictions:
    """The keys and bytes one key pattern lost to eviction in one replay."""

    pattern: bytes
    keys: int
    bytes: int


@dataclass(frozen=True, slots=True)
class EvictionResult:
    """One replay: `policy` at `maxmemory` (bytes, the server's setting); `hits` and `misses` of the GETs,
    keys and bytes evicted (the first namespaces by bytes in `namespaces`), SETs refused for memory
    (`oom_errors`: noeviction, or a volatile policy with nothing volatile to evict), the most memory used."""

    policy: str
    maxmemory: int
    hits: int
    misses: int
    evicted_keys: int
    evicted_bytes: int
    oom_errors: int
    peak_memory: int
    keys_at_end: int
    namespaces: tuple[NamespaceEvictions, ...] = ()

    @property
    def hit_ratio(self) -> float:
        reads = self.hits + self.misses
        return self.hits / reads if reads else 0.0


@dataclass(frozen=True, slots=True)
class TraceSummary:
    """The trace replayed: its format (`rediscipline-trace`, `monitor`, `text`), accesses, distinct keys, the
    span its times cover (ms; 0 without times), the accesses with a TTL, and the working set: `used_memory`
    with every key the trace reads held at once (the baseline included)."""

    format: str
    accesses: int
    keys: int
    span_ms: int
    volatile_accesses: int
    working_set: int
    timed: bool


@dataclass(frozen=True, slots=True)
class EvictionSettingsView:
    """The settings every replay shared: the memory model (server and baseline), `maxmemory-samples`,
    `lfu-log-factor`, `lfu-decay-time`, `hz`, the seed, the value size assumed where the trace has none, and
    the policy the server is configured with when it is known (what the other policies are compared with)."""

    memory_model: str
    baseline: int
    samples: int
    log_factor: int
    decay_time: int
    hz: int
    seed: int
    default_size: int
    configured_policy: str | None = None


@dataclass(frozen=True, slots=True)
class EvictionSimulation:
    """An eviction simulation of one trace: `results` by size, then by policy in the order asked."""

    origin: Location
    trace: TraceSummary
    settings: EvictionSettingsView
    results: tuple[EvictionResult, ...]

    def result(self, policy: str, maxmemory: int) -> EvictionResult | None:
        return next((r for r in self.results if r.policy == policy and r.maxmemory == maxmemory), None)


@dataclass(frozen=True, slots=True)
class ExpiryPoint:
    """A database at time `t` (seconds from the simulation's start): keys past their TTL still in memory and
    their bytes, and the keys the active expire cycle has deleted since the start."""

    db: int
    t: float
    expired_in_memory: int
    expired_in_memory_bytes: int
    reclaimed: int


@dataclass(frozen=True, slots=True)
class ExpiryStep:
    """What the expire cycle cost over the step ending at `t` (seconds): the share of the server's time it took,
    the slow cycles that stopped at their time limit, and the longest cycle (µs)."""

    t: float
    cpu_share: float
    time_limit_hits: int
    longest_cycle_us: float


@dataclass(frozen=True, slots=True)
class ExpirySettingsView:
    """The expire cycle's settings (`hz`, `active-expire-effort`, `lazyfree-lazy-expire`), the model's costs
    (µs per key sampled, per key deleted, per KB of a deleted value), the span and step simulated (seconds),
    the jitter applied to patterns' TTLs (`(glob, share)`), the seed, and which server's cycle was modelled
    (`algorithm`: `cursor` for Redis 6.0 and later, `random` for Redis 5 and earlier, `valkey9`), with the keys
    its slow cycle looks at per second and database when nothing expires in bulk (`sweep_per_second`: keys per
    loop × hz)."""

    hz: int
    effort: int
    lazyfree: bool
    sample_us: float
    delete_us: float
    delete_us_per_kb: float
    seconds: float
    step: float
    jitter: tuple[tuple[str, float], ...]
    seed: int
    algorithm: str = "cursor"
    sweep_per_second: int = 200


@dataclass(frozen=True, slots=True)
class ExpirySimulation:
    """The active expire cycle over a keyspace with TTLs: from `start_ms` (Unix ms: the dump's creation time,
    the scan's start), the keys with a TTL per database (`volatile`: db, keys, bytes), the series of each
    database and the cost per step. No key with a TTL: `volatile`, `series` and `steps` are empty (nothing
    expires). `maxmemory`: the server's limit when the source said it (a scan, a report) or the user gave it,
    None when unknown or unlimited (0)."""

    origin: Location
    start_ms: int
    settings: ExpirySettingsView
    volatile: tuple[tuple[int, int, int], ...] = ()
    series: tuple[ExpiryPoint, ...] = ()
    steps: tuple[ExpiryStep, ...] = ()
    maxmemory: int | None = None


__all__ = [
    "EvictionResult",
    "EvictionSettingsView",
    "EvictionSimulation",
    "ExpiryPoint",
    "ExpirySettingsView",
    "ExpirySimulation",
    "ExpiryStep",
    "NamespaceEvictions",
    "TraceSummary",
]
