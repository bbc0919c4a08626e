"""Dumps as a source of key facts: filters, the memory model, and a summary of each file.

`read_dump` walks one file in this process. `dump_runs` walks them all, in worker processes (one per file,
at most `jobs` at once) when there is enough to parse to pay for starting them, and hands their facts to the
caller's process, where the engines run, as runs of one dump each. `RdbSource` is the (parted) Source of a
run over dumps: each dump is a part with an engine of its own, and what the engines found is merged.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from rediscipline import compiled
from rediscipline.model.glob import GlobMatcher
from rediscipline.model.location import SOURCE_RDB
from rediscipline.model.note import Note, note
from rediscipline.model.plan import ProbePlan
from rediscipline.model.report import ServerSummary
from rediscipline.model.source import Fact, PartRun, SourceOutcome
from rediscipline.sources.errors import SourceError
from rediscipline.sources.rdb.memory import DEFAULT_ALLOCATOR, model_for
from rediscipline.sources.rdb.parser import WALK, RdbFile, open_rdb
from rediscipline.sources.rdb.records import RdbHeader, RdbKey

#: (bytes done, bytes in total) over every file of the run.
ByteProgress = Callable[[int, int], None]
#: Below this many bytes in all, parsing in this process beats starting workers (about 0.4 s each).
PARALLEL_FROM = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class DumpOptions:
    """What to read from each dump, and which keys to keep."""

    deep: bool = False
    verify: bool = True
    head: bool = True
    db: int | None = None
    match: str | None = None  # a Redis glob on key names
    type: str | None = None
    allocator: str = DEFAULT_ALLOCATOR  # the memory model's allocator: a dump does not say which one the server used


@dataclass(slots=True)
class DumpSummary:
    """What a dump says about itself, for the report header and notes."""

    path: str
    label: str = ""  # REDIS0011, VALKEY080
    flavor: str = "redis"
    version: str = "?"
    size: int = 0
    used_memory: int | None = None
    ctime: int | None = None
    checksum: str = "not checked"
    envelope: str | None = None
    memory_model: str = ""
    keys_by_db: dict[int, int] = field(default_factory=dict)
    expired: int = 0
    functions: int = 0
    modules: tuple[str, ...] = ()


def dump_paths(inputs: Sequence[str]) -> list[str]:
    """Files to read: each input itself, or the `*.rdb` files of a directory (sorted)."""
    paths: list[str] = []
    for given in inputs:
        path = Path(given)
        if path.is_dir():
            found = sorted(str(p) for p in path.iterdir() if p.suffix == ".rdb" and p.is_file())
            if not found:
                raise SourceError(f"{given}: directory holds no *.rdb files")
            paths.extend(found)
        elif path.exists():
            paths.append(given)
        else:
            raise SourceError(f"{given}: no such file or directory")
    return paths


def read_dump(
    path: str, options: DumpOptions, summary: DumpSummary, progress: Callable[[int], None] | None = None
) -> Iterator[RdbKey]:
    """The facts of one dump, filtered, with memory estimated; fills `summary` as it goes. The file is opened
    when the first fact is asked for. With the compiled core its twin of the loop below reads the dump
    (`_walk.dump_facts`), with no layer of Python per key."""
    reading = DumpReading(path, options, summary, progress)
    fast = compiled.load(WALK)
    return _read(reading) if fast is None else fast.dump_facts(reading)


def _read(reading: DumpReading) -> Iterator[RdbKey]:
    dump = reading.open()
    try:
        options, counts = reading.options, reading.summary.keys_by_db
        matcher = reading.matcher
        model = None
        for fact in dump:
            if model is None:  # AUX fields precede the first key
                model = reading.model()
            db = fact.db or 0
            counts[db] = counts.get(db, 0) + 1
            if options.db is not None and db != options.db:
                continue
            if options.type is not None and fact.type != options.type:
                continue
            if matcher is not None and matcher.match(fact.key) is None:
                continue
            fact.memory = model(fact)
            yield fact
        reading.finish()
    finally:
        reading.close()


class DumpReading:
    """One dump being read by `read_dump`'s loop (either core's): opened by `open`, its summary filled from
    the header there, from the AUX fields by `model` (called when the first key arrives, after them) and
    from what follows the last key by `finish`."""

    def __init__(
        self, path: str, options: DumpOptions, summary: DumpSummary, progress: Callable[[int], None] | None
    ) -> None:
        self.path, self.options, self.summary, self.progress = path, options, summary, progress
        self.matcher = GlobMatcher([options.match]) if options.match is not None else None
        self.dump: RdbFile | None = None
        self._model: Callable[[RdbKey], int] | None = None

    def open(self) -> RdbFile:
        options, summary = self.options, self.summary
        dump = self.dump = open_rdb(
            self.path, deep=options.deep, verify=options.verify, head=options.head, progress=self.progress
        )
        header = dump.header
        summary.label, summary.size, summary.envelope = header.label, header.size, header.envelope
        summary.flavor = "valkey" if header.magic == "VALKEY" else "redis"
        return dump

    def model(self) -> Callable[[RdbKey], int]:
        """The memory model the dump's AUX fields call for (the summary filled from them on the first call)."""
        if self._model is None:
            assert self.dump is not None
            self._model = _describe(self.summary, self.dump.aux, self.dump.header, self.options.allocator)
        return self._model

    def finish(self) -> None:
        dump, summary = self.dump, self.summary
        assert dump is not None
        self.model()
        summary.checksum, summary.expired = dump.checksum, dump.expired
        summary.functions, summary.modules = len(dump.functions), tuple(sorted(set(dump.module_aux)))

    def close(self) -> None:
        if self.dump is not None:
            self.dump.close()


def _describe(
    summary: DumpSummary, aux: dict[str, bytes], header: RdbHeader, allocator: str
) -> Callable[[RdbKey], int]:
    """Fill the summary from the AUX fields and pick the memory model they call for."""
    version = aux.get("valkey-ver") or aux.get("redis-ver")
    if "valkey-ver" in aux:
        summary.flavor = "valkey"
    summary.version = version.decode("ascii", "replace") if version else "?"
    used = aux.get("used-mem", b"")
    summary.used_memory = int(used) if used.isdigit() else None
    ctime = aux.get("ctime", b"")
    summary.ctime = int(ctime) if ctime.isdigit() else None
    model = model_for(header, aux, allocator)
    summary.memory_model = f"{model.name}, {allocator}"
    estimate: Callable[[RdbKey], int] = model.estimate
    return estimate


def dump_workers(paths: Sequence[str], jobs: int | None, sizes: Sequence[int] | None = None) -> int:
    """How many processes read `paths`: `jobs` when given; else one per CPU, or one in all when there is too
    little to parse to pay for starting workers, or when the compiled core reads a single dump (it parses
    faster than a worker can hand its facts over). `sizes`: the files' sizes, when the caller has them."""
    if jobs is not None:
        return jobs
    total = sum(sizes) if sizes is not None else sum(os.path.getsize(path) for path in paths)
    alone = len(paths) == 1 and compiled.load(WALK) is not None
    return (os.cpu_count() or 1) if total >= PARALLEL_FROM and not alone else 1


def dump_runs(
    paths: Sequence[str],
    options: DumpOptions,
    summaries: list[DumpSummary],
    *,
    jobs: int | None = None,
    progress: ByteProgress | None = None,
) -> Iterator[PartRun]:
    """The facts of every dump as runs (index in `paths`, facts), parsed by up to `jobs` worker processes at
    once (runs of several dumps then interleave), or here when `jobs` is 1 (one run per dump, in order: the
    caller takes every fact of a run before asking for the next). `jobs` None: as `dump_workers` decides.
    """
    sizes = [os.path.getsize(path) for path in paths]
    total = sum(sizes)
    jobs = dump_workers(paths, jobs, sizes)
    if jobs <= 1:
        done = 0
        for index, (path, size) in enumerate(zip(paths, sizes, strict=True)):
            summary = DumpSummary(path)
            summaries.append(summary)
            offset = done

            def step(position: int, offset: int = offset) -> None:
                if progress is not None:
                    progress(offset + position, total)

            yield index, read_dump(path, options, summary, step)
            done += size
        return
    from rediscipline.sources.rdb.workers import parallel_runs

    yield from parallel_runs(
        paths=paths, sizes=sizes, options=options, summaries=summaries, jobs=jobs, progress=progress
    )


class RdbSource:
    """Dumps as one source: the shards of a cluster, or several nodes, read as one keyspace.

    Reading a dump gives every field of a key at once except string heads, which cost a read of the value:
    the plan decides those (`head`), and `deep` (every element walked) is the caller's choice.
    """

    place = SOURCE_RDB
    counts_keys = True

    def __init__(
        self,
        paths: Sequence[str],
        options: DumpOptions,
        *,
        jobs: int | None = None,
        progress: ByteProgress | None = None,
    ) -> None:
        self.paths = dump_paths(paths)
        self.inputs = tuple(self.paths)
        self.options = options
        self.workers = jobs
        self.progress = progress
        self.summaries: list[DumpSummary] = []

    def runs(self, plan: ProbePlan) -> Iterator[PartRun]:
        """The facts of every dump, as runs of one dump each (`dump_runs`); a dump's index is its place in
        `paths`."""
        options = replace(self.options, head="head" in plan.key_fields)
        self.summaries = []
        return dump_runs(self.paths, options, self.summaries, jobs=self.workers, progress=self.progress)

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        """The facts of every dump as one stream (the runs chained, with no layer of ours per key)."""
        return itertools.chain.from_iterable(facts for _index, facts in self.runs(plan))

    def detail(self) -> tuple[object, ...]:
        """The summaries of the dumps read, for a run that reads its dumps as jobs (`jobs.DumpJobs`)."""
        return tuple(self.summaries)

    def outcome(self) -> SourceOutcome:
        summaries = self.summaries
        if not summaries:
            return SourceOutcome()
        model = ", ".join(sorted({s.memory_model for s in summaries}))
        return SourceOutcome(tuple(self._notes()), _summary(summaries), model)

    def _notes(self) -> list[Note]:
        summaries, options = self.summaries, self.options
        notes = [note("memory-estimated", models=tuple(sorted({s.memory_model for s in summaries})))]
        expired = sum(s.expired for s in summaries)
        if expired:
            notes.append(note("dump-expired", keys=expired))
        unchecked = tuple(s.path for s in summaries if s.checksum == "absent")
        if unchecked:
            notes.append(note("no-checksum", paths=unchecked))
        if not options.verify:
            notes.append(note("crc-not-verified"))
        if not options.deep:
            notes.append(note("elements-not-walked"))
        if options.match or options.type or options.db is not None:
            notes.append(note("dump-filtered"))
        return notes


def _summary(summaries: Sequence[DumpSummary]) -> ServerSummary:
    first = summaries[0]
    if len(summaries) == 1:
        address = first.path
    else:
        address = f"{len(summaries)} dumps: " + ", ".join(os.path.basename(s.path) for s in summaries)
    versions = sorted({s.version for s in summaries})
    labels = sorted({s.label for s in summaries})
    checks = sorted({s.checksum for s in summaries})
    dbs: dict[int, int] = {}
    for summary in summaries:
        for db, keys in summary.keys_by_db.items():
            dbs[db] = dbs.get(db, 0) + keys
    used = [s.used_memory for s in summaries if s.used_memory is not None]
    created = [s.ctime for s in summaries if s.ctime is not None]
    return ServerSummary(
        address=address,
        flavor="/".join(sorted({s.flavor for s in summaries})),
        version=", ".join(versions),
        role=f"{', '.join(labels)} dump · CRC {' / '.join(checks)}",
        used_memory=sum(used) if used else None,
        dbs=tuple(sorted(dbs.items())),
        started_ms=max(created) * 1000 if created else None,
    )
