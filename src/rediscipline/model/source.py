"""The Source protocol: every input (key list, code, config file, live server, dump) is a source of facts.

A source reads the run's ProbePlan and yields facts; the driver (`api.driver.run`) hands them to the engine
through one entry, and asks the source afterwards what it learned about the run (`outcome`): the server it
looked at, why its coverage is partial, its notes. Sources never see rules, the engine or the report.

A source whose input comes in parts read at once (the dumps of one scan, parsed side by side by worker
processes; the nodes of a cluster) is a `PartedSource`: it hands out its facts in runs, each run from one
part, and the driver gives each part an engine of its own and merges what they found before the report is
built, so that the report does not depend on how the parts' facts interleaved.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from rediscipline.model.code import CodeCall, FileDirectives
from rediscipline.model.facts import CommandFact, KeyFact, KeyNames, KeySample, UnreadableKey, Vanished
from rediscipline.model.note import Note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.report import ServerSummary
from rediscipline.model.server import ServerFact

#: Everything a source may yield. A ServerFact comes before the keys of that server; FileDirectives (the
#: suppression comments of one file) are kept for the suppression step, which runs after the engine.
Fact = KeyFact | KeyNames | UnreadableKey | Vanished | KeySample | CommandFact | CodeCall | ServerFact | FileDirectives


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


class Source(Protocol):
    """A source of facts for one run.

    * `place`: where its facts are observed, one of the places a rule's `where` names (`keys`, `code`,
      `config`, `live`, `rdb`): the driver runs only rules that can be checked there;
    * `inputs`: what the report's header names (files, a server address without credentials);
    * `counts_keys`: its facts are keys of a keyspace (a key list, a server, dumps), counted and scored, and
      its findings are grouped per rule and key pattern; False for code and config files, whose findings
      are places in files.
    """

    @property
    def place(self) -> str: ...

    @property
    def inputs(self) -> tuple[str, ...]: ...

    @property
    def counts_keys(self) -> bool: ...

    def facts(self, plan: ProbePlan) -> Iterator[Fact]: ...

    def outcome(self) -> SourceOutcome: ...


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


__all__ = ["Fact", "PartRun", "PartedSource", "Source", "SourceOutcome"]
