"""`rediscipline keys [FILE|-]...`: lint key names, one per line (e.g. from `redis-cli --scan`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from rediscipline.api import KeyInput, check_keys, settings_for
from rediscipline.cli.options import (
    output_options,
    overrides_from,
    patterns_option,
    settings_options,
    showing_patterns,
    write_report,
)
from rediscipline.model.report import Report
from rediscipline.render import RENDERERS
from rediscipline.settings.layering import Settings
from rediscipline.sources.keylist import FORMATS

input_format_option = click.option(
    "--input-format",
    type=click.Choice(FORMATS),
    default="raw",
    show_default=True,
    help="raw lines, redis-cli --quoted-output lines, or JSON lines with key / key_b64.",
)


def keys_report(files: tuple[str, ...], input_format: str, settings: Settings, baseline: Path | None) -> Report:
    """Check the key lists `files` (standard input when there are none) and return the report."""
    inputs = [KeyInput(path, input_format) for path in (files or ("-",))]
    for item in inputs:
        if item.path != "-" and Path(item.path).is_dir():
            raise click.BadParameter(f"{item.path} is a directory", param_hint="FILE")
    return check_keys(inputs, settings, baseline=baseline)


@click.command("keys")
@click.argument("files", nargs=-1, metavar="[FILE|-]...")
@input_format_option
@click.option(
    "--baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings not recorded in this baseline file (`rediscipline baseline create --keys`).",
)
@settings_options
@output_options(tuple(RENDERERS))
@patterns_option
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are findings.")
def keys_command(
    *,
    files: tuple[str, ...],
    input_format: str,
    baseline: Path | None,
    output_format: str,
    output: Path | None,
    color: str,
    exit_zero: bool,
    patterns_shown: int | None,
    **params: Any,
) -> None:
    """Check key names against the naming rules; findings are grouped by key pattern.

    \b
    redis-cli --scan | rediscipline keys -
    rediscipline keys keys.txt --lang zh
    """
    settings = settings_for(overrides_from(params))
    report = showing_patterns(keys_report(files, input_format, settings, baseline), patterns_shown)
    write_report(report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)
