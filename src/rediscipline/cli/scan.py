"""`rediscipline scan URL | DUMP...`: audit a live Redis/Valkey instance as a read-only guest, or RDB dumps."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from rediscipline.api import settings_for
from rediscipline.cli.common import (
    output_options,
    overrides_from,
    render_report,
    settings_options,
    write_report,
)
from rediscipline.cli.exits import EXIT_ERROR
from rediscipline.render import RENDERERS

TYPES = ("string", "list", "hash", "set", "zset", "stream")


@click.command("scan")
@click.argument("targets", nargs=-1, metavar="[URL | DUMP.rdb... | DIR]")
@click.option("--user", metavar="NAME", help="ACL user name (overrides the URL's).")
@click.option("--password-env", metavar="VAR", help="Read the password from environment variable VAR (never printed).")
@click.option("--db", type=click.IntRange(min=0), help="Scan only this logical database (default: all with keys).")
@click.option("--match", metavar="GLOB", help="Only keys matching this Redis glob (SCAN MATCH).")
@click.option("--type", "key_type", type=click.Choice(TYPES), help="Only keys of this type (SCAN TYPE).")
@click.option(
    "--sample",
    type=click.IntRange(min=1),
    metavar="N",
    help="Probe about N keys drawn uniformly at random; counts become estimates with 95% confidence intervals.",
)
@click.option("--seed", type=int, help="Random seed for --sample (repeatable samples).")
@click.option("--max-ops", type=click.IntRange(min=100), metavar="N", help="Send at most N commands per second.")
@click.option(
    "--batch",
    type=click.IntRange(min=10, max=1000),
    default=50,
    show_default=True,
    help="Keys per round trip at most (it shrinks by itself when the server is slow to answer).",
)
@click.option("--resume", metavar="DB:CURSOR", help="Continue an interrupted scan from the cursor it printed.")
@click.option(
    "--memory-samples",
    type=click.IntRange(min=1, max=64),
    default=5,
    show_default=True,
    help="MEMORY USAGE … SAMPLES n (never 0: that walks every element).",
)
@click.option("--timeout", type=click.FloatRange(min=0.5), default=10.0, show_default=True, help="Seconds per reply.")
@click.option(
    "--allow-stale",
    is_flag=True,
    help="Scan a replica that is not in sync with its master (refused by default: its keys may be missing or old).",
)
@click.option("--deep", is_flag=True, help="Dumps: walk every element, for the largest element of every collection.")
@click.option("--no-verify", "no_verify", is_flag=True, help="Dumps: do not check the CRC-64 (read a damaged file).")
@click.option(
    "--allocator",
    type=click.Choice(("jemalloc", "jemalloc16", "libc")),
    default="jemalloc",
    show_default=True,
    help="Dumps: the server's allocator, for memory estimates (jemalloc16: Debian/Ubuntu packages).",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    metavar="N",
    help="Dumps: parse up to N files at once in worker processes while the rules run here (default: one per "
    "CPU from 32 MB of input; 1: everything in one process).",
)
@click.option("--progress/--no-progress", "show_progress", default=None, help="Progress bar (default: on a terminal).")
@settings_options
@output_options(tuple(RENDERERS))
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are findings.")
def scan_command(
    *,
    targets: tuple[str, ...],
    user: str | None,
    password_env: str | None,
    db: int | None,
    match: str | None,
    key_type: str | None,
    sample: int | None,
    seed: int | None,
    max_ops: int | None,
    batch: int,
    resume: str | None,
    memory_samples: int,
    timeout: float,
    allow_stale: bool,
    deep: bool,
    no_verify: bool,
    jobs: int | None,
    allocator: str,
    show_progress: bool | None,
    output_format: str,
    output: Path | None,
    color: str,
    exit_zero: bool,
    **params: Any,
) -> None:
    """Audit a running Redis or Valkey server, or RDB dumps, against every rule the input can show.

    \b
    Live (URL, default $REDIS_URL): read-only and gentle. SCAN plus bounded per-key probes, never KEYS, EVAL,
    DEBUG or whole-collection reads. Works with a user that may only read, scan, INFO and CONFIG GET.
    Dumps (files, or directories of *.rdb): RDB 1–15 (Redis 2.x–8.10) and Valkey 8/9, no server needed;
    several files make one report (a cluster's shards), parsed in parallel. Memory is estimated.
    Exit code: 0 clean, 1 findings at or above --fail-on, 2 bad input, or a server lost for good mid-scan
    (after the partial report, which says where to --resume).

    \b
    rediscipline scan redis://replica.internal:6379
    rediscipline scan rediss://app@cache.example.com:6380 --password-env REDIS_PASSWORD
    rediscipline scan unix:///var/run/redis/redis.sock --sample 100000 --format json
    rediscipline scan /backup/dump.rdb
    rediscipline scan /backup/cluster-2026-11-22/ --format json --output audit.json
    """
    from rediscipline.cli.progress import scan_progress

    settings = settings_for(overrides_from(params))
    dumps = [t for t in targets if not _is_url(t)]
    if dumps:
        if len(dumps) != len(targets):
            raise click.UsageError("give either one server URL or dump files, not both")
        live_only = {
            "--user": user, "--password-env": password_env, "--sample": sample, "--seed": seed,
            "--max-ops": max_ops, "--resume": resume, "--allow-stale": allow_stale or None,
        }  # fmt: skip
        given = [name for name, value in live_only.items() if value is not None]
        if given:
            raise click.UsageError(f"{', '.join(given)} only apply to a live server, not to dump files")
        from rediscipline.api.rdb import RdbScanOptions, scan_rdb

        rdb_options = RdbScanOptions(
            paths=tuple(dumps),
            deep=deep,
            verify=not no_verify,
            db=db,
            match=match,
            type=key_type,
            jobs=jobs,
            allocator=allocator,
        )
        with scan_progress("reading", show_progress, unit="bytes") as progress:
            report = scan_rdb(rdb_options, settings, progress=progress)
    else:
        if len(targets) > 1:
            raise click.UsageError("give one server URL (several are not scanned together yet)")
        if deep or no_verify or jobs is not None or allocator != "jemalloc":
            raise click.UsageError("--deep, --no-verify, --jobs and --allocator only apply to dump files")
        from rediscipline.api.live import LiveScanOptions, scan_live  # redis-py loads only for live scans

        options = LiveScanOptions(
            url=targets[0] if targets else None,
            user=user,
            password_env=password_env,
            db=db,
            match=match,
            type=key_type,
            sample=sample,
            seed=seed,
            batch=batch,
            max_ops=max_ops,
            resume=resume,
            memory_samples=memory_samples,
            timeout=timeout,
            allow_stale=allow_stale,
        )
        with scan_progress("scanning", show_progress) as progress:
            report = scan_live(options, settings, progress=progress)
        server = report.stats.server
        if server is not None and server.stopped is not None:  # gave up: the partial report, then exit 2
            render_report(
                report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero
            )
            again = f": resume with --resume {server.resume_cursor}" if server.resume_cursor else ""
            click.echo(f"rediscipline: error: scan stopped, partial report written; {server.stopped}{again}", err=True)
            sys.exit(EXIT_ERROR)
    write_report(report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)


def _is_url(target: str) -> bool:
    """A server address (scheme://…, redis:…, unix:…) rather than a dump file or directory."""
    return "://" in target or target.lower().startswith(("redis:", "rediss:", "unix:"))
