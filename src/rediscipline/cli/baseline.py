"""`rediscipline baseline create`: record today's findings so that CI fails only on new ones.

The findings of code (the default), of key lists (`--keys`) or of a server or dumps (`--scan`) are recorded;
`check`, `keys` and `scan` then take `--baseline FILE`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from rediscipline.cli.check import run_check, selection_options
from rediscipline.cli.exits import EXIT_ERROR
from rediscipline.cli.keys import input_format_option
from rediscipline.cli.options import settings_options, writable_output
from rediscipline.cli.scan import scan_source_options
from rediscipline.cli.usage import CommandGroup
from rediscipline.suppress.baseline import write_baseline

DEFAULT_BASELINE = Path("rediscipline-baseline.json")
#: Options that belong to one kind of input: given with another, they are a usage error.
CHECK_ONLY = ("exclude", "include", "no_gitignore")
KEYS_ONLY = ("input_format",)
SCAN_ONLY = (
    "user", "password_env", "db", "match", "key_type", "sample", "seed", "max_ops", "batch", "resume",
    "memory_samples", "timeout", "allow_stale", "summary", "deep", "no_verify", "allocator", "jobs", "show_progress",
)  # fmt: skip


@click.group("baseline", cls=CommandGroup)
def baseline_command() -> None:
    """Adopt rediscipline on a legacy code base: fail only on findings the baseline does not hold."""


@baseline_command.command("create")
@selection_options
@click.option("--keys", "from_keys", is_flag=True, help="PATHs are key lists (as `rediscipline keys` reads them).")
@click.option("--scan", "from_scan", is_flag=True, help="PATHs are a server URL or dumps (as `rediscipline scan`).")
@input_format_option
@scan_source_options
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_BASELINE,
    show_default=True,
    callback=writable_output,
    help="The baseline file to write (replaced atomically).",
)
@settings_options
@click.pass_context
def create_command(ctx: click.Context, /, *, output: Path, from_keys: bool, from_scan: bool, **params: Any) -> None:
    """Check PATHs like `rediscipline check` (or `keys` with --keys, `scan` with --scan) and record every
    finding in a baseline file.

    Code findings are recorded by fingerprint (rule, file, function and statement text), so they still
    match after lines move; key findings by rule, key pattern and kind of input (key list, server or dump).
    Then run the same command with `--baseline FILE` in CI.

    \b
    rediscipline baseline create src/
    rediscipline check src/ --baseline rediscipline-baseline.json
    redis-cli --scan | rediscipline baseline create --keys -
    rediscipline baseline create --scan redis://replica.internal:6379
    """
    if from_keys and from_scan:
        raise click.UsageError("give --keys or --scan, not both")
    mode = "keys" if from_keys else "scan" if from_scan else "check"
    wrong = [name for name in (*CHECK_ONLY, *KEYS_ONLY, *SCAN_ONLY) if _given(ctx, name) and not _belongs(name, mode)]
    if wrong:
        shown = ", ".join("--" + name.replace("_", "-").replace("key-type", "type") for name in wrong)
        verb = "does" if len(wrong) == 1 else "do"
        raise click.UsageError(f"{shown} {verb} not apply to {'code' if mode == 'check' else f'--{mode}'}")
    if mode == "check":
        result, _settings = run_check(params, None, apply_baseline=False)
        findings, counted, problems = result.report.findings, f"{result.files} file(s)", bool(result.problems)
    else:
        from rediscipline.api import settings_for
        from rediscipline.cli.options import overrides_from

        settings = settings_for(overrides_from(params))
        paths = tuple(params.get("paths") or ())
        if mode == "keys":
            from rediscipline.cli.keys import keys_report

            report = keys_report(paths, params["input_format"], settings, None)
        else:
            from rediscipline.cli.scan import scan_report

            report = scan_report({**params, "targets": paths}, settings, None)
        findings, counted, problems = report.findings, f"{report.stats.keys:,} key(s)", False
    written = write_baseline(findings, output)
    click.echo(f"rediscipline: wrote {written} finding(s) from {counted} to {output}", err=True)
    if problems:
        sys.exit(EXIT_ERROR)


def _given(ctx: click.Context, name: str) -> bool:
    return ctx.get_parameter_source(name) not in (None, ParameterSource.DEFAULT)


def _belongs(name: str, mode: str) -> bool:
    return (
        (name in CHECK_ONLY and mode == "check")
        or (name in KEYS_ONLY and mode == "keys")
        or (name in SCAN_ONLY and mode == "scan")
    )
