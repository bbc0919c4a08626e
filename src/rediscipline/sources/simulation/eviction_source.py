"""An access trace replayed through a server's eviction for every policy and `maxmemory` asked: the source of
`rediscipline simulate eviction`.

It reads the trace once (`traces`), then replays it once per size and policy (`simulate.eviction`), and yields
one `EvictionSimulation`. Without sizes, the sizes are a curve: a tenth of the trace's working set (the
memory every key it reads takes at once) to all of it, in ten steps, which answers "how much memory for a
95 % hit ratio". The keys each replay evicted are counted under their key patterns.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from rediscipline.model.display import PATH_LIMIT, display_bytes
from rediscipline.model.keyname import render_parts
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.location import SOURCE_SIMULATION, Location
from rediscipline.model.note import note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.simulation import (
    EvictionResult,
    EvictionSettingsView,
    EvictionSimulation,
    NamespaceEvictions,
    TraceSummary,
)
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.simulate.eviction import (
    DEFAULT_DECAY_TIME,
    DEFAULT_HZ,
    DEFAULT_LOG_FACTOR,
    DEFAULT_SAMPLES,
    POLICIES,
    EvictionSettings,
    Outcome,
    Trace,
    replay,
)
from rediscipline.simulate.memory import DEFAULT_ALLOCATOR, DEFAULT_SERVER, MemoryModel, model_for
from rediscipline.sources.errors import SourceError
from rediscipline.sources.simulation.traces import DEFAULT_RATE, DEFAULT_SIZE, LoadedTrace, load_trace
from rediscipline.sources.traffic.trace import TraceHeader

#: The policies replayed when none is asked: those that need no TTL.
DEFAULT_POLICIES = ("allkeys-lru", "allkeys-lfu", "allkeys-random")
#: Sizes replayed when none is asked: these shares of the working set.
CURVE_STEPS = tuple(step / 10 for step in range(1, 11))
#: Key patterns listed per replay, by bytes evicted.
NAMESPACES_KEPT = 10


@dataclass(frozen=True, slots=True)
class EvictionOptions:
    trace: Path
    policies: tuple[str, ...] = DEFAULT_POLICIES
    maxmemory: tuple[int, ...] = ()  # bytes, the server's setting; empty: the curve
    samples: int = DEFAULT_SAMPLES
    log_factor: int = DEFAULT_LOG_FACTOR
    decay_time: int = DEFAULT_DECAY_TIME
    hz: int = DEFAULT_HZ
    seed: int = 0
    default_size: int = DEFAULT_SIZE
    rate: int = DEFAULT_RATE
    baseline: int | None = None  # the server's used_memory with no key; None: the model's
    server: str | None = None  # the flavor and version whose memory is counted; None: the trace's, else the default
    allocator: str | None = None  # None: the trace's, else the default
    configured_policy: str | None = None


class EvictionSource:
    """One trace, replayed for every policy and size of `options` (see the module docstring)."""

    place = SOURCE_SIMULATION
    counts_keys = False

    def __init__(self, options: EvictionOptions) -> None:
        asked = (*options.policies, *((options.configured_policy,) if options.configured_policy else ()))
        unknown = [policy for policy in asked if policy not in POLICIES]
        if unknown:
            raise SourceError(f"unknown eviction policy {unknown[0]!r}: one of {', '.join(POLICIES)}")
        if options.configured_policy and options.configured_policy not in options.policies:
            options = replace(options, policies=(options.configured_policy, *options.policies))  # what it is judged by
        try:
            model_for(options.server or DEFAULT_SERVER, options.allocator or DEFAULT_ALLOCATOR)
        except ValueError as error:
            raise SourceError(str(error)) from None
        self.options = options
        self.inputs = (display_bytes(os.fsencode(options.trace), PATH_LIMIT),)
        self._outcome = SourceOutcome()

    def outcome(self) -> SourceOutcome:
        return self._outcome

    def _model(self, header: TraceHeader) -> MemoryModel:
        """The memory model: the server and allocator asked for, else those the trace's header names, else the
        defaults (Redis 7.0, jemalloc16)."""
        options = self.options
        server = options.server or header.server or DEFAULT_SERVER
        allocator = options.allocator or header.allocator or DEFAULT_ALLOCATOR
        try:
            return model_for(server, allocator, options.baseline)
        except ValueError as error:
            raise SourceError(f"{self.inputs[0]}: its header: {error}") from None

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        del plan  # the simulation is the same whatever the rules
        options = self.options
        loaded = load_trace(options.trace, default_size=options.default_size, rate=options.rate)
        trace = loaded.trace
        if not len(trace):
            raise SourceError(f"{self.inputs[0]}: the trace holds no key access")
        model = self._model(loaded.header)
        costs = key_costs(trace, model)
        working = working_set(trace, model, costs)
        smallest = model.baseline + model.table_bytes(model.table_buckets(1)) + min(costs.values())
        sizes = options.maxmemory or _curve(model, working, smallest)
        too_small = [size for size in sizes if size < smallest]
        if too_small:
            raise SourceError(
                f"--maxmemory {too_small[0]:,} bytes is below what one key of this trace takes on {model.name}: "
                f"{smallest:,} bytes (the server's {model.baseline:,} with no key, the key and its dict's first array)"
            )
        patterns: dict[int, bytes] = {}
        results = []
        for size in sizes:
            for policy in options.policies:
                settings = EvictionSettings(policy, size, options.samples, options.log_factor, options.decay_time,
                                            options.hz, model, options.seed)  # fmt: skip
                results.append(_result(settings, replay(trace, settings), trace, costs, patterns))
        summary = _summary(loaded, working)
        view = EvictionSettingsView(model.name, model.baseline, options.samples, options.log_factor,
                                    options.decay_time, options.hz, options.seed, options.default_size,
                                    options.configured_policy)  # fmt: skip
        notes = []
        if not summary.timed:
            notes.append(note("simulation-untimed", rate=options.rate))
        if summary.volatile_accesses == 0 and any(p.startswith("volatile-") for p in options.policies):
            notes.append(note("simulation-no-ttl"))
        self._outcome = SourceOutcome(tuple(notes))
        yield EvictionSimulation(Location(SOURCE_SIMULATION, self.inputs[0]), summary, view, tuple(results))


def key_costs(trace: Trace, model: MemoryModel) -> dict[int, int]:
    """What each key of the trace takes held (key number → bytes), at the largest size it is read with, with
    its TTL's entry when an access gives it one."""
    largest: dict[int, int] = {}
    volatile: set[int] = set()
    for number, size, ttl in zip(trace.keys, trace.sizes, trace.ttls, strict=True):
        if size > largest.get(number, -1):
            largest[number] = size
        if ttl > 0:
            volatile.add(number)
    return {
        number: model.key_bytes(len(trace.names[number]), size, number in volatile) for number, size in largest.items()
    }


def working_set(trace: Trace, model: MemoryModel, costs: dict[int, int] | None = None) -> int:
    """`used_memory` with every key of the trace held at once (`costs`: `key_costs`, computed when not given):
    the baseline, the keys, and each database's dicts of keys and of keys with a TTL."""
    costs = key_costs(trace, model) if costs is None else costs
    keys = Counter(trace.dbs[index] for index in _first_access(trace))
    volatile = Counter(db for _number, db in _volatile_keys(trace))
    tables = sum(model.table_bytes(model.table_buckets(count)) for count in (*keys.values(), *volatile.values()))
    return model.baseline + tables + sum(costs.values())


def _volatile_keys(trace: Trace) -> set[tuple[int, int]]:
    """The keys (number, database) an access gives a TTL."""
    return {(number, db) for number, db, ttl in zip(trace.keys, trace.dbs, trace.ttls, strict=True) if ttl > 0}


def _first_access(trace: Trace) -> Iterator[int]:
    seen: set[int] = set()
    for index, number in enumerate(trace.keys):
        if number not in seen:
            seen.add(number)
            yield index


def _curve(model: MemoryModel, working: int, smallest: int) -> tuple[int, ...]:
    """The sizes replayed when none is asked: shares of the working set (`CURVE_STEPS`), those that hold at
    least one key (`smallest`); the whole working set when none does."""
    data = working - model.baseline
    sizes = (model.baseline + round(data * step) for step in CURVE_STEPS)
    return tuple(dict.fromkeys(size for size in sizes if size >= smallest)) or (working,)


def _result(
    settings: EvictionSettings, outcome: Outcome, trace: Trace, costs: dict[int, int], patterns: dict[int, bytes]
) -> EvictionResult:
    """One replay's result, its evictions counted under the keys' patterns (each at the key's cost)."""
    keys: Counter[bytes] = Counter()
    size: Counter[bytes] = Counter()
    for number, times in outcome.evicted.items():
        pattern = patterns.get(number)
        if pattern is None:
            pattern = patterns[number] = render_parts(infer_parts(trace.names[number]))
        keys[pattern] += times
        size[pattern] += times * costs[number]
    namespaces = tuple(
        NamespaceEvictions(pattern, keys[pattern], total)
        for pattern, total in sorted(size.items(), key=lambda item: (-item[1], item[0]))[:NAMESPACES_KEPT]
    )
    return EvictionResult(
        policy=settings.policy,
        maxmemory=settings.maxmemory,
        hits=outcome.hits,
        misses=outcome.misses,
        evicted_keys=outcome.evicted_keys,
        evicted_bytes=outcome.evicted_bytes,
        oom_errors=outcome.oom_errors,
        peak_memory=outcome.peak_memory,
        keys_at_end=outcome.keys_at_end,
        namespaces=namespaces,
    )


def _summary(loaded: LoadedTrace, working: int) -> TraceSummary:
    trace = loaded.trace
    span = trace.times[-1] - trace.times[0] if loaded.timed else 0
    volatile = sum(1 for ttl in trace.ttls if ttl > 0)
    return TraceSummary(loaded.format, len(trace), len(trace.names), span, volatile, working, loaded.timed)
