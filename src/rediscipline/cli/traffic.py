"""`rediscipline traffic [URL]`: observe what a live server is sent for a short window, and judge it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from rediscipline.api import settings_for
from rediscipline.cli.options import output_options, overrides_from, settings_options, size_value, write_report
from rediscipline.render import RENDERERS
from rediscipline.sources.live.defaults import DEFAULT_TIMEOUT_SECONDS
from rediscipline.sources.traffic.defaults import DEFAULT_DURATION, MAX_DURATION
from rediscipline.sources.traffic.hotkeys import DEFAULT_MAX_KEYS
from rediscipline.sources.traffic.monitor import DEFAULT_MAX_BYTES
from rediscipline.sources.traffic.queues import REASON_OPTION


def _size(ctx: click.Context, param: click.Parameter, value: str) -> int:
    del ctx
    return size_value(value, param)


@click.command("traffic")
@click.argument("url", required=False, metavar="[URL]")
@click.option(
    "--duration",
    type=float,
    default=DEFAULT_DURATION,
    show_default=True,
    metavar="SECONDS",
    help=f"How long to observe, more than 0 and at most {MAX_DURATION:g} s (Ctrl-C ends the window early).",
)
@click.option(
    "--hot-keys-scan",
    type=click.IntRange(min=0),
    default=DEFAULT_MAX_KEYS,
    show_default=True,
    metavar="N",
    help="Under an LFU policy: read the access counter (OBJECT FREQ) of at most N keys to find the hot ones (0: none).",
)
@click.option(
    "--queue",
    "queues",
    multiple=True,
    metavar="KEY",
    help="A list or stream used as a queue (in the URL's database): its length at each end of the window, a "
    "stream's consumer groups. Repeatable; declared namespaces of one list or stream key are read too.",
)
@click.option(
    "--monitor",
    is_flag=True,
    help="Also take a MONITOR sample inside the window (after its first fifth, at most 2 s, which measures the "
    "throughput MONITOR's cost is compared with): hot keys by accesses and bytes, multi-key and MULTI sizes, "
    "writes without a TTL, repeated TTLs, blocking reads without a timeout, who sent what. MONITOR can cost "
    "the server half its throughput while it runs: the report says what it cost.",
)
@click.option(
    "--monitor-max-bytes",
    type=str,
    default=str(DEFAULT_MAX_BYTES),
    callback=_size,
    show_default="64mb",
    metavar="SIZE",
    help="Stop the MONITOR sample after reading this much (bytes, or with k, kb, m, mb, g, gb as redis.conf).",
)
@click.option(
    "--save-trace",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE",
    help="With --monitor: write the sample's key accesses (time, database, command, size, key) to FILE as JSON "
    "lines, replacing it only when the sample is complete.",
)
@click.option("--user", metavar="NAME", help="ACL user name (overrides the URL's).")
@click.option("--password-env", metavar="VAR", help="Read the password from environment variable VAR (never printed).")
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.5),
    default=DEFAULT_TIMEOUT_SECONDS,
    show_default=True,
    help="Seconds per reply.",
)
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings not recorded in this baseline file.",
)
@settings_options
@output_options(tuple(RENDERERS))
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are findings.")
def traffic_command(
    *,
    url: str | None,
    duration: float,
    hot_keys_scan: int,
    queues: tuple[str, ...],
    monitor: bool,
    monitor_max_bytes: int,
    save_trace: Path | None,
    user: str | None,
    password_env: str | None,
    timeout: float,
    baseline: Path | None,
    output_format: str,
    output: Path | None,
    color: str,
    exit_zero: bool,
    **params: Any,
) -> None:
    """Observe what a running server is sent for a short window: commands, errors, slow calls, clients.
    A cluster node: every master of its cluster, over the same window, a section each.

    \b
    Read-only and cheap: about a dozen commands in all (INFO and TIME at each end of the window, CONFIG GET,
    SLOWLOG GET, CLIENT LIST), whatever the traffic; MONITOR only with --monitor, never CONFIG SET. Under an LFU
    maxmemory-policy, hot keys from the keys' access counters: OBJECT FREQ of every key (at most
    --hot-keys-scan) before the window, and of the hottest again after it. The window's
    commands are judged by the command rules (KEYS, FLUSHALL, admin commands called in the window), its
    clients by the traffic rules (pub/sub channels per client, output buffers near their limit).
    Exit code: 0 clean, 1 findings at or above --fail-on, 2 bad input.

    \b
    rediscipline traffic redis://cache.internal:6379 --duration 30
    rediscipline traffic redis://cache.internal:6379 --monitor --save-trace trace.jsonl
    rediscipline traffic rediss://ops@cache.example.com:6380 --password-env REDIS_PASSWORD --format json
    """
    from rediscipline.api.traffic import TrafficOptions, observe_traffic  # redis-py loads only for this command

    if save_trace is not None and not monitor:
        raise click.UsageError("--save-trace writes what a MONITOR sample saw: add --monitor")
    settings = settings_for(overrides_from(params))
    options = TrafficOptions(
        url=url,
        user=user,
        password_env=password_env,
        duration=duration,
        timeout=timeout,
        hot_keys_scan=hot_keys_scan,
        queues=tuple((os.fsencode(key), REASON_OPTION) for key in queues),
        monitor=monitor,
        monitor_max_bytes=monitor_max_bytes,
        save_trace=save_trace,
    )
    report = observe_traffic(options, settings, baseline=baseline)
    write_report(report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)
