"""The JSON report's `simulation` object: `simulation.eviction` holds the trace replayed, the settings every
replay shared and `results`, one `{policy, maxmemory, hit_ratio, ...}` per replay (docs/json-report.md)."""

from __future__ import annotations

from typing import Any

from rediscipline.model.display import QUOTE_LIMIT, cut_text
from rediscipline.model.simulation import EvictionResult, EvictionSimulation, ExpirySimulation
from rediscipline.render.names import LongNames, name_fields

#: Digits kept of a hit ratio (a replay's result, not an exact value).
DIGITS = 6


def simulation_object(
    evictions: tuple[EvictionSimulation, ...], expiries: tuple[ExpirySimulation, ...], long_names: LongNames
) -> dict[str, Any]:
    """`{"eviction": ...}` and/or `{"expiry": ...}`: the run's simulation (a run simulates one input)."""
    found: dict[str, Any] = {}
    if evictions:
        found["eviction"] = _eviction(evictions[0], long_names)
    if expiries:
        found["expiry"] = _expiry(expiries[0])
    return found


def _expiry(simulation: ExpirySimulation) -> dict[str, Any]:
    settings = simulation.settings
    return {
        "path": None if simulation.origin.path is None else cut_text(simulation.origin.path),
        "start_ms": simulation.start_ms,
        "maxmemory": simulation.maxmemory,
        "settings": {
            "algorithm": settings.algorithm,
            "sweep_per_second": settings.sweep_per_second,
            "hz": settings.hz,
            "active_expire_effort": settings.effort,
            "lazyfree_lazy_expire": settings.lazyfree,
            "sample_us": settings.sample_us,
            "delete_us": settings.delete_us,
            "delete_us_per_kb": settings.delete_us_per_kb,
            "seconds": settings.seconds,
            "step": settings.step,
            "jitter": [
                {"pattern": cut_text(pattern, QUOTE_LIMIT), "share": share} for pattern, share in settings.jitter
            ],
            "seed": settings.seed,
        },
        "volatile": [{"db": db, "keys": keys, "bytes": size} for db, keys, size in simulation.volatile],
        "series": [
            {
                "db": point.db,
                "t": point.t,
                "expired_in_memory": point.expired_in_memory,
                "expired_in_memory_bytes": point.expired_in_memory_bytes,
                "reclaimed": point.reclaimed,
            }
            for point in simulation.series
        ],
        "steps": [
            {
                "t": step.t,
                "cpu_share": round(step.cpu_share, DIGITS),
                "time_limit_hits": step.time_limit_hits,
                "longest_cycle_us": round(step.longest_cycle_us, 1),
            }
            for step in simulation.steps
        ],
    }


def _eviction(simulation: EvictionSimulation, long_names: LongNames) -> dict[str, Any]:
    trace, settings = simulation.trace, simulation.settings
    return {
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
