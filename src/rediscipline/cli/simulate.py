"""`rediscipline simulate eviction TRACE`: replay an access trace through a server's eviction, per policy and
size, and judge the predictions; `rediscipline simulate expiry DUMP...`: follow a keyspace's TTLs through the
active expire cycle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from rediscipline.api import settings_for
from rediscipline.cli.options import output_options, overrides_from, settings_options, size_value, write_report
from rediscipline.redis_meta.allocation import ALLOCATORS
from rediscipline.render import RENDERERS
from rediscipline.simulate.eviction import (
    DEFAULT_DECAY_TIME,
    DEFAULT_HZ,
    DEFAULT_LOG_FACTOR,
    DEFAULT_SAMPLES,
    POLICIES,
)
from rediscipline.simulate.memory import DEFAULT_ALLOCATOR, DEFAULT_SERVER, model_for
from rediscipline.sources.live.defaults import DEFAULT_TIMEOUT_SECONDS
from rediscipline.sources.simulation.eviction_source import DEFAULT_POLICIES
from rediscipline.sources.simulation.traces import DEFAULT_RATE, DEFAULT_SIZE


def _size_or_none(_ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    return None if value is None else size_value(value, param)


def _sizes(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[int, ...]:
    """Sizes as redis.conf writes them (`64mb`, `500k`, bytes), repeated or separated by commas."""
    del ctx
    return tuple(dict.fromkeys(size_value(word, param) for value in values for word in value.split(",")))


def _policies(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[str, ...]:
    del ctx
    policies = [word.strip().lower() for value in values for word in value.split(",") if word.strip()]
    for policy in policies:
        if policy not in POLICIES:
            raise click.BadParameter(f"{policy!r} is not a maxmemory-policy: one of {', '.join(POLICIES)}", param=param)
    return tuple(dict.fromkeys(policies)) or DEFAULT_POLICIES


@click.group("simulate")
def simulate_command() -> None:
    """What-if: a trace through the server's eviction per policy and maxmemory; a dump's TTLs through its expiry."""


def _server(_ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    try:
        model_for(value or DEFAULT_SERVER, DEFAULT_ALLOCATOR)
    except ValueError as error:
        raise click.BadParameter(str(error), param=param) from None
    return value


@simulate_command.command("eviction")
@click.argument("trace", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--maxmemory",
    "maxmemory",
    multiple=True,
    callback=_sizes,
    metavar="SIZE[,SIZE...]",
    help="The server's maxmemory to replay with (bytes, or with k, kb, m, mb, g, gb as redis.conf); repeatable. "
    "Default: a tenth of the trace's working set to all of it, in ten steps.",
)
@click.option(
    "--policy",
    "policies",
    multiple=True,
    callback=_policies,
    metavar="POLICY[,POLICY...]",
    help=f"maxmemory-policy values to replay, repeatable: {', '.join(POLICIES)}. "
    f"Default: {', '.join(DEFAULT_POLICIES)}.",
)
@click.option("--configured-policy", type=click.Choice(POLICIES), help="The policy the server runs with now.")
@click.option(
    "--samples", type=click.IntRange(1, 64), default=DEFAULT_SAMPLES, show_default=True, help="maxmemory-samples."
)
@click.option("--lfu-log-factor", type=click.IntRange(0, 1_000_000), default=DEFAULT_LOG_FACTOR, show_default=True)
@click.option(
    "--lfu-decay-time",
    type=click.IntRange(0, 1_000_000),
    default=DEFAULT_DECAY_TIME,
    show_default=True,
    help="Minutes per step of decay of the LFU counter (0: never).",
)
@click.option("--hz", type=click.IntRange(1, 500), default=DEFAULT_HZ, show_default=True)
@click.option(
    "--baseline-memory",
    type=str,
    default=None,
    callback=_size_or_none,
    metavar="SIZE",
    help="The server's used_memory with no key (default: the memory model's, measured on --server's closest "
    "server here).",
)
@click.option(
    "--server",
    callback=_server,
    metavar="FLAVOR-VERSION",
    help="The server whose memory layout is counted: redis-7.0 (Redis 6.0 to 7.4, Valkey to 8.0), redis-8.2, "
    f"valkey-9.1 (Valkey 8.1 and later)... Default: the one a --save-trace file names, else {DEFAULT_SERVER}.",
)
@click.option(
    "--allocator",
    type=click.Choice(tuple(ALLOCATORS)),
    help="The server's allocator: jemalloc16 for Debian/Ubuntu packages, jemalloc for official builds and "
    f"Docker images, libc for MALLOC=libc builds. Default: libc when a --save-trace file says so, else "
    f"{DEFAULT_ALLOCATOR}.",
)
@click.option(
    "--default-size",
    type=click.IntRange(0),
    default=DEFAULT_SIZE,
    show_default=True,
    metavar="BYTES",
    help="A value's size where the trace gives none (a key only read in a MONITOR trace).",
)
@click.option(
    "--rate",
    type=click.IntRange(1),
    default=DEFAULT_RATE,
    show_default=True,
    metavar="PER_SECOND",
    help="Accesses per second assumed for a trace without times.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The sampling's random seed.")
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings not recorded in this baseline file.",
)
@settings_options
@output_options(tuple(RENDERERS))
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are findings.")
def eviction_command(
    *,
    trace: Path,
    maxmemory: tuple[int, ...],
    policies: tuple[str, ...],
    configured_policy: str | None,
    samples: int,
    lfu_log_factor: int,
    lfu_decay_time: int,
    hz: int,
    baseline_memory: int | None,
    server: str | None,
    allocator: str | None,
    default_size: int,
    rate: int,
    seed: int,
    baseline: Path | None,
    output_format: str,
    output: Path | None,
    color: str,
    exit_zero: bool,
    **params: Any,
) -> None:
    """Replay an access trace through the server's eviction, for each policy and maxmemory: hit ratios, keys
    evicted by pattern, OOM errors.

    \b
    Each access is a GET and, on a miss, a SET of a value of its size. TRACE is a `traffic --monitor
    --save-trace` file, a MONITOR capture (`redis-cli monitor > capture.txt`) or a text file of one access
    per line: `[ts_ms] key size`. The replay follows the server's sampled algorithm (the eviction pool of
    16, maxmemory-samples, the 1 s LRU clock, the LFU counter) and counts memory as --server does.
    Exit code: 0 clean, 1 findings at or above --fail-on, 2 bad input.

    \b
    rediscipline simulate eviction trace.jsonl
    rediscipline simulate eviction accesses.txt --maxmemory 64mb,128mb --policy allkeys-lru,allkeys-lfu
    """
    from rediscipline.api.simulate import EvictionOptions, simulate_eviction

    settings = settings_for(overrides_from(params))
    options = EvictionOptions(
        trace=trace,
        policies=policies,
        maxmemory=maxmemory,
        samples=samples,
        log_factor=lfu_log_factor,
        decay_time=lfu_decay_time,
        hz=hz,
        seed=seed,
        default_size=default_size,
        rate=rate,
        baseline=baseline_memory,
        server=server,
        allocator=allocator,
        configured_policy=configured_policy,
    )
    report = simulate_eviction(options, settings, baseline=baseline)
    write_report(report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)


def _jitter(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> tuple[tuple[str, float], ...]:
    """`PATTERN=PCT%`: the TTLs of the keys matching the glob PATTERN grow by a random share of up to PCT %."""
    del ctx
    found = []
    for value in values:
        pattern, equals, share = value.rpartition("=")
        number = share.strip().removesuffix("%")
        try:
            percent = float(number)
        except ValueError:
            percent = -1.0
        if not equals or not pattern or not share.strip().endswith("%") or not 0 < percent <= 1000:
            raise click.BadParameter(f"{value!r} is not PATTERN=PERCENT% (e.g. 'session:*=10%')", param=param)
        found.append((pattern, percent / 100))
    return tuple(found)


@simulate_command.command("expiry")
@click.argument("inputs", nargs=-1, required=True, metavar="URL | REPORT.json | DUMP...")
@click.option(
    "--seconds", type=click.FloatRange(min=1, max=30 * 86400), default=3600.0, show_default=True,
    help="How long to follow the keys from the source's time (the dump's creation, the scan's start).",
)  # fmt: skip
@click.option("--step", type=click.FloatRange(min=0.1), default=60.0, show_default=True, help="Seconds between points.")
@click.option("--hz", type=click.IntRange(1, 500), help="The server's hz (default: the source's, else 10).")
@click.option(
    "--effort", type=click.IntRange(1, 10), help="active-expire-effort (default: the source's, else 1)."
)  # fmt: skip
@click.option(
    "--lazyfree/--no-lazyfree", default=None,
    help="As with lazyfree-lazy-expire yes / no: values freed in the background (default: the source's, else no).",
)  # fmt: skip
@click.option(
    "--maxmemory", callback=_size_or_none,
    metavar="SIZE", help="The server's maxmemory, for EXP001 (default: the source's; a dump has none).",
)  # fmt: skip
@click.option(
    "--jitter", "jitter", multiple=True, callback=_jitter, metavar="PATTERN=PCT%",
    help="What if the TTLs of the keys matching PATTERN grew by a random share of up to PCT %? Repeatable.",
)  # fmt: skip
@click.option(
    "--delete-us", type=click.FloatRange(min=0),
    help="µs the server spends deleting one expired key, plus its value's freeing without --lazyfree (default: "
    "as measured on Redis 7.0, 0.85 µs and 0.1 µs per KB).",
)  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="The keys' places in the table.")
@click.option("--user", metavar="NAME", help="A server: ACL user name (overrides the URL's).")
@click.option(
    "--password-env", metavar="VAR", help="A server: read the password from environment variable VAR (never printed)."
)  # fmt: skip
@click.option(
    "--sample", type=click.IntRange(min=1), metavar="N",
    help="A server: read the TTLs of about N keys drawn at random (the server's own count of keys with a TTL "
    "scales them).",
)  # fmt: skip
@click.option(
    "--max-ops", type=click.IntRange(min=100), metavar="N", help="A server: send at most N commands a second."
)
@click.option(
    "--timeout", type=click.FloatRange(min=0.5), default=DEFAULT_TIMEOUT_SECONDS, show_default=True,
    help="A server: seconds per reply.",
)  # fmt: skip
@click.option(
    "--progress/--no-progress", "show_progress", default=None, help="A server: progress bar (default: on a terminal)."
)  # fmt: skip
@settings_options
@output_options(tuple(RENDERERS))
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are findings.")
def expiry_command(
    *,
    inputs: tuple[str, ...],
    seconds: float,
    step: float,
    hz: int | None,
    effort: int | None,
    lazyfree: bool | None,
    maxmemory: int | None,
    jitter: tuple[tuple[str, float], ...],
    delete_us: float | None,
    seed: int,
    user: str | None,
    password_env: str | None,
    sample: int | None,
    max_ops: int | None,
    timeout: float,
    show_progress: bool | None,
    output_format: str,
    output: Path | None,
    color: str,
    exit_zero: bool,
    **params: Any,
) -> None:
    """Follow the keys with a TTL of a server, a report or dumps through the server's active expire cycle, when
    nothing reads them: expired keys still in memory over time, and where the cycle works hardest.

    \b
    A server is scanned first (TTLs and memory, as `scan` reads them), a JSON report (`scan --format json`)
    is read; both rebuild the keys from the expiry timeline and take hz, dynamic-hz, active-expire-effort,
    lazyfree-lazy-expire and maxmemory from the server. Dumps give every key. The cycle is the server
    version's: Redis 6.0+ sweeps a cursor about 20 keys a tick (hz), Redis 5 samples at random.
    Exit code: 0 clean, 1 findings at or above --fail-on, 2 bad input.

    \b
    rediscipline simulate expiry dump.rdb
    rediscipline simulate expiry redis://cache:6379 --password-env REDIS_PASSWORD --sample 100000
    rediscipline simulate expiry scan.json --seconds 86400 --step 600 --jitter 'session:*=10%'
    """
    from rediscipline.api.simulate import ExpiryOptions, simulate_expiry
    from rediscipline.cli.scan import is_url
    from rediscipline.sources.simulation.expiry_source import DEFAULT_DELETE_US

    settings = settings_for(overrides_from(params))
    options = ExpiryOptions(
        inputs=inputs,
        seconds=seconds,
        step=step,
        hz=hz,
        effort=effort,
        lazyfree=lazyfree,
        maxmemory=maxmemory,
        delete_us=DEFAULT_DELETE_US if delete_us is None else delete_us,
        seed=seed,
        jitter=jitter,
    )
    servers = [target for target in inputs if is_url(target)]
    server_only = {"--user": user, "--password-env": password_env, "--sample": sample, "--max-ops": max_ops}
    if not servers:
        given = [name for name, value in server_only.items() if value is not None]
        if given:
            raise click.UsageError(f"{', '.join(given)} only apply to a server URL")
        report = simulate_expiry(options, settings)
    else:
        if len(inputs) != 1:
            raise click.UsageError("give one server URL, one JSON report or dump files")
        from rediscipline.api.live import LiveScanOptions
        from rediscipline.cli.progress import scan_progress

        live = LiveScanOptions(
            url=servers[0], user=user, password_env=password_env, sample=sample, max_ops=max_ops, timeout=timeout
        )
        with scan_progress("scanning", show_progress) as progress:
            report = simulate_expiry(options, settings, live=live, progress=progress)
    write_report(report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)
