"""`rediscipline diff OLD.json NEW.json`: what changed between two JSON reports; exit 1 on regressions only."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rediscipline.api.defaults import settings_for
from rediscipline.api.diff import TOP_PATTERNS, diff_files
from rediscipline.cli.exits import EXIT_CLEAN, EXIT_FINDINGS
from rediscipline.cli.options import open_output, use_color, writable_output
from rediscipline.model.severity import Severity
from rediscipline.model.text import LANGUAGES
from rediscipline.render.diff_json import render_diff_json
from rediscipline.render.diff_text import render_diff_text
from rediscipline.settings.loader import Overrides

RENDERERS = {"text": render_diff_text, "json": render_diff_json}


@click.command("diff")
@click.argument("old", metavar="OLD.json")
@click.argument("new", metavar="NEW.json")
@click.option(
    "--top",
    type=click.IntRange(min=0),
    default=TOP_PATTERNS,
    show_default=True,
    metavar="N",
    help="How many key patterns each list of the most grown keeps.",
)
@click.option(
    "--fail-on",
    type=click.Choice(Severity.choices()),
    help="Lowest severity of a new or worsened finding that exits with 1 (default: warning).",
)
@click.option("--lang", type=click.Choice(LANGUAGES), help="Language of the output: en or zh.")
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Convention file whose fail-on and lang apply (default: the nearest, as for the other commands).",
)
@click.option("--isolated", is_flag=True, help="Ignore every convention file.")
@click.option("--format", "output_format", type=click.Choice(tuple(RENDERERS)), default="text", show_default=True)
@click.option(
    "--output", type=click.Path(dir_okay=False, path_type=Path), callback=writable_output, help="Write to FILE."
)
@click.option("--color", type=click.Choice(("auto", "always", "never")), default="auto", show_default=True)
@click.option("--exit-zero", is_flag=True, help="Exit with 0 even when there are regressions.")
def diff_command(
    *,
    old: str,
    new: str,
    top: int,
    fail_on: str | None,
    lang: str | None,
    config: Path | None,
    isolated: bool,
    output_format: str,
    output: Path | None,
    color: str,
    exit_zero: bool,
) -> None:
    """Compare two JSON reports (scan, keys, check, a cluster's or a fleet's): findings new, fixed, worsened.

    Findings are matched by fingerprint; a regression is a new finding, or a worsened one, at or above
    --fail-on, and exits with 1, so a nightly job fails on regressions only. Either file may be `-`.

    \b
    rediscipline scan redis://cache:6379 --format json --output today.json
    rediscipline diff yesterday.json today.json
    rediscipline diff yesterday.json today.json --format json --top 20
    """
    settings = settings_for(Overrides(config=config, isolated=isolated, fail_on=fail_on, lang=lang))
    result = diff_files(old, new, top)
    with open_output(output) as stream:
        color_on = output is None and use_color(color, sys.stdout)
        RENDERERS[output_format](result, stream, settings.lang, color_on, settings.fail_on)
    failed = result.regressions(settings.fail_on) > 0
    sys.exit(EXIT_FINDINGS if failed and not exit_zero else EXIT_CLEAN)
