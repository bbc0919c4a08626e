"""Run real libraries with their key prefix or namespace option set and write the keys they leave as a corpus.

The catalog's shapes describe each library's default prefix; deployments often set the library's own prefix
option (Celery/kombu `global_keyprefix`, dramatiq `namespace`, celery-redbeat `redbeat_key_prefix`, rq 3's
`RQ_KEY_PREFIX`, Django's `KEY_PREFIX`/`VERSION`/`CACHE_MIDDLEWARE_KEY_PREFIX` and a separate session cache
alias, Flask-Caching's `CACHE_KEY_PREFIX`). This runs the task-queue and cache workloads beside this file with
prefixes none of the libraries use by default, each in its own database after FLUSHDB, and labels the keys with
the workloads' own family tables (rewritten for the prefix), every key exactly one family.

From the repository root, with Python 3.11 (the queue pins, plus Django, Flask and Flask-Caching of
the cache pins; redis-py stays at the queue pin):

    python3 -m venv /tmp/prefix-venv
    /tmp/prefix-venv/bin/pip install -r scripts/library_keyspace/requirements-queues.txt \\
        Django==5.2.19 Flask==3.1.3 Flask-Caching==2.5.1
    /tmp/prefix-venv/bin/python scripts/library_keyspace/prefixed.py \\
        --output tests/data/library_keys/prefixed_keys.tsv

`--only celery,rq` runs a subset; `--seed N` changes the random workload (default 4242).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import random
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

#: rq reads its key prefix from the environment when it is imported.
RQ_PREFIX = "acme-rq"
os.environ["RQ_KEY_PREFIX"] = RQ_PREFIX

from queue_common import (  # noqa: E402
    Family,
    Row,
    family,
    label,
    read_keys,
    server_version,
    start_server,
    stop_server,
    write_corpus,
)

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"

#: The prefix option each run sets (the queue workloads take their options as a dict).
CELERY = {
    "queues": ("billing", "default", "exports"),
    "priority_steps": (0, 3, 6, 9),
    "global_keyprefix": "acme:",
    "tasks": 90,
}
DRAMATIQ = {
    "namespace": "acme-jobs",
    "queues": ("default", "billing", "exports"),
    "result_ttl": 600000,
    "messages": 120,
}
REDBEAT = {"key_prefix": "acme-beat:", "entries": 30}
RQ = {
    "queues": ("critical", "default", "exports"),
    "result_ttl": 600,
    "failure_ttl": 3600,
    "jobs": 90,
    "worker_names": "web-1.<n>,reports-worker",
}
DJANGO_VARIANT = "p"
DJANGO = ("site", 4, "www", "en-us", "UTC", "acct-sessions")  # KEY_PREFIX, VERSION, middleware prefix, ..., sessions
FLASK_CACHE_PREFIX = "acme-cache:"


@dataclass(frozen=True)
class Run:
    """One library's run: what it needs, how it runs, how its keys are labelled, the options line."""

    name: str
    db: int
    distributions: Sequence[str]
    run: Callable[[Any, int, random.Random, argparse.Namespace], Callable[[], None] | None]
    families: Callable[[], list[Family]]
    options: str


def _celery_families() -> list[Family]:
    # celery's result backend adds "_" to the global prefix unless it ends with one of ":_-."; kombu prepends it.
    pre = re.escape(str(CELERY["global_keyprefix"]))
    rows = [
        family("celery", "celery task result", rf"{pre}celery-task-meta-{UUID}"),
        family("celery", "celery group result", rf"{pre}celery-taskset-meta-{UUID}"),
        family("celery", "celery chord counter", rf"{pre}celery-taskset-meta-{UUID}\.[jtscd]"),
        family("kombu", "kombu unacked messages", rf"{pre}unacked"),
        family("kombu", "kombu unacked index", rf"{pre}unacked_index"),
        family("kombu", "kombu unacked mutex", rf"{pre}unacked_mutex"),
        family("kombu", "kombu binding", rf"{pre}_kombu\.binding\.[a-z.]+"),
        family("kombu", "kombu pidbox reply queue", rf"{pre}{UUID}\.reply\.celery\.pidbox"),
    ]
    for queue in CELERY["queues"]:
        rows += [
            family("kombu", f"kombu queue {queue}", rf"{pre}{queue}"),
            family("kombu", "kombu priority queue", rf"{pre}{queue}\x06\x16[0-9]"),
        ]
    return rows


def _queue_run(module: str, options: dict[str, Any]) -> Callable[..., Callable[[], None] | None]:
    def run(server: Any, db: int, rng: random.Random, cli: argparse.Namespace) -> Callable[[], None] | None:
        workload = importlib.import_module(module)
        if hasattr(workload, "prepare"):
            workload.prepare(cli)
        result: Callable[[], None] | None = workload.run(server, db, rng, dict(options))
        return result

    return run


def _queue_families(module: str, options: dict[str, Any], rewrite: Callable[[str], str] = str) -> list[Family]:
    rows = importlib.import_module(module).families(dict(options))
    return [family(row.library, row.name, rewrite(row.pattern.pattern.decode())) for row in rows]


def _rq_prefix(pattern: str) -> str:
    return re.sub(r"(^|\|)rq:", lambda m: f"{m.group(1)}{re.escape(RQ_PREFIX)}:", pattern)


def _cache_run(module: str, setup: Callable[[Any], None], index: int) -> Callable[..., None]:
    def run(server: Any, db: int, rng: random.Random, cli: argparse.Namespace) -> None:
        workload = importlib.import_module(f"scripts.library_keyspace.{module}")
        setup(workload)
        workload.WORKLOADS[index].run(server.url(db), DJANGO_VARIANT, rng)

    return run


def _cache_families(module: str, setup: Callable[[Any], None], index: int, library: str) -> list[Family]:
    workload = importlib.import_module(f"scripts.library_keyspace.{module}")
    setup(workload)
    # the workloads' own keys written through the library (`app cache …`) keep the library's label: the
    # library wrote them, under a key the application chose.
    return [
        family(library, row.name, row.pattern.pattern.decode())
        for row in workload.WORKLOADS[index].families(DJANGO_VARIANT)
    ]


def _django_setup(module: Any) -> None:
    module.OPTIONS[("django", DJANGO_VARIANT)] = module.Options(*DJANGO)


def _flask_setup(module: Any) -> None:
    module.CACHE_PREFIX[DJANGO_VARIANT] = FLASK_CACHE_PREFIX
    module.SESSION_PREFIX[DJANGO_VARIANT] = None


def _line(options: dict[str, Any]) -> str:
    return " ".join(f"{key}={value}" for key, value in sorted(options.items()))


RUNS = (
    Run("celery", 1, ("celery", "kombu"), _queue_run("queue_celery", CELERY), _celery_families, _line(CELERY)),
    Run(
        "dramatiq",
        2,
        ("dramatiq",),
        _queue_run("queue_dramatiq", DRAMATIQ),
        lambda: _queue_families("queue_dramatiq", DRAMATIQ),
        _line(DRAMATIQ),
    ),
    Run(
        "celery-redbeat",
        3,
        ("celery-redbeat",),
        _queue_run("queue_redbeat", REDBEAT),
        lambda: _queue_families("queue_redbeat", REDBEAT),
        _line(REDBEAT),
    ),
    Run(
        "rq",
        5,
        ("rq",),
        _queue_run("queue_rq", RQ),
        lambda: _queue_families("queue_rq", RQ, _rq_prefix),
        f"RQ_KEY_PREFIX={RQ_PREFIX} " + _line(RQ),
    ),
    Run(
        "django",
        6,
        ("Django",),
        _cache_run("caches_django", _django_setup, 1),
        lambda: _cache_families("caches_django", _django_setup, 1, "django"),
        "KEY_PREFIX={} VERSION={} CACHE_MIDDLEWARE_KEY_PREFIX={} LANGUAGE_CODE={} TIME_ZONE={} "
        "sessions in an alias with KEY_PREFIX={}".format(*DJANGO),
    ),
    Run(
        "flask-caching",
        7,
        ("Flask-Caching",),
        _cache_run("caches_flask", _flask_setup, 0),
        lambda: _cache_families("caches_flask", _flask_setup, 0, "flask-caching"),
        f"CACHE_KEY_PREFIX={FLASK_CACHE_PREFIX}",
    ),
)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, required=True, help="TSV to write")
    parser.add_argument("--only", help="comma-separated run names (default: all)")
    parser.add_argument("--seed", type=int, default=4242, help="random seed of the workloads")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    cli = parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)
    chosen = set(cli.only.split(",")) if cli.only else {run.name for run in RUNS}
    server = start_server()
    header = [f"generator scripts/library_keyspace/prefixed.py --seed {cli.seed}"]
    rows: list[Row] = []
    try:
        header.append(f"server {server_version(server.client())}")
        for run in RUNS:
            if run.name not in chosen:
                continue
            client = server.client(run.db)
            client.flushdb()
            stop = run.run(server, run.db, random.Random(f"{cli.seed}:{run.name}"), cli)
            try:
                records = read_keys(client)
            finally:
                if stop is not None:
                    stop()
            labels = label([record.key for record in records], run.families())
            rows += [Row(f.library, f.name, r.type, r.ttl_ms, r.key) for f, r in zip(labels, records, strict=True)]
            versions = " ".join(f"{name} {metadata.version(name)}" for name in run.distributions)
            header.append(f"options {run.name} ({versions}): {run.options}")
            print(f"{run.name}: {len(records)} keys", file=sys.stderr)
    finally:
        stop_server(server)
    write_corpus(cli.output, header, rows)
    print(f"wrote {len(rows)} keys to {cli.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
