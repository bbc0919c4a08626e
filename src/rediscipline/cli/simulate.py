"""`rediscipline simulate eviction TRACE`: replay an access trace through a server's eviction, per policy and
size, and judge the predictions; `rediscipline simulate expiry DUMP...`: follow a keyspace's TTLs through the
active expire cycle."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from rediscipline.api import settings_for
from rediscipline.cli.options import output_options, overrides_from, settings_options, size_value, write_report
from rediscipline.render import RENDERERS
from rediscipline.simulate.eviction import (
    DEFAULT_DECAY_TIME,
    DEFAULT_HZ,
    DEFAULT_LOG_FACTOR,
    DEFAULT_SAMPLES,
    POLICIES,
)
from rediscipline.sources.simulation.eviction_source import DEFAULT_POLICIES
from rediscipline.sources.simulation.traces import DEFAULT_RATE, DEFAULT_SIZE


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
    callback=lambda _ctx, param, value: None if value is None else size_value(value, param),
    metavar="SIZE",
    help="The server's used_memory with no key (default: the memory model's, measured on Redis 7.0).",
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
    16, maxmemory-samples, the 1 s LRU clock, the LFU counter) and counts memory as Redis 7.0 does.
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
@click.argument("inputs", nargs=-1, required=True, metavar="DUMP...")
@click.option(
    "--seconds", type=click.FloatRange(min=1, max=30 * 86400), default=3600.0, show_default=True,
    help="How long to follow the keys from the dump's creation.",
)  # fmt: skip
@click.option("--step", type=click.FloatRange(min=0.1), default=60.0, show_default=True, help="Seconds between points.")
@click.option("--hz", type=click.IntRange(1, 500), default=10, show_default=True)
@click.option("--effort", type=click.IntRange(1, 10), default=1, show_default=True, help="active-expire-effort.")
@click.option("--lazyfree", is_flag=True, help="As with lazyfree-lazy-expire yes: values are freed in the background.")
@click.option(
    "--jitter", "jitter", multiple=True, callback=_jitter, metavar="PATTERN=PCT%",
    help="What if the TTLs of the keys matching PATTERN grew by a random share of up to PCT %? Repeatable.",
)  # fmt: skip
@click.option(
    "--delete-us", type=click.FloatRange(min=0), default=1.0, show_default=True,
    help="µs the server spends deleting one expired key (plus its value's freeing without --lazyfree).",
)  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="The keys' places in the table.")
@settings_options
@output_options(tuple(RENDERERS))
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are findings.")
def expiry_command(
    *,
    inputs: tuple[str, ...],
    seconds: float,
    step: float,
    hz: int,
    effort: int,
    lazyfree: bool,
    jitter: tuple[tuple[str, float], ...],
    delete_us: float,
    seed: int,
    output_format: str,
    output: Path | None,
    color: str,
    exit_zero: bool,
    **params: Any,
) -> None:
    """Follow a dump's keys with a TTL through the server's active expire cycle, when nothing reads them:
    expired keys still in memory over time, and where the cycle works hardest.

    \b
    The cycle as Redis 6.0-7.0 run it: a cursor sweeping each database's TTL table about 20 keys a tick
    (hz), loops repeated while the sample is stale, the time limit, fast cycles after it is hit.
    Exit code: 0 clean, 1 findings at or above --fail-on, 2 bad input.

    \b
    rediscipline simulate expiry dump.rdb
    rediscipline simulate expiry dump.rdb --seconds 86400 --step 600 --jitter 'session:*=10%'
    """
    from rediscipline.api.simulate import ExpiryOptions, simulate_expiry
    from rediscipline.simulate.expiry import ExpirySettings

    settings = settings_for(overrides_from(params))
    options = ExpiryOptions(
        inputs=inputs,
        seconds=seconds,
        step=step,
        settings=ExpirySettings(hz=hz, effort=effort, lazyfree=lazyfree, delete_us=delete_us, seed=seed),
        jitter=jitter,
    )
    report = simulate_expiry(options, settings)
    write_report(report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)
