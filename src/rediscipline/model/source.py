"""The Source protocol: every input (key list, code, config file, live server, dump) is a source of facts.

A source reads the run's ProbePlan and yields facts; the driver (`api.driver.run`) hands them to the engine
through one entry, and asks the source afterwards what it learned about the run (`outcome`): the server it
looked at, why its coverage is partial, its notes. Sources never see rules, the engine or the report.

A source whose input comes in parts read at once (the dumps of one scan, parsed side by side by worker
processes; the nodes of a cluster) is a `PartedSource`: it hands out its facts in runs, each run from one
part, and the driver gives each part an engine of its own and merges what they found before the report is
built, so that the report does not depend on how the parts' facts interleaved. A `JobSource` goes further:
each part is a job that runs where the run's executor puts it (a worker process, a Dask worker) with an
engine of its own there, and only what that engine found comes back.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rediscipline.model.cluster import ClusterView
from rediscipline.model.code import CodeCall, FileDirectives
from rediscipline.model.facts import CommandFact, KeyFact, KeyNames, KeySample, UnreadableKey, Vanished
from rediscipline.model.note import Note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.report import ServerSummary
from rediscipline.model.server import ServerFact
from rediscipline.model.simulation import EvictionSimulation, ExpirySimulation
from rediscipline.model.traffic import TrafficView

#: Everything a source may yield. A ServerFact comes before the keys of that server; FileDirectives (the
#: suppression comments of one file) are kept for the suppression step, which runs after the engine.
Fact = (
    KeyFact
    | KeyNames
    | UnreadableKey
    | Vanished
    | KeySample
    | CommandFact
    | CodeCall
    | ServerFact
    | FileDirectives
    | ClusterView
    | TrafficView
    | EvictionSimulation
    | ExpirySimulation
)


@dataclass(frozen=True, slots=True)
class SourceOutcome:
    """What a source learned about the run while it yielded its facts (read after the last one).

    * `notes`: remarks about its coverage (refused probes, an interrupted scan, files that did not parse);
    * `server`: the instance or dumps it read, for the report's header (None for code and key lists);
    * `memory_model`: how memory figures were estimated, when they were (dumps); None when measured.
    """

    notes: tuple[Note, ...] = ()
    server: ServerSummary | None = None
    memory_model: str | None = None


class Described(Protocol):
    """What the driver asks of every source, whatever way it hands out its facts.

    * `place`: where its facts are observed, one of the places a rule's `where` names (`keys`, `code`,
      `config`, `live`, `rdb`): the driver runs only rules that can be checked there;
    * `inputs`: what the report's header names (files, a server address without credentials);
    * `counts_keys`: its facts are keys of a keyspace (a key list, a server, dumps), counted and scored, and
      its findings are grouped per rule and key pattern; False for code and config files, whose findings
      are places in files;
    * `outcome()`, after its facts: its notes, the server it read, its memory model.
    """

    @property
    def place(self) -> str: ...

    @property
    def inputs(self) -> tuple[str, ...]: ...

    @property
    def counts_keys(self) -> bool: ...

    def outcome(self) -> SourceOutcome: ...


class Source(Described, Protocol):
    """A source of facts for one run (see `Described`), read in this process."""

    def facts(self, plan: ProbePlan) -> Iterator[Fact]: ...


#: A run of facts of one part: (the part's index in the source, the facts). Runs of one part come in order.
PartRun = tuple[int, Iterable[Fact]]


@runtime_checkable
class PartedSource(Source, Protocol):
    """A source of several parts read at once (see the module docstring).

    `runs(plan)` yields its facts as runs of one part each, in whatever order the parts produce them; the
    facts of one part, taken in order over its runs, are what a source of that part alone would yield.
    `facts(plan)` still yields every fact, as one stream.
    """

    def runs(self, plan: ProbePlan) -> Iterator[PartRun]: ...


@dataclass(frozen=True, slots=True)
class PartReport:
    """What the run learned of one part of a `JobSource`, besides what its engine found.

    `keys` and `memory` are what its engine counted (memory None when not measured), `server` the instance it
    read, `outcome` its source's outcome; `error` the one line that ended it before it was read (then the
    rest is empty); `interrupted`: a Ctrl-C stopped it, or it never started because of one; `detail` what
    the part's source says about itself for its JobSource to combine (`DetailedSource.detail`).
    """

    index: int
    keys: int = 0
    memory: int | None = None
    server: ServerFact | None = None
    outcome: SourceOutcome | None = None
    error: str | None = None
    interrupted: bool = False
    detail: tuple[object, ...] = ()


@runtime_checkable
class DetailedSource(Protocol):
    """A source with something to say about what it read beyond its outcome (a dump's summary), which the
    JobSource of its part combines with the other parts' (values that pickle)."""

    def detail(self) -> tuple[object, ...]: ...


class PartJob(Protocol):
    """The work of one part, as a value that travels to a worker process or a Dask worker (it pickles):
    `open` makes the Source of that part there."""

    def open(self) -> Source: ...


@runtime_checkable
class JobSource(Described, Protocol):
    """A source of several parts, each read by a `PartJob` wherever the run's executor runs it (this process,
    a process pool, a Dask cluster): the nodes of a cluster. Each part has an engine of its own, in the
    worker; only what it found travels back and is merged, in part order.

    `jobs(plan)` is asked once, before any part is read; `settle(parts)` once every part was read (the
    reports in job order), and yields the facts the run's own engine takes besides the merged parts (the
    cluster's view). `outcome()` is asked after `settle`.
    """

    #: The engines of its parts count keys per hash slot (the parts are a cluster's shards).
    @property
    def sharded(self) -> bool: ...

    def jobs(self, plan: ProbePlan) -> Sequence[PartJob]: ...

    def part_done(self, part: PartReport) -> None:
        """One part was read (in the order parts finish): the source may show progress."""

    def settle(self, parts: Sequence[PartReport]) -> Iterator[Fact]: ...


@runtime_checkable
class JudgedSource(Described, Protocol):
    """A source that judged its facts as they came (the runtime guard, which must answer before each command
    is sent): it hands the run what its own engine recorded, as one part (an `engine.partial.Partial`, typed
    here as an object: the model does not know the engine), which the driver merges like a job's part."""

    def judged(self) -> object: ...


__all__ = [
    "Described",
    "DetailedSource",
    "Fact",
    "JobSource",
    "JudgedSource",
    "PartJob",
    "PartReport",
    "PartRun",
    "PartedSource",
    "Source",
    "SourceOutcome",
]
