"""Dumps parsed in worker processes while the caller's process runs the engine on what they find.

An RDB cannot be split before it has been read (records carry no lengths), so files are the unit of work: the
shards of a cluster, or a directory of nightly dumps, each parsed by its own worker (at most `jobs` at once).
Even a single file gains: parsing and the memory model run in the worker, the rules in the parent, on two
cores at once.

Each worker writes to its own pipe, pickling in its own thread of control: a `multiprocessing.Queue` pickles
in a feeder thread that fights the parser for the GIL, and halved the worker's speed on a 2.8 M-key dump
(29.8 s against 14.8 s parsing in place). Facts travel in batches of plain tuples: pickling a dataclass costs
about 8 µs per key and unpickling 6 µs, a tuple of the same fields 1.1 µs and 0.6 µs. Besides keys a worker
sends byte progress, its summary at the end, or an error.

Workers start with SIGINT blocked, and keep it blocked: a Ctrl-C at the terminal goes to the whole process
group, and only the parent acts on it (it stops the workers), so no worker prints a traceback of its own.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Iterator, Sequence
from itertools import starmap
from multiprocessing.connection import Connection, wait
from typing import Any

from rediscipline.model.facts import KeyFact
from rediscipline.model.source import PartRun
from rediscipline.sources.errors import SourceError
from rediscipline.sources.rdb.source import ByteProgress, DumpOptions, DumpSummary, read_dump
from rediscipline.sources.signals import sigint_blocked

BATCH = 4000
_POLL_SECONDS = 0.5


def _work(path: str, options: DumpOptions, out: Connection) -> None:
    """Worker process body: parse one dump and stream what it finds to the parent."""
    summary = DumpSummary(path)

    def send(message: tuple[str, Any]) -> None:
        out.send_bytes(pickle.dumps(message, pickle.HIGHEST_PROTOCOL))

    try:
        batch: list[tuple[Any, ...]] = []
        append = batch.append
        for f in read_dump(path, options, summary, lambda position: send(("progress", position))):
            append(
                (f.name, f.origin, f.db, f.type, f.ttl_ms, f.memory, f.length, f.encoding, f.idle_seconds, f.freq,
                 f.expire_at_ms, f.largest_element, f.head)
            )  # fmt: skip  # KeyFact's fields in order; pickle sends the shared `origin` once per batch
            if len(batch) >= BATCH:
                send(("keys", batch))
                batch = []
                append = batch.append
        send(("keys", batch))
        send(("done", summary))
    except SourceError as error:
        send(("error", str(error)))
    except Exception as error:
        send(("error", f"{path}: {type(error).__name__}: {error}"))
    finally:
        out.close()


def parallel_runs(
    *,
    paths: Sequence[str],
    sizes: Sequence[int],
    options: DumpOptions,
    summaries: list[DumpSummary],
    jobs: int,
    progress: ByteProgress | None,
) -> Iterator[PartRun]:
    """Runs of facts of all `paths` (index in `paths`, a batch of its facts in file order), in whatever order
    the workers produce them; summaries in path order. The caller takes each run before asking for the next."""
    context = multiprocessing.get_context("spawn")
    pending = list(enumerate(paths))
    running: dict[Connection, tuple[int, Any]] = {}
    positions = [0] * len(paths)
    finished: dict[int, DumpSummary] = {}
    total = sum(sizes)
    try:
        while pending or running:
            while pending and len(running) < jobs:
                index, path = pending.pop(0)
                reader, writer = context.Pipe(duplex=False)
                process = context.Process(target=_work, args=(path, options, writer), daemon=True)
                with sigint_blocked():
                    process.start()
                writer.close()  # the child holds the only writing end: its exit ends the pipe
                running[reader] = (index, process)
            ready = wait(list(running), timeout=_POLL_SECONDS)
            if not ready:
                _check_alive(running, paths)
            for ready_reader in ready:
                reader = ready_reader  # type: ignore[assignment]  # wait() returns the Connections it was given
                index, process = running[reader]
                try:
                    kind, payload = pickle.loads(reader.recv_bytes())
                except EOFError:
                    raise SourceError(
                        f"{paths[index]}: the parser process ended without a result (exit code {process.exitcode})"
                    ) from None
                if kind == "keys":
                    yield index, starmap(KeyFact, payload)  # built as the engine takes them, in C
                elif kind == "progress":
                    positions[index] = payload
                    if progress is not None:
                        progress(sum(positions), total)
                elif kind == "done":
                    finished[index] = payload
                    positions[index] = sizes[index]
                    del running[reader]
                    reader.close()
                    process.join()
                else:
                    raise SourceError(payload)
    finally:
        for reader, (_index, process) in running.items():
            process.terminate()
            process.join()
            reader.close()
    summaries.extend(finished[index] for index in range(len(paths)))


def _check_alive(running: dict[Connection, tuple[int, Any]], paths: Sequence[str]) -> None:
    """A worker that died without reporting (killed, out of memory) is an error, not a silent gap."""
    for index, process in running.values():
        if not process.is_alive() and process.exitcode not in (0, None):
            raise SourceError(f"{paths[index]}: the parser process died (exit code {process.exitcode})")
