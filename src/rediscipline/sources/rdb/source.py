"""Dumps as a source of key facts: filters, the memory model, and a summary of each file.

`read_dump` walks one file in this process. `read_dumps` walks them all, in worker processes (one per file,
at most `jobs` at once) when there is enough to parse to pay for starting them, and hands their facts to the
caller's process, where the one engine runs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rediscipline.model.facts import KeyFact
from rediscipline.model.glob import GlobMatcher
from rediscipline.sources.errors import SourceError
from rediscipline.sources.rdb.memory import DEFAULT_ALLOCATOR, model_for
from rediscipline.sources.rdb.parser import open_rdb
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
    """The facts of one dump, filtered, with memory estimated; fills `summary` as it goes."""
    matcher = GlobMatcher([options.match]) if options.match is not None else None
    with open_rdb(path, deep=options.deep, verify=options.verify, head=options.head, progress=progress) as dump:
        header = dump.header
        summary.label, summary.size, summary.envelope = header.label, header.size, header.envelope
        summary.flavor = "valkey" if header.magic == "VALKEY" else "redis"
        model = None
        counts = summary.keys_by_db
        for fact in dump:
            if model is None:  # AUX fields precede the first key
                model = _describe(summary, dump.aux, header, options.allocator)
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
        if model is None:
            _describe(summary, dump.aux, header, options.allocator)
        summary.checksum, summary.expired = dump.checksum, dump.expired
        summary.functions, summary.modules = len(dump.functions), tuple(sorted(set(dump.module_aux)))


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


def read_dumps(
    paths: Sequence[str],
    options: DumpOptions,
    summaries: list[DumpSummary],
    *,
    jobs: int | None = None,
    progress: ByteProgress | None = None,
) -> Iterator[KeyFact]:
    """The facts of every dump, parsed by up to `jobs` worker processes at once, or here when `jobs` is 1.

    `jobs` None: one worker per CPU, or none when there is too little to parse to pay for starting them.
    """
    sizes = [os.path.getsize(path) for path in paths]
    total = sum(sizes)
    if jobs is None:
        jobs = (os.cpu_count() or 1) if total >= PARALLEL_FROM else 1
    if jobs <= 1:
        done = 0
        for path, size in zip(paths, sizes, strict=True):
            summary = DumpSummary(path)
            summaries.append(summary)
            offset = done

            def step(position: int, offset: int = offset) -> None:
                if progress is not None:
                    progress(offset + position, total)

            yield from read_dump(path, options, summary, step)
            done += size
        return
    from rediscipline.sources.rdb.workers import parallel_facts

    yield from parallel_facts(
        paths=paths, sizes=sizes, options=options, summaries=summaries, jobs=jobs, progress=progress
    )
