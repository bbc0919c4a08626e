"""Write a labelled corpus of the keys real cache, session, rate-limit, lock and object-mapper libraries leave in Redis.

Each library's workload runs in its own process against an empty database of one throwaway /usr/bin/redis-server
(FLUSHDB before, SCAN + TYPE + PTTL after), so every key found belongs to that library; the application's own
keys (library `-`) are written by a workload of their own. Families come from test-side regex tables next to
each workload; a key with no family or with two stops the run. The corpus format is described in common.py.

The libraries are installed in a virtualenv outside the repository; `--venv DIR --requirements FILE` creates it
if needed, installs the pinned set and re-runs this script with its interpreter. The two runs behind the data:

    python3 scripts/library_keyspace/caches.py --venv /work/eval/libkeys/venv-caches-a \\
        --requirements scripts/library_keyspace/requirements-caches.txt \\
        --variant a --output tests/data/library_keys/caches.tsv
    python3 scripts/library_keyspace/caches.py --venv /work/eval/libkeys/venv-caches-b \\
        --requirements /work/eval/libkeys/requirements-caches-b.txt \\
        --variant b --output /work/eval/libkeys/heldout-caches.tsv

The first is the corpus in the tests (recent releases, default options); the second is a held-out set kept out of
the repository (older releases, other options, other application keys). `--variant` picks the options (key
prefixes, versions, session settings) and the application's own key words and id kinds; `--only NAME ...` runs
some workloads (a partial corpus, said so in its header); `--list` names them. Optional workloads (channels-redis,
aiocache, fastapi-cache2, dogpile.cache, django-cacheops, pottery, walrus) that cannot import or run are skipped
with their reason, printed and written into the header.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import subprocess
import sys
import zlib
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # scripts.library_keyspace is imported from the checkout, not installed

from scripts.library_keyspace import (  # noqa: E402
    caches_app,
    caches_async,
    caches_django,
    caches_extra,
    caches_flask,
    caches_locks,
    caches_ratelimit,
)
from scripts.library_keyspace.common import (  # noqa: E402
    KeyRow,
    Server,
    label,
    read_keys,
    server_version,
    start_server,
    stop_server,
    write_corpus,
)
from scripts.library_keyspace.workload import Workload  # noqa: E402

WORKLOADS: tuple[Workload, ...] = (
    *caches_django.WORKLOADS,
    *caches_flask.WORKLOADS,
    *caches_locks.WORKLOADS,
    *caches_ratelimit.WORKLOADS,
    *caches_async.WORKLOADS,
    *caches_extra.WORKLOADS,
    *caches_app.WORKLOADS,
)
DEFAULT_SEED = 20241103
WORKLOAD_TIMEOUT_S = 600
Row = tuple[str, str, str, int, bytes]


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("a", "b"), default="a", help="options and application keys (a)")
    parser.add_argument("--output", type=Path, help="the corpus TSV to write")
    parser.add_argument("--venv", type=Path, help="run inside this virtualenv (created if missing)")
    parser.add_argument("--requirements", type=Path, help="pinned requirements to install into --venv")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these workloads")
    parser.add_argument("--list", action="store_true", help="name the workloads and exit")
    parser.add_argument("--run-workload", metavar="NAME", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def _in_venv(venv: Path, requirements: Path | None, argv: Sequence[str]) -> None:
    """Create `venv` and install `requirements` when needed, then re-run this script with its python."""
    venv = venv.resolve()
    if Path(sys.prefix).resolve() == venv:
        return
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    if requirements is not None:
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "-r", str(requirements)], check=True)
    os.execv(str(python), [str(python), str(Path(__file__).resolve()), *argv])


def _seed(base: int, variant: str, name: str) -> int:
    return base ^ zlib.crc32(f"{variant}/{name}".encode())


def _run_one(server: Server, workload: Workload, args: argparse.Namespace) -> str | None:
    """Run a workload in its own process on an empty db 0; None when it ran, else why it did not."""
    server.client().flushall()
    command = [sys.executable, str(Path(__file__).resolve()), "--run-workload", workload.name]
    command += ["--url", server.url(0), "--variant", args.variant, "--seed", str(args.seed)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=WORKLOAD_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return f"did not finish in {WORKLOAD_TIMEOUT_S} s"
    if done.returncode != 0:
        lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
        return lines[-1] if lines else f"exit status {done.returncode}"
    stray = {db: info for db, info in server.client().info("keyspace").items() if db != "db0"}
    if stray:
        raise SystemExit(f"workload {workload.name} wrote outside db 0: {stray}")
    return None


def _versions(workloads: Sequence[Workload]) -> list[str]:
    names = sorted({dist for workload in workloads for dist in workload.distributions}, key=str.lower)
    lines = []
    for dist in names:
        try:
            lines.append(f"library {dist.lower()} {importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            lines.append(f"library {dist.lower()} not installed")
    return lines


def _summary(rows: Sequence[Row]) -> str:
    by_library: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        by_library[row[0]].append(row)
    out = []
    for library, lib_rows in by_library.items():
        counts = Counter(row[1] for row in lib_rows)
        out.append(f"{library}: {len(lib_rows)} keys, {len(counts)} families")
        for fam, count in sorted(counts.items()):
            examples = [row[4] for row in lib_rows if row[1] == fam][:: max(1, count // 2)][:2]
            shown = "  ".join(repr(key)[2:-1] for key in examples)
            out.append(f"  {count:6d}  {fam}: {shown}")
    return "\n".join(out)


def _check_unique(rows: Sequence[Row]) -> None:
    """Two workloads writing the same key would give it two labels, and one server could not hold both."""
    owners: dict[bytes, list[str]] = defaultdict(list)
    for row in rows:
        owners[row[4]].append(row[0])
    shared = {key: libs for key, libs in owners.items() if len(libs) > 1}
    if shared:
        shown = "; ".join(f"{key!r} ({', '.join(libs)})" for key, libs in list(shared.items())[:10])
        raise SystemExit(f"{len(shared)} keys written by more than one workload: {shown}")


def _generate(args: argparse.Namespace, workloads: Sequence[Workload]) -> int:
    server = start_server()
    rows: list[Row] = []
    header = [f"generator scripts/library_keyspace/caches.py --variant {args.variant} --seed {args.seed}"]
    notes: list[str] = []
    try:
        header.append(f"server {server_version(server.client())}")
        for workload in workloads:
            reason = _run_one(server, workload, args)
            if reason is not None:
                if not workload.optional:
                    raise SystemExit(f"workload {workload.name} failed: {reason}")
                print(f"skip {workload.name}: {reason}", file=sys.stderr)
                notes.append(f"skipped {workload.name}: {reason}")
                continue
            keys: list[KeyRow] = read_keys(server.client())
            if not keys:
                raise SystemExit(f"workload {workload.name} left no keys")
            names = label([row.key for row in keys], workload.families(args.variant))
            rows += [(workload.library, fam, k.type, k.ttl_ms, k.key) for fam, k in zip(names, keys, strict=True)]
            notes.append(f"options {workload.name}: {workload.options(args.variant)}")
    finally:
        stop_server(server)
    _check_unique(rows)
    ran = [w for w in workloads if any(n.startswith(f"options {w.name}:") for n in notes)]
    header += _versions(ran) + notes
    if args.only:
        header.append(f"partial: only {', '.join(args.only)}")
    print(_summary(rows))
    if args.output:
        count = write_corpus(args.output, header, rows)
        print(f"wrote {count} keys to {args.output}")
    return 0


def _run_workload(args: argparse.Namespace) -> int:
    workload = next(w for w in WORKLOADS if w.name == args.run_workload)
    import random

    workload.run(args.url, args.variant, random.Random(_seed(args.seed, args.variant, workload.name)))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    args = _parse(raw)
    if args.run_workload:
        return _run_workload(args)
    if args.list:
        for workload in WORKLOADS:
            print(f"{workload.name:20} {workload.library:20} {'optional' if workload.optional else 'required'}")
        return 0
    if args.venv:
        _in_venv(args.venv, args.requirements, raw)
    selected = [w for w in WORKLOADS if not args.only or w.name in args.only]
    unknown = set(args.only or ()) - {w.name for w in WORKLOADS}
    if unknown:
        raise SystemExit(f"unknown workloads: {', '.join(sorted(unknown))} (see --list)")
    return _generate(args, selected)


if __name__ == "__main__":
    sys.exit(main())
