"""The parts of a run that jobs read: the engine a job builds where it runs, and what comes back from it.

A `JobSource` (the shards of a cluster) hands out one `PartJob` per part. `run_part` runs one: it opens the
part's source, feeds an engine of its own, and returns the engine's `Partial` with a `PartReport`. It runs
wherever the run's executor puts it (this process, a worker process, a Dask worker), so a `PartTask` holds
everything it needs as values that pickle: the job, and the engine's configuration (`EngineSpec`). Only the
partial and the report travel back; the driver merges the partials in part order.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from rediscipline.engine.libraries import LibraryPolicy
from rediscipline.engine.runner import Engine
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.report import RuleMeta
from rediscipline.model.source import DetailedSource, PartJob, PartReport
from rediscipline.rules.base import ConfiguredRule
from rediscipline.sources.errors import SourceError

if TYPE_CHECKING:
    from rediscipline.api.executors import Executor
    from rediscipline.engine.partial import Partial

T = TypeVar("T")


@dataclass(frozen=True)
class EngineSpec:
    """How every engine of a run is configured: the rules that can be checked, the namespaces and ignores,
    the pattern cap, the summary's probes, the rule catalog (for SUP001) and the library policy."""

    rules: tuple[ConfiguredRule, ...]
    namespaces: tuple[NamespacePolicy, ...]
    key_ignores: Mapping[str, frozenset[str]]
    pattern_cap: int
    summary: bool
    catalog: Mapping[str, RuleMeta]
    enabled: frozenset[str]
    libraries: LibraryPolicy | None

    def engine(self, part: int, *, sharded: bool = False) -> Engine:
        """An engine for part `part` of the run; `sharded`: the part is a cluster's shard (keys per slot)."""
        return Engine(
            self.rules,
            self.namespaces,
            self.key_ignores,
            pattern_cap=self.pattern_cap,
            summary=self.summary,
            catalog=self.catalog,
            enabled=self.enabled,
            part=part,
            libraries=self.libraries,
            cluster=sharded,
        )


@dataclass(frozen=True)
class PartTask:
    """One job of a run, with the engine it feeds: `index` is its place among the source's jobs, `part` the
    part number its engine gets in the run."""

    job: PartJob
    spec: EngineSpec
    index: int
    part: int
    sharded: bool


@dataclass
class PartResult:
    report: PartReport
    partial: Partial | None


def run_part(task: PartTask) -> PartResult:
    """Read one part into an engine of its own; a part whose source fails with a user-facing error (a node
    down, a refused password) is a report with that error, not a failed run."""
    engine = task.spec.engine(task.part, sharded=task.sharded)
    try:
        source = task.job.open()
        interrupted = consume(engine.consume, source.facts(engine.plan))
    except SourceError as error:
        return PartResult(PartReport(task.index, error=str(error)), None)
    report = PartReport(
        task.index,
        keys=engine.keys,
        memory=engine.keyspace.memory_so_far(),
        server=engine.server,
        outcome=source.outcome(),
        interrupted=interrupted,
        detail=source.detail() if isinstance(source, DetailedSource) else (),
    )
    return PartResult(report, engine.partial())


def run_tasks(
    tasks: Sequence[PartTask], executor: Executor | None, done: Callable[[PartReport], None] | None = None
) -> list[PartResult]:
    """Every task's result, in task order; `done` is told of each part as it finishes (progress). Without an
    executor the tasks run here one after another, and a Ctrl-C that stops one leaves the others unread
    (reported as interrupted)."""
    results: list[PartResult | None] = [None] * len(tasks)

    def finished(index: int, result: PartResult) -> None:
        results[index] = result
        if done is not None:
            done(result.report)

    if executor is not None:
        for index, result in executor.map_unordered(run_part, tasks):
            finished(index, result)
    else:
        for task in tasks:
            result = run_part(task)
            finished(task.index, result)
            if result.report.interrupted:
                break
    return [
        result if result is not None else PartResult(PartReport(index, interrupted=True), None)
        for index, result in enumerate(results)
    ]


def consume(take: Callable[[Iterable[T]], None], items: Iterator[T]) -> bool:
    """Hand one source's facts (or runs) to `take`; True when a Ctrl-C stopped them. A Ctrl-C while the
    engine works is thrown into the source: a source that can stop with a partial result (a live scan)
    returns, and any other lets it propagate."""
    try:
        take(items)
    except KeyboardInterrupt:
        throw = getattr(items, "throw", None)
        if throw is None:
            raise
        try:
            first = throw(KeyboardInterrupt())
        except StopIteration:
            return True
        take(itertools.chain((first,), items))
        return True
    return False


__all__ = ["EngineSpec", "PartResult", "PartTask", "consume", "run_part", "run_tasks"]
