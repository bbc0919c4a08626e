"""`rediscipline fleet INVENTORY.toml` and `rediscipline scan URL URL...`: many targets, one fleet report."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from rediscipline.api import settings_for
from rediscipline.cli.exits import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from rediscipline.cli.options import open_output, output_options, overrides_from, settings_options, use_color
from rediscipline.model.fleet import FleetReport
from rediscipline.settings.layering import Settings
from rediscipline.sources.live.defaults import DEFAULT_CONCURRENCY

FLEET_FORMATS = ("text", "json", "html", "markdown")


def concurrency_options(func: Any) -> Any:
    """`--concurrency` and `--executor`: how many targets are read at once, and where."""
    func = click.option(
        "--executor",
        metavar="SPEC",
        help="Where targets are read: local (a process pool, the default), inline (this process), or "
        "dask://SCHEDULER:8786 (a Dask cluster; pip install 'rediscipline[dask]').",
    )(func)
    return click.option(
        "--concurrency",
        type=click.IntRange(min=1),
        default=DEFAULT_CONCURRENCY,
        show_default=True,
        help="Targets read at once, each in a worker process.",
    )(func)


def write_fleet(fleet: FleetReport, settings: Settings, *, output_format: str, output: Path | None, color: str,
                exit_zero: bool) -> None:  # fmt: skip
    """Render the fleet report and exit: 2 when a target could not be read (after the report), else 1 when a
    finding of any target reaches `fail-on` (unless --exit-zero), else 0."""
    from rediscipline.render.fleet import FLEET_RENDERERS

    with open_output(output) as stream:
        FLEET_RENDERERS[output_format](fleet, stream, settings.lang, output is None and use_color(color, sys.stdout))
    failed = fleet.failed
    if failed:
        click.echo(
            f"rediscipline: error: {len(failed)} of {len(fleet.targets)} targets could not be read "
            "(their rows in the report say why)",
            err=True,
        )
        sys.exit(EXIT_ERROR)
    worst = fleet.max_severity()
    sys.exit(EXIT_FINDINGS if worst is not None and worst >= settings.fail_on and not exit_zero else EXIT_CLEAN)


@click.command("fleet")
@click.argument("inventory", type=click.Path(dir_okay=False, path_type=Path))
@settings_options
@output_options(FLEET_FORMATS)
@concurrency_options
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are findings.")
def fleet_command(
    *,
    inventory: Path,
    output_format: str,
    output: Path | None,
    color: str,
    exit_zero: bool,
    concurrency: int,
    executor: str | None,
    **params: Any,
) -> None:
    """Audit every server, cluster and dump an inventory lists, at once, into one fleet report.

    \b
    The inventory (TOML) names each target, its tags (team, env...) and its options; passwords come from
    environment variables (`password-env`), never from the file. Targets are read `--concurrency` at a time
    in worker processes, or on a Dask cluster (`--executor dask://scheduler:8786`). The report lists the
    targets worst first, and the JSON holds each target's whole report.
    Exit code: 0 clean, 1 findings at or above --fail-on on some target, 2 bad input or a target that could
    not be read (after the report).

    \b
    rediscipline fleet fleet.toml
    rediscipline fleet fleet.toml --format json --output nightly.json --executor dask://scheduler:8786
    """
    from rediscipline.api.executors import executor_for
    from rediscipline.api.fleet import scan_fleet, targets_from_inventory
    from rediscipline.settings.inventory import load_inventory

    settings = settings_for(overrides_from(params))
    targets = targets_from_inventory(load_inventory(inventory))
    with executor_for(executor, concurrency=concurrency) as running:
        fleet = scan_fleet(targets, settings, executor=running)
    write_fleet(fleet, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)
