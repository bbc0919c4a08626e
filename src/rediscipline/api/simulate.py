"""What-if simulations (`sources.simulation`, `simulate`): an access trace replayed through a server's eviction
for each policy and size, judged by the simulation rules; dumps' keys with a TTL followed through the active
expire cycle."""

from __future__ import annotations

from pathlib import Path

from rediscipline.api.defaults import baseline_at, settings_for
from rediscipline.api.driver import run
from rediscipline.model.report import Report
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.simulate.eviction import POLICIES
from rediscipline.sources.simulation.eviction_source import EvictionOptions, EvictionSource
from rediscipline.sources.simulation.expiry_source import ExpiryOptions, ExpirySource

__all__ = ["POLICIES", "EvictionOptions", "ExpiryOptions", "simulate_eviction", "simulate_expiry"]


def simulate_eviction(
    options: EvictionOptions,
    settings: Settings | None = None,
    *,
    registry: Registry | None = None,
    baseline: Path | None = None,
) -> Report:
    """Replay the trace `options.trace` names for every policy and `maxmemory` of `options`, and report on it.
    `baseline`: hide the findings recorded in this file."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    source = EvictionSource(options)
    return run([source], settings, command="simulate eviction", registry=registry, baseline=baseline_at(baseline))


def simulate_expiry(
    options: ExpiryOptions,
    settings: Settings | None = None,
    *,
    registry: Registry | None = None,
    baseline: Path | None = None,
) -> Report:
    """Follow the keys with a TTL of the dumps `options.inputs` names through the active expire cycle, and
    report on it. `baseline`: hide the findings recorded in this file."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    source = ExpirySource(options)
    return run([source], settings, command="simulate expiry", registry=registry, baseline=baseline_at(baseline))
