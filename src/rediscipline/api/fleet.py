"""Audit a fleet: many servers, clusters and dumps at once, each its own report, in one fleet report.

Each target is one job (`scan_target`), run wherever the executor puts it (a process pool by default, a Dask
cluster with `dask://`): it scans its server (its whole cluster, read shard after shard in that worker) or
its dumps, builds its report there, and only the report travels back. A target that cannot be read (a
server down, a wrong password, a corrupt dump) is a row with its error; the others are reported as usual.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from rediscipline import __version__
from rediscipline.api.defaults import settings_for
from rediscipline.api.executors import Executor
from rediscipline.api.live import ClusterOptions, LiveScanOptions, scan_live
from rediscipline.api.rdb import RdbScanOptions, scan_rdb
from rediscipline.model.fleet import FleetReport, TargetResult, worst_first
from rediscipline.model.report import Report
from rediscipline.settings.inventory import DUMP, Inventory
from rediscipline.settings.layering import Settings
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.cluster_nodes import PREFER_MASTERS
from rediscipline.sources.live.url import parse_address


@dataclass(frozen=True)
class FleetTarget:
    """One target: a live server or cluster (`live`, with how a cluster is read) or dumps (`dumps`)."""

    name: str
    tags: tuple[tuple[str, str], ...] = ()
    live: LiveScanOptions | None = None
    cluster: ClusterOptions | None = None
    dumps: RdbScanOptions | None = None


@dataclass(frozen=True)
class _TargetTask:
    target: FleetTarget
    settings: Settings


def scan_target(task: _TargetTask) -> TargetResult:
    """Scan one target into its report; a user-facing error is the target's row, not a failed run."""
    target, settings = task.target, task.settings
    inputs: tuple[str, ...] = ()
    try:
        inputs = _inputs(target)
        report = _scan(target, settings)
    except SourceError as error:
        return TargetResult(target.name, target.tags, inputs, error=str(error))
    return TargetResult(target.name, target.tags, report.run.inputs, report=report)


def _inputs(target: FleetTarget) -> tuple[str, ...]:
    """What the target reads, without credentials (a URL that does not parse fails here, with its line)."""
    if target.dumps is not None:
        return target.dumps.paths
    live = target.live or LiveScanOptions()
    return (parse_address(live.url, username=live.user, password_env=live.password_env).display,)


def _scan(target: FleetTarget, settings: Settings) -> Report:
    if target.dumps is not None:
        return scan_rdb(target.dumps, settings)
    return scan_live(target.live or LiveScanOptions(), settings, cluster=target.cluster)


def targets_from_inventory(inventory: Inventory) -> list[FleetTarget]:
    """The fleet's targets, in the inventory's order, with their options (checked by `load_inventory`)."""
    targets = []
    for entry in inventory.targets:
        options = dict(entry.options)
        if entry.kind == DUMP:
            dumps = RdbScanOptions(paths=entry.paths, **options)  # type: ignore[arg-type]
            targets.append(FleetTarget(entry.name, entry.tags, dumps=dumps))
            continue
        cluster = ClusterOptions(
            cluster=options.pop("cluster", None),  # type: ignore[arg-type]
            prefer=str(options.pop("prefer", PREFER_MASTERS)),
            address_map=tuple(options.pop("map", ())),  # type: ignore[arg-type]
        )
        live = LiveScanOptions(url=entry.url, **options)  # type: ignore[arg-type]
        targets.append(FleetTarget(entry.name, entry.tags, live=live, cluster=cluster))
    return targets


def scan_fleet(
    targets: Sequence[FleetTarget],
    settings: Settings | None = None,
    *,
    executor: Executor | None = None,
    command: str = "fleet",
) -> FleetReport:
    """Scan every target (at once, on `executor`; here one after another without one) into a fleet report."""
    settings = settings or settings_for()
    started = time.perf_counter()
    tasks = [_TargetTask(target, settings) for target in targets]
    results: list[TargetResult | None] = [None] * len(tasks)
    if executor is None:
        results = [scan_target(task) for task in tasks]
    else:
        for index, result in executor.map_unordered(scan_target, tasks):
            results[index] = result
    done = [result for result in results if result is not None]
    return FleetReport(
        worst_first(done),
        tool_version=__version__,
        command=command,
        preset=settings.preset,
        elapsed_seconds=round(time.perf_counter() - started, 3),
    )


__all__ = ["FleetTarget", "scan_fleet", "scan_target", "targets_from_inventory"]
