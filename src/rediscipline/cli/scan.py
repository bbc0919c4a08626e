"""`rediscipline scan URL | DUMP...`: audit a live Redis/Valkey instance as a read-only guest, or RDB dumps."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from rediscipline.api import settings_for
from rediscipline.cli.exits import EXIT_ERROR
from rediscipline.cli.options import (
    output_options,
    overrides_from,
    patterns_option,
    render_report,
    settings_options,
    showing_patterns,
    write_report,
)
from rediscipline.model.report import Report
from rediscipline.redis_meta.records import KEY_TYPES
from rediscipline.render import RENDERERS
from rediscipline.settings.layering import Settings
from rediscipline.sources.live.defaults import (
    DEFAULT_BATCH,
    DEFAULT_CONCURRENCY,
    DEFAULT_MEMORY_SAMPLES,
    DEFAULT_TIMEOUT_SECONDS,
    MAX_BATCH,
    MIN_BATCH,
)
from rediscipline.sources.traffic.defaults import MAX_DURATION

if TYPE_CHECKING:
    from rediscipline.api.live import ClusterOptions, LiveScanOptions
    from rediscipline.model.fleet import FleetReport

#: The dump allocator the memory model assumes unless told (`sources.rdb.memory`, not imported before a dump is read).
DEFAULT_ALLOCATOR = "jemalloc"
F = TypeVar("F", bound=Callable[..., Any])


def scan_options(func: F) -> F:
    """The targets of a scan and the options of what it reads (`scan_source_options`)."""
    return click.argument("targets", nargs=-1, metavar="[URL | DUMP.rdb... | DIR]")(scan_source_options(func))


def scan_source_options(func: F) -> F:
    """The options of what a scan reads: a live server's (connection, scope, pace) and dumps' (how deep)."""
    decorators = [
        click.option("--user", metavar="NAME", help="ACL user name (overrides the URL's)."),
        click.option(
            "--password-env", metavar="VAR", help="Read the password from environment variable VAR (never printed)."
        ),
        click.option(
            "--db", type=click.IntRange(min=0), help="Scan only this logical database (default: all with keys)."
        ),
        click.option("--match", metavar="GLOB", help="Only keys matching this Redis glob (SCAN MATCH)."),
        click.option("--type", "key_type", type=click.Choice(KEY_TYPES), help="Only keys of this type (SCAN TYPE)."),
        click.option(
            "--sample",
            type=click.IntRange(min=1),
            metavar="N",
            help="Probe about N keys drawn uniformly at random; counts become estimates with 95% confidence intervals.",
        ),
        click.option("--seed", type=int, help="Random seed for --sample (repeatable samples)."),
        click.option(
            "--max-ops", type=click.IntRange(min=100), metavar="N", help="Send at most N commands per second."
        ),
        click.option(
            "--batch",
            type=click.IntRange(min=MIN_BATCH, max=MAX_BATCH),
            default=DEFAULT_BATCH,
            show_default=True,
            help="Keys per round trip at most (it shrinks by itself when the server is slow to answer).",
        ),
        click.option("--resume", metavar="DB:CURSOR", help="Continue an interrupted scan from the cursor it printed."),
        click.option(
            "--memory-samples",
            type=click.IntRange(min=1, max=64),
            default=DEFAULT_MEMORY_SAMPLES,
            show_default=True,
            help="MEMORY USAGE … SAMPLES n (never 0: that walks every element).",
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(min=0.5),
            default=DEFAULT_TIMEOUT_SECONDS,
            show_default=True,
            help="Seconds per reply.",
        ),
        click.option(
            "--allow-stale",
            is_flag=True,
            help="Scan a replica that is not in sync with its master (refused by default: its keys may be missing "
            "or old).",
        ),
        click.option(
            "--cluster/--no-cluster",
            "cluster",
            default=None,
            help="A cluster node is scanned as its whole cluster (default: detected); --no-cluster scans just that "
            "node; --cluster fails when the address is not a cluster node.",
        ),
        click.option(
            "--prefer",
            type=click.Choice(("masters", "replicas")),
            default="masters",
            show_default=True,
            help="Cluster: read each shard from its master, or from a replica in sync (READONLY; the master when "
            "none is, with a note).",
        ),
        click.option(
            "--map",
            "address_map",
            multiple=True,
            metavar="HOST:PORT=HOST:PORT",
            help="Cluster: reach a node the cluster announces at the first address at the second (NAT, docker). "
            "Repeatable.",
        ),
        click.option(
            "--concurrency",
            type=click.IntRange(min=1),
            default=DEFAULT_CONCURRENCY,
            show_default=True,
            help="Cluster: shards read at once, each in a worker process.",
        ),
        click.option(
            "--executor",
            metavar="SPEC",
            help="Where the shards are read: local (a process pool, the default), inline (this process), or "
            "dask://SCHEDULER:8786 (a Dask cluster; pip install 'rediscipline[dask]').",
        ),
        click.option(
            "--traffic",
            type=click.FloatRange(min=0, min_open=True, max=MAX_DURATION),
            metavar="SECONDS",
            help="Live: after the scan, observe what the server (every master of a cluster) is sent for this many "
            f"seconds (at most {MAX_DURATION:g}), as `rediscipline traffic` does, into the same report.",
        ),
        click.option(
            "--summary",
            is_flag=True,
            help="Live: probe what the full keyspace summary needs (TYPE, PTTL, MEMORY USAGE, lengths) even when "
            "no enabled rule does.",
        ),
        click.option(
            "--deep", is_flag=True, help="Dumps: walk every element, for the largest element of every collection."
        ),
        click.option(
            "--no-verify", "no_verify", is_flag=True, help="Dumps: do not check the CRC-64 (read a damaged file)."
        ),
        click.option(
            "--allocator",
            type=click.Choice(("jemalloc", "jemalloc16", "libc")),
            default=DEFAULT_ALLOCATOR,
            show_default=True,
            help="Dumps: the server's allocator, for memory estimates (jemalloc16: Debian/Ubuntu packages).",
        ),
        click.option(
            "--jobs",
            type=click.IntRange(min=1),
            metavar="N",
            help="Dumps: read up to N files at once in worker processes, rules included (default: one per CPU "
            "from 32 MB of input; 1: everything in one process).",
        ),
        click.option(
            "--progress/--no-progress", "show_progress", default=None, help="Progress bar (default: on a terminal)."
        ),
    ]
    return functools.reduce(lambda f, d: d(f), reversed(decorators), func)


def scan_report(params: dict[str, Any], settings: Settings, baseline: Path | None) -> Report:
    """Scan the dumps or the server `params` name (the options of `scan_options`) and return the report."""
    from rediscipline.cli.progress import scan_progress

    targets: tuple[str, ...] = params["targets"]
    dumps = [t for t in targets if not is_url(t)]
    if dumps:
        if len(dumps) != len(targets):
            raise click.UsageError("give either one server URL or dump files, not both")
        live_only = {
            "--user": params["user"], "--password-env": params["password_env"], "--sample": params["sample"],
            "--seed": params["seed"], "--max-ops": params["max_ops"], "--resume": params["resume"],
            "--allow-stale": params["allow_stale"] or None, "--summary": params["summary"] or None,
            "--cluster/--no-cluster": params["cluster"], "--map": params["address_map"] or None,
            "--prefer": None if params["prefer"] == "masters" else params["prefer"], "--traffic": params["traffic"],
        }  # fmt: skip
        given = [name for name, value in live_only.items() if value is not None]
        if given:
            raise click.UsageError(f"{', '.join(given)} only apply to a live server, not to dump files")
        from rediscipline.api.rdb import RdbScanOptions, scan_rdb

        rdb_options = RdbScanOptions(
            paths=tuple(dumps),
            deep=params["deep"],
            verify=not params["no_verify"],
            db=params["db"],
            match=params["match"],
            type=params["key_type"],
            jobs=params["jobs"],
            allocator=params["allocator"],
            baseline=baseline,
        )
        if params["executor"] is None:
            with scan_progress("reading", params["show_progress"], unit="bytes") as progress:
                return scan_rdb(rdb_options, settings, progress=progress)
        from rediscipline.api.executors import executor_for

        with (
            executor_for(params["executor"], concurrency=params["concurrency"]) as executor,
            scan_progress("reading", params["show_progress"], unit="bytes") as progress,
        ):
            return scan_rdb(rdb_options, settings, progress=progress, executor=executor)
    if params["deep"] or params["no_verify"] or params["jobs"] is not None or params["allocator"] != DEFAULT_ALLOCATOR:
        raise click.UsageError("--deep, --no-verify, --jobs and --allocator only apply to dump files")
    from rediscipline.api.executors import executor_for
    from rediscipline.api.live import scan_live  # redis-py loads only for live scans

    options = live_options(params, targets[0] if targets else None)
    cluster = cluster_options(params)
    with (
        executor_for(params["executor"], concurrency=params["concurrency"]) as executor,
        scan_progress("scanning", params["show_progress"]) as progress,
    ):
        return scan_live(
            options,
            settings,
            progress=progress,
            summary=params["summary"],
            baseline=baseline,
            cluster=cluster,
            executor=executor,
            traffic=params["traffic"],
        )


def cluster_options(params: dict[str, Any]) -> ClusterOptions:
    """How a cluster node among the targets is read, as `params` say (`--cluster`, `--prefer`, `--map`)."""
    from rediscipline.api.live import ClusterOptions

    return ClusterOptions(cluster=params["cluster"], prefer=params["prefer"], address_map=params["address_map"])


def live_options(params: dict[str, Any], url: str | None) -> LiveScanOptions:
    """The live scan options `params` give for the server at `url`."""
    from rediscipline.api.live import LiveScanOptions

    return LiveScanOptions(
        url=url,
        user=params["user"],
        password_env=params["password_env"],
        db=params["db"],
        match=params["match"],
        type=params["key_type"],
        sample=params["sample"],
        seed=params["seed"],
        batch=params["batch"],
        max_ops=params["max_ops"],
        resume=params["resume"],
        memory_samples=params["memory_samples"],
        timeout=params["timeout"],
        allow_stale=params["allow_stale"],
    )


def scan_fleet_of(params: dict[str, Any], settings: Settings) -> FleetReport:
    """Several server URLs: each a target of a fleet report, named by its address."""
    from rediscipline.api.executors import executor_for
    from rediscipline.api.fleet import FleetTarget, scan_fleet

    if params["resume"] is not None:
        raise click.UsageError("--resume continues the scan of one server: give one URL")
    cluster = cluster_options(params)
    targets = [FleetTarget(url, live=live_options(params, url), cluster=cluster) for url in params["targets"]]
    with executor_for(params["executor"], concurrency=params["concurrency"]) as executor:
        return scan_fleet(targets, settings, executor=executor, command="scan")


@click.command("scan")
@scan_options
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings not recorded in this baseline file (`rediscipline baseline create --scan`).",
)
@settings_options
@output_options(tuple(RENDERERS))
@patterns_option
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are findings.")
def scan_command(
    *,
    baseline: Path | None,
    output_format: str,
    output: Path | None,
    color: str,
    exit_zero: bool,
    patterns_shown: int | None,
    **params: Any,
) -> None:
    """Audit a running Redis or Valkey server, or RDB dumps, against every rule the input can show.

    \b
    Live (URL, default $REDIS_URL): read-only and gentle. SCAN plus bounded per-key probes, never KEYS, EVAL,
    DEBUG or whole-collection reads. Works with a user that may only read, scan, INFO and CONFIG GET.
    Only what the enabled rules need is probed; --summary adds what the full keyspace summary needs.
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
    settings = settings_for(overrides_from(params))
    targets: tuple[str, ...] = params["targets"]
    if len(targets) > 1 and all(is_url(target) for target in targets):
        from rediscipline.cli.fleet import FLEET_FORMATS, write_fleet  # the fleet report only for several servers

        if output_format not in FLEET_FORMATS:
            raise click.UsageError(f"several servers make a fleet report: --format {', '.join(FLEET_FORMATS)}")
        if baseline is not None:
            raise click.UsageError("--baseline applies to one report: scan one server, or use `rediscipline fleet`")
        if params["traffic"] is not None:
            raise click.UsageError(
                "--traffic observes one server (or one cluster): scan one, or use `rediscipline traffic`"
            )
        fleet = scan_fleet_of(params, settings)
        write_fleet(fleet, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)
    report = showing_patterns(scan_report(params, settings, baseline), patterns_shown)
    server = report.stats.server
    if server is not None and server.stopped is not None:  # gave up: the partial report, then exit 2
        render_report(report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)
        again = f": resume with --resume {server.resume_cursor}" if server.resume_cursor else ""
        click.echo(f"rediscipline: error: scan stopped, partial report written; {server.stopped}{again}", err=True)
        sys.exit(EXIT_ERROR)
    write_report(report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)


def is_url(target: str) -> bool:
    """A server address (scheme://…, redis:…, unix:…) rather than a dump file or directory."""
    return "://" in target or target.lower().startswith(("redis:", "rediss:", "unix:"))
