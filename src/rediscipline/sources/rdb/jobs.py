"""Dumps read as jobs: each dump parsed and judged where the run's executor puts it (a worker process, a
Dask worker), with an engine of its own there; only what the engine found and the dump's summary come back.

`RdbSource` parses dumps in worker processes and runs the rules in the caller's process; `DumpJobs` moves the
rules to the workers too, which is what a run on a Dask cluster needs (the dump paths must be readable at the
same path on every worker). Both give the same report.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from rediscipline.model.plan import ProbePlan
from rediscipline.model.source import Fact, PartReport
from rediscipline.sources.errors import SourceError
from rediscipline.sources.rdb.source import DumpOptions, DumpSummary, RdbSource


@dataclass(frozen=True)
class DumpJob:
    """One dump, read in this process by whoever runs the job."""

    path: str
    options: DumpOptions

    def open(self) -> RdbSource:
        return RdbSource((self.path,), self.options, jobs=1)


class DumpJobs(RdbSource):
    """The dumps of `RdbSource`, one job each (see the module docstring)."""

    sharded = False

    def jobs(self, plan: ProbePlan) -> Sequence[DumpJob]:
        options = replace(self.options, head="head" in plan.key_fields)
        self._done_bytes = 0
        return [DumpJob(path, options) for path in self.paths]

    def part_done(self, part: PartReport) -> None:
        """Progress in bytes: those of the dumps read so far, of all of them."""
        self._done_bytes += sum(s.size for s in part.detail if isinstance(s, DumpSummary))
        if self.progress is not None:
            self.progress(self._done_bytes, sum(os.path.getsize(path) for path in self.paths))

    def settle(self, parts: Sequence[PartReport]) -> Iterator[Fact]:
        """Collect each dump's summary, for the report's header and notes; no fact of its own."""
        summaries: list[DumpSummary] = []
        for part in parts:
            if part.error is not None:  # a corrupt dump fails the run, as when read here
                raise SourceError(part.error)
            summaries += [s for s in part.detail if isinstance(s, DumpSummary)]
        self.summaries = summaries
        return iter(())


__all__ = ["DumpJob", "DumpJobs"]
