"""`rediscipline check PATH...`: check Python code (and redis.conf / ACL files) before it ships."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from rediscipline.api.code import CodeCheckOptions, CodeCheckResult, check_code
from rediscipline.api.defaults import settings_for
from rediscipline.cli.exits import EXIT_ERROR
from rediscipline.cli.options import output_options, overrides_from, render_report, settings_options
from rediscipline.render import RENDERERS
from rediscipline.settings.layering import Settings
from rediscipline.sources.code.files import FileSelection

F = TypeVar("F", bound=Callable[..., Any])


def selection_options(func: F) -> F:
    """--include/--exclude/--no-gitignore: which files under the given folders are read."""
    decorators = [
        click.argument("paths", nargs=-1, metavar="[PATH]..."),
        click.option(
            "--exclude", multiple=True, metavar="GLOB", help="Skip files matching this gitignore-style glob (tests/**)."
        ),
        click.option(
            "--include", multiple=True, metavar="GLOB", help="Also read files matching this glob as Python (*.pyw)."
        ),
        click.option("--no-gitignore", is_flag=True, help="Read files that .gitignore excludes too."),
    ]
    return functools.reduce(lambda f, d: d(f), reversed(decorators), func)


def run_check(
    params: dict[str, Any], baseline: Path | None, *, apply_baseline: bool
) -> tuple[CodeCheckResult, Settings]:
    """Load the settings and check the paths; print every file that could not be parsed, one line each."""
    settings = settings_for(overrides_from(params))
    selection = FileSelection(
        include=tuple(params.get("include", ())),
        exclude=tuple(params.get("exclude", ())),
        gitignore=not params.get("no_gitignore", False),
    )
    options = CodeCheckOptions(tuple(params.get("paths") or (".",)), selection, baseline)
    result = check_code(options, settings, apply_baseline=apply_baseline)
    for problem in result.problems:
        click.echo(f"rediscipline: error: {problem}", err=True)
    return result, settings


@click.command("check")
@selection_options
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings not recorded in this baseline file (`rediscipline baseline create`).",
)
@settings_options
@output_options(tuple(RENDERERS))
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are findings.")
def check_command(
    *, baseline: Path | None, output_format: str, output: Path | None, color: str, exit_zero: bool, **params: Any
) -> None:
    """Check Python code that uses redis-py, and redis.conf / ACL files, against the conventions.

    Folders are searched for *.py files (respecting .gitignore); files named here are always read.
    Exit code: 0 clean, 1 findings at or above --fail-on, 2 a file could not be parsed or bad input.

    \b
    rediscipline check src/
    rediscipline check . --format sarif --output rediscipline.sarif
    rediscipline check src/ --baseline rediscipline-baseline.json
    rediscipline check deploy/redis.conf deploy/users.acl
    """
    result, settings = run_check(params, baseline, apply_baseline=True)
    code = render_report(
        result.report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero
    )
    sys.exit(EXIT_ERROR if result.problems else code)
