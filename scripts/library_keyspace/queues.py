"""Run real task-queue libraries against a real redis-server and write the keys they leave as a labelled corpus.

Each library's workload (queue_<library>.py beside this file) runs in its own database after FLUSHDB, with its
real workers (in-process, or a subprocess that stays up while the keys are read, as in production, and is then
stopped by its PID); the keys found afterwards are labelled with the workload's family regexes (every key
exactly one family, or the run stops) and written in the corpus format (library, family, type, ttl, escaped
key). Libraries marked optional are skipped with a printed reason when they do not import or do not run; the
others stop the run. The workloads are seeded, but the libraries make their own ids (uuid4, time-based uuid1)
and workers race, so a rerun writes other ids and a few keys more or fewer, never other families.

Version set A (recent releases, default options) writes the committed corpus; version set B (older versions,
other queue names, prefixes and TTLs) writes a held-out corpus kept outside the repository. From the
repository root, with Python 3.11 and node 20:

    python3 -m venv /work/eval/libkeys/venv-queues-a
    /work/eval/libkeys/venv-queues-a/bin/pip install -r scripts/library_keyspace/requirements-queues.txt
    /work/eval/libkeys/venv-queues-a/bin/python scripts/library_keyspace/queues.py --variant a \\
        --requirements scripts/library_keyspace/requirements-queues.txt \\
        --bullmq 6.7.0 --node-dir /work/eval/libkeys/node-bullmq-a --output tests/data/library_keys/queues.tsv

    python3 -m venv /work/eval/libkeys/venv-queues-b
    /work/eval/libkeys/venv-queues-b/bin/pip install -r /work/eval/libkeys/requirements-queues-b.txt
    /work/eval/libkeys/venv-queues-b/bin/python scripts/library_keyspace/queues.py --variant b \\
        --requirements /work/eval/libkeys/requirements-queues-b.txt \\
        --bullmq 4.18.3 --node-dir /work/eval/libkeys/node-bullmq-b --output /work/eval/libkeys/heldout-queues.tsv

`--only rq,huey` runs a subset; `--seed N` changes the random workload (default: 15 for A, 1515 for B).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import random
import re
import sys
import traceback
from collections import defaultdict
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from types import ModuleType

from queue_common import Row, escape_key, label, read_keys, server_version, start_server, stop_server, write_corpus


@dataclass(frozen=True)
class Workload:
    """One library's workload: the module that runs it, the database it gets, and whether it may be skipped."""

    name: str
    module: str
    db: int
    optional: bool = False


WORKLOADS = (
    Workload("rq", "queue_rq", 1),
    Workload("celery", "queue_celery", 2),
    Workload("arq", "queue_arq", 3),
    Workload("huey", "queue_huey", 4),
    Workload("dramatiq", "queue_dramatiq", 5),
    Workload("rq-scheduler", "queue_rq_scheduler", 6, optional=True),
    Workload("saq", "queue_saq", 7, optional=True),
    Workload("taskiq-redis", "queue_taskiq", 8, optional=True),
    Workload("celery-redbeat", "queue_redbeat", 9, optional=True),
    Workload("bullmq", "queue_bullmq", 10, optional=True),
)

DEFAULT_SEED = {"a": 15, "b": 1515}


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=("a", "b"), required=True, help="options set (queue names, TTLs, ...)")
    parser.add_argument("--output", type=Path, required=True, help="TSV to write")
    parser.add_argument("--requirements", type=Path, help="pins the installed versions must equal")
    parser.add_argument("--only", help="comma-separated workload names (default: all)")
    parser.add_argument("--seed", type=int, help="random seed of the workloads")
    parser.add_argument("--bullmq", help="bullmq version to install with npm (bullmq is skipped without it)")
    parser.add_argument("--node-dir", type=Path, help="directory outside the repository for the npm install")
    return parser.parse_args(argv)


def check_pins(requirements: Path) -> None:
    """Every `name==version` line of the file must be what is installed, so the header tells the truth."""
    wrong = []
    for line in requirements.read_text().splitlines():
        match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)==([^\s;#]+).*", line)
        if not match:
            continue
        name, pinned = match.groups()
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "missing"
        if installed != pinned:
            wrong.append(f"{name} pinned {pinned}, installed {installed}")
    if wrong:
        raise SystemExit(f"{requirements}: the environment does not match the pins: " + "; ".join(wrong))


def library_version(name: str, module: ModuleType) -> str:
    versions = getattr(module, "VERSIONS", None)
    if callable(versions):
        return str(versions().get(name, "?"))
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "?"


def summarise(rows: list[Row]) -> list[str]:
    """Per library: keys and families; per family: count and two example keys."""
    by_library: dict[str, dict[str, list[bytes]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        by_library[row.library][row.family].append(row.key)
    lines = []
    for library in sorted(by_library):
        fams = by_library[library]
        lines.append(f"{library}: {sum(len(keys) for keys in fams.values())} keys, {len(fams)} families")
        for name in sorted(fams):
            keys = sorted(fams[name])
            examples = "  ".join(escape_key(key) for key in keys[:: max(1, len(keys) - 1)][:2])
            lines.append(f"  {len(keys):6d}  {name}: {examples}")
    return lines


def main(argv: list[str]) -> int:
    options = parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)
    if options.requirements:
        check_pins(options.requirements)
    chosen = set(options.only.split(",")) if options.only else {workload.name for workload in WORKLOADS}
    unknown = chosen - {workload.name for workload in WORKLOADS}
    if unknown:
        raise SystemExit(f"unknown workload(s): {', '.join(sorted(unknown))}")
    seed = options.seed if options.seed is not None else DEFAULT_SEED[options.variant]
    server = start_server()
    header = [f"generator scripts/library_keyspace/queues.py --variant {options.variant} --seed {seed}"]
    rows: list[Row] = []
    try:
        header.append(f"server {server_version(server.client())}")
        libraries, option_lines, skipped = [], [], []
        for workload in WORKLOADS:
            if workload.name not in chosen:
                continue
            client = server.client(workload.db)
            client.flushdb()
            try:
                module = importlib.import_module(workload.module)
                settings = dict(module.OPTIONS[options.variant])
                settings.update(module.prepare(options) if hasattr(module, "prepare") else {})
                stop = module.run(server, workload.db, random.Random(f"{seed}:{workload.name}"), settings)
            except Exception as error:
                if not workload.optional:
                    raise
                reason = f"{type(error).__name__}: {error}".splitlines()[0][:300]
                print(f"skipped {workload.name}: {reason}", file=sys.stderr)
                traceback.print_exc(limit=3, file=sys.stderr)
                skipped.append(f"skipped {workload.name}: {reason}")
                client.flushdb()
                continue
            try:
                records = read_keys(client)
            finally:
                if stop is not None:
                    stop()
            fams = label([record.key for record in records], module.families(settings))
            rows += _new_rows(
                rows, [Row(f.library, f.name, r.type, r.ttl_ms, r.key) for f, r in zip(fams, records, strict=True)]
            )
            named = [f"library {name} {library_version(name, module)}" for name in module.LIBRARIES]
            libraries += [line for line in named if line not in libraries]
            shown = " ".join(f"{key}={_option_text(value)}" for key, value in sorted(settings.items()))
            option_lines.append(f"options {workload.name}: {shown}")
            print(f"{workload.name}: {len(records)} keys", file=sys.stderr)
        header += libraries + option_lines + skipped
    finally:
        stop_server(server)
    write_corpus(options.output, header, rows)
    print("\n".join(summarise(rows)))
    print(f"wrote {len(rows)} keys to {options.output}")
    return 0


def _new_rows(earlier: list[Row], found: list[Row]) -> list[Row]:
    """The rows whose key no earlier workload wrote; a key written by two with different labels stops the run.

    A key such as `rq:queues` is written by rq and by rq-scheduler (which uses rq's keys) in their own databases;
    the corpus is one keyspace, so it lists the key once.
    """
    seen = {row.key: row for row in earlier}
    fresh = []
    for row in found:
        before = seen.get(row.key)
        if before is None:
            fresh.append(row)
        elif (before.library, before.family) != (row.library, row.family):
            raise SystemExit(f"{escape_key(row.key)} labelled {before.family} and {row.family}")
    return fresh


def _option_text(value: object) -> str:
    if isinstance(value, (tuple, list)):
        return ",".join(str(item) for item in value)
    return str(value) if value not in ("", None) else "(library default)"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
