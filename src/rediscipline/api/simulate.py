"""What-if simulations (`sources.simulation`, `simulate`): an access trace replayed through a server's eviction
for each policy and size, judged by the simulation rules; the keys with a TTL of dumps, of a report or of a
live server followed through the active expire cycle, judged by the expiry rules."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rediscipline.api.defaults import baseline_at, settings_for
from rediscipline.api.driver import run
from rediscipline.model.report import Report
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.simulate.eviction import POLICIES
from rediscipline.sources.simulation.eviction_source import EvictionOptions, EvictionSource
from rediscipline.sources.simulation.expiry_source import ExpiryOptions, ExpirySource

if TYPE_CHECKING:  # the live scan's modules load only when a server is simulated
    from rediscipline.sources.live.scanner import Progress
    from rediscipline.sources.live.source import LiveScanOptions

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
    live: LiveScanOptions | None = None,
    progress: Progress | None = None,
) -> Report:
    """Follow the keys with a TTL of the dumps or the JSON report `options.inputs` names, or of the server
    `live` names, through the active expire cycle, and report on it. A server is scanned first as
    `rediscipline scan` does (TTLs and memory read for the keyspace summary; a cluster node as its cluster,
    `progress` told as it goes), and its report read as a JSON report is. `baseline`: hide the findings
    recorded in this file."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    if live is not None:
        from rediscipline.api.live import scan_live  # redis-py loads only for a live server
        from rediscipline.render.json_output import report_to_dict

        document = report_to_dict(scan_live(live, settings, registry=registry, summary=True, progress=progress))
        options = replace(options, inputs=(str(document["server"]["address"]),), report=document)
    source = ExpirySource(options)
    return run([source], settings, command="simulate expiry", registry=registry, baseline=baseline_at(baseline))
