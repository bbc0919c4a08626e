"""The guard's record as a source of a run: the driver merges what the guard's engine recorded as one part
and builds the usual report from it (suppressions, baseline, test code, every renderer)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rediscipline.model.location import SOURCE_RUNTIME
from rediscipline.model.note import Note, note
from rediscipline.model.source import SourceOutcome

if TYPE_CHECKING:
    from rediscipline.guard.collector import Collector


class RuntimeSource:
    """A `JudgedSource` over a collector (read while the application goes on: a snapshot)."""

    place = SOURCE_RUNTIME
    counts_keys = False

    def __init__(self, collector: Collector) -> None:
        self._collector = collector

    @property
    def inputs(self) -> tuple[str, ...]:
        return tuple(self._collector.clients)

    def judged(self) -> object:
        return self._collector.judge.snapshot()

    def outcome(self) -> SourceOutcome:
        collector = self._collector
        notes: list[Note] = [note("guard-commands", commands=collector.commands)]
        for name, times in sorted(collector.fixed.times.items()):
            site = collector.fixed.sites[name]
            notes.append(note("guard-fixed", fix=name, times=times, site=f"{site.path}:{site.line}"))
        return SourceOutcome(tuple(notes))
