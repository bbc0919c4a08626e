"""Config files as a source: each redis.conf or ACL file is the ServerFact of a server started from it."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from rediscipline.model.location import SOURCE_CONFIG
from rediscipline.model.note import note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.source import Fact, SourceOutcome
from rediscipline.sources.config import read_config_file


class ConfigSource:
    """`files`: (path, the path as shown in findings, kind) of each file, as `config_kind` recognised it."""

    place = SOURCE_CONFIG
    counts_keys = False

    def __init__(self, files: Sequence[tuple[Path, str, str]]) -> None:
        self.files = tuple(files)
        self.inputs = tuple(shown for _path, shown, _kind in self.files)

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        for path, shown, kind in self.files:
            yield read_config_file(path, shown, kind)

    def outcome(self) -> SourceOutcome:
        return SourceOutcome((note("config-files", files=len(self.files)),) if self.files else ())
