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
from rediscipline.model.source import JobSource, Source
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.sources.live.cluster_source import ClusterOptions, open_live
from rediscipline.sources.live.scanner import Progress
from rediscipline.sources.live.source import LiveScanOptions
from rediscipline.sources.traffic.cluster import open_traffic
from rediscipline.sources.traffic.queues import declared_queues
from rediscipline.sources.traffic.source import TrafficOptions

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
    traffic: float | None = None,
) -> Report:
    """Scan one server, or the whole cluster it is a node of (`cluster`: how; by default a cluster node is
    detected and its cluster scanned). `summary`: probe what the full keyspace summary needs (TYPE, PTTL,
    MEMORY USAGE and lengths) even when no enabled rule needs it; `baseline`: hide the findings recorded in
    this file; `executor`: where the shards of a cluster are read (default: here, one after another);
    `traffic`: then observe what the server (every master of its cluster) is sent for that many seconds, as
    `rediscipline traffic` does, into the same report."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    sources: list[Source | JobSource] = [open_live(options, cluster, progress)]
    if traffic is not None:
        observed = TrafficOptions(
            url=options.url,
            user=options.user,
            password_env=options.password_env,
            duration=traffic,
            timeout=options.timeout,
            queues=declared_queues(settings.namespaces),
        )
        sources.append(open_traffic(observed))
    known = baseline_at(baseline)
    return run(sources, settings, command="scan", registry=registry, baseline=known, summary=summary, executor=executor)
