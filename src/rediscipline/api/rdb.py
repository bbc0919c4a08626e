"""Audit RDB dumps offline: every rule a dump can show, with the live scan's findings, grouping and report."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rediscipline.api.defaults import baseline_at, settings_for
from rediscipline.api.driver import run
from rediscipline.model.report import Report
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.sources.rdb.jobs import DumpJobs
from rediscipline.sources.rdb.memory import DEFAULT_ALLOCATOR
from rediscipline.sources.rdb.source import ByteProgress, DumpOptions, RdbSource, dump_paths, dump_workers

if TYPE_CHECKING:
    from rediscipline.api.executors import Executor


@dataclass(frozen=True, slots=True)
class RdbScanOptions:
    paths: tuple[str, ...]  # files, or directories of *.rdb files: one report over all of them
    deep: bool = False  # walk every element (largest element of every collection)
    verify: bool = True  # check the CRC-64
    db: int | None = None
    match: str | None = None
    type: str | None = None
    jobs: int | None = None  # worker processes (default: one per CPU, none for small inputs)
    allocator: str = DEFAULT_ALLOCATOR  # for the memory model: jemalloc (official builds), jemalloc16, libc
    baseline: Path | None = None  # hide the findings recorded in this baseline file


def scan_rdb(
    options: RdbScanOptions,
    settings: Settings | None = None,
    *,
    registry: Registry | None = None,
    progress: ByteProgress | None = None,
    executor: Executor | None = None,
) -> Report:
    """Audit one or more dumps (the shards of a cluster, or several nodes) as one keyspace.

    `executor`: read each dump, rules included, as a job there (a process pool, a Dask cluster: see
    `sources.rdb.jobs`). Without one, several dumps are read as jobs on a local pool of `options.jobs`
    workers (default: one per CPU once there is enough to read, `dump_workers`), and a single dump is read
    here, parsed in a worker process when that pays.
    """
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    dump = DumpOptions(
        deep=options.deep,
        verify=options.verify,
        db=options.db,
        match=options.match,
        type=options.type,
        allocator=options.allocator,
    )
    baseline = baseline_at(options.baseline)

    def audit(source: RdbSource, executor: Executor | None) -> Report:
        return run([source], settings, command="scan", registry=registry, baseline=baseline, executor=executor)

    if executor is not None:
        return audit(DumpJobs(options.paths, dump, progress=progress), executor)
    paths = dump_paths(options.paths)
    workers = min(dump_workers(paths, options.jobs), len(paths))
    if workers <= 1:  # one dump (parsed in a worker when that pays, judged here), or everything here
        return audit(RdbSource(paths, dump, jobs=options.jobs, progress=progress), None)
    # Several dumps: each parsed and judged in a worker of a local pool, so that the rules' work spreads over
    # the cores as well (with the rules here, this process was the bottleneck).
    from rediscipline.api.executors import LocalExecutor

    with LocalExecutor(workers) as pool:
        return audit(DumpJobs(paths, dump, progress=progress), pool)
