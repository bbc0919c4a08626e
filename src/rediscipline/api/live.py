"""Audit a live instance: the options of a scan, and the source that reads them (`sources.live.source`).

Ctrl-C (KeyboardInterrupt) stops the scan and returns the partial report, and so does a server that stays
unreachable after a lost connection (`ServerSummary.stopped` says why).
"""

from __future__ import annotations

from pathlib import Path

from rediscipline.api.defaults import baseline_at, settings_for
from rediscipline.api.driver import run
from rediscipline.api.executors import Executor
from rediscipline.model.report import Report
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.sources.live.cluster_source import ClusterOptions, open_live
from rediscipline.sources.live.scanner import Progress
from rediscipline.sources.live.source import LiveScanOptions

__all__ = ["ClusterOptions", "LiveScanOptions", "scan_live"]


def scan_live(
    options: LiveScanOptions,
    settings: Settings | None = None,
    *,
    registry: Registry | None = None,
    progress: Progress | None = None,
    summary: bool = False,
    baseline: Path | None = None,
    cluster: ClusterOptions | None = None,
    executor: Executor | None = None,
) -> Report:
    """Scan one server, or the whole cluster it is a node of (`cluster`: how; by default a cluster node is
    detected and its cluster scanned). `summary`: probe what the full keyspace summary needs (TYPE, PTTL,
    MEMORY USAGE and lengths) even when no enabled rule needs it; `baseline`: hide the findings recorded in
    this file; `executor`: where the shards of a cluster are read (default: here, one after another)."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    source = open_live(options, cluster, progress)
    known = baseline_at(baseline)
    return run(
        [source], settings, command="scan", registry=registry, baseline=known, summary=summary, executor=executor
    )
