"""`rediscipline baseline create`: record today's findings so that CI fails only on new ones."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from rediscipline.cli.check import run_check, selection_options
from rediscipline.cli.common import settings_options, writable_output
from rediscipline.cli.exits import EXIT_ERROR
from rediscipline.cli.usage import CommandGroup
from rediscipline.suppress.baseline import write_baseline

DEFAULT_BASELINE = Path("rediscipline-baseline.json")


@click.group("baseline", cls=CommandGroup)
def baseline_command() -> None:
    """Adopt rediscipline on a legacy code base: fail only on findings the baseline does not hold."""


@baseline_command.command("create")
@selection_options
@click.option(
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=DEFAULT_BASELINE,
    show_default=True,
    callback=writable_output,
    help="The baseline file to write (replaced atomically).",
)
@settings_options
def create_command(*, output: Path, **params: Any) -> None:
    """Check PATHs like `rediscipline check` and record every finding in a baseline file.

    Findings are recorded by fingerprint (rule, file, function and statement text), so they still match
    after lines move. Then run `rediscipline check PATH --baseline FILE` in CI.

    \b
    rediscipline baseline create src/
    rediscipline check src/ --baseline rediscipline-baseline.json
    """
    result, _settings = run_check(params, None, apply_baseline=False)
    written = write_baseline(result.report.findings, output)
    click.echo(f"rediscipline: wrote {written} finding(s) from {result.files} file(s) to {output}", err=True)
    if result.problems:
        sys.exit(EXIT_ERROR)
