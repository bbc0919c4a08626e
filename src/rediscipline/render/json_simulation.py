"""The JSON report's `simulation` object: `simulation.eviction` holds the trace replayed, the settings every
replay shared and `results`, one `{policy, maxmemory, hit_ratio, ...}` per replay (docs/json-report.md)."""

from __future__ import annotations

from typing import Any

from rediscipline.model.display import cut_text
from rediscipline.model.simulation import EvictionResult, EvictionSimulation
from rediscipline.render.names import LongNames, name_fields

#: Digits kept of a hit ratio (a replay's result, not an exact value).
DIGITS = 6


def simulation_object(evictions: tuple[EvictionSimulation, ...], long_names: LongNames) -> dict[str, Any]:
    """`{"eviction": ...}` for the run's eviction simulation (a run replays one trace)."""
    simulation = evictions[0]
    trace, settings = simulation.trace, simulation.settings
    return {
        "eviction": {
            "trace": {
                "path": None if simulation.origin.path is None else cut_text(simulation.origin.path),
                "format": trace.format,
                "accesses": trace.accesses,
                "keys": trace.keys,
                "span_ms": trace.span_ms,
                "timed": trace.timed,
                "volatile_accesses": trace.volatile_accesses,
                "working_set": trace.working_set,
            },
            "settings": {
                "memory_model": settings.memory_model,
                "baseline": settings.baseline,
                "maxmemory_samples": settings.samples,
                "lfu_log_factor": settings.log_factor,
                "lfu_decay_time": settings.decay_time,
                "hz": settings.hz,
                "seed": settings.seed,
                "default_size": settings.default_size,
                "configured_policy": settings.configured_policy,
            },
            "results": [_result(result, long_names) for result in simulation.results],
        }
    }


def _result(result: EvictionResult, long_names: LongNames) -> dict[str, Any]:
    return {
        "policy": result.policy,
        "maxmemory": result.maxmemory,
        "hit_ratio": round(result.hit_ratio, DIGITS),
        "hits": result.hits,
        "misses": result.misses,
        "evicted_keys": result.evicted_keys,
        "evicted_bytes": result.evicted_bytes,
        "oom_errors": result.oom_errors,
        "peak_memory": result.peak_memory,
        "keys_at_end": result.keys_at_end,
        "namespaces": [
            {**name_fields("pattern", n.pattern, long_names), "keys": n.keys, "bytes": n.bytes}
            for n in result.namespaces
        ],
    }


__all__ = ["simulation_object"]
