"""Options shared by the commands, output handling, and exit codes.

Exit codes (`rediscipline.cli.exits`): 0 clean; 1 findings at or above `--fail-on`; 2 usage, configuration or
input error (one line on stderr, never a traceback); 130 interrupted.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click

from rediscipline.cli.exits import EXIT_CLEAN, EXIT_FINDINGS
from rediscipline.model.report import PATTERNS_SHOWN, Report
from rediscipline.model.severity import Severity
from rediscipline.model.text import LANGUAGES
from rediscipline.redis_meta.libraries import KEY_MODES
from rediscipline.render import RENDERERS
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides
from rediscipline.sources.config.syntax import memory_bytes
from rediscipline.sources.errors import SourceError

if TYPE_CHECKING:
    from rich.console import Console

F = TypeVar("F", bound=Callable[..., Any])


def _split(values: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def settings_options(func: F) -> F:
    """--preset/--overlay/--config/--isolated/--select/--extend-select/--ignore/--fail-on/--lang."""
    decorators = [
        click.option("--preset", metavar="NAME", help="Preset to start from (default: `default`)."),
        click.option(
            "--overlay", "overlays", multiple=True, metavar="NAME", help="Preset to add on top, e.g. cluster."
        ),
        click.option(
            "--config",
            type=click.Path(dir_okay=False, path_type=Path),
            help="Convention file (default: nearest rediscipline.toml or pyproject.toml [tool.rediscipline]).",
        ),
        click.option("--isolated", is_flag=True, help="Ignore every convention file."),
        click.option(
            "--select", multiple=True, metavar="RULES", help="Enable only these rules (ALL, KEY, KEY005, key-length)."
        ),
        click.option("--extend-select", multiple=True, metavar="RULES", help="Enable these rules as well."),
        click.option("--ignore", multiple=True, metavar="RULES", help="Disable these rules."),
        click.option(
            "--fail-on",
            type=click.Choice(Severity.choices()),
            help="Lowest severity that exits with 1 (default: warning).",
        ),
        click.option("--lang", type=click.Choice(LANGUAGES), help="Language of messages: en or zh."),
        click.option(
            "--library-keys",
            type=click.Choice(KEY_MODES),
            help="Naming rules on keys written in a library's own format (rq, Celery, Django...): skip (default) "
            "or judge them like the team's keys.",
        ),
    ]
    return functools.reduce(lambda f, d: d(f), reversed(decorators), func)


def _pattern_rows(_ctx: click.Context, _param: click.Parameter, value: str) -> int | None:
    if value.strip().lower() == "all":
        return None
    if not value.strip().isdigit():
        raise click.BadParameter(f"{value!r} is not a number of patterns or `all`")
    return int(value)


#: `--patterns N|all`: how many patterns the text report lists (the JSON report has them all).
patterns_option = click.option(
    "--patterns",
    "patterns_shown",
    default=str(PATTERNS_SHOWN),
    show_default=True,
    metavar="N|all",
    callback=_pattern_rows,
    help="How many key patterns the text report lists, most keys first (`all` for every one).",
)


def showing_patterns(report: Report, shown: int | None) -> Report:
    """The report with the number of patterns the text report lists."""
    return replace(report, run=replace(report.run, patterns_shown=shown))


def overrides_from(params: dict[str, Any]) -> Overrides:
    return Overrides(
        config=params.get("config"),
        isolated=bool(params.get("isolated")),
        preset=params.get("preset"),
        overlays=_split(params.get("overlays", ())),
        select=_split(params["select"]) if params.get("select") else None,
        extend_select=_split(params.get("extend_select", ())),
        ignore=_split(params.get("ignore", ())),
        fail_on=params.get("fail_on"),
        lang=params.get("lang"),
        extra={"library-keys": params["library_keys"]} if params.get("library_keys") else {},
    )


def output_options(formats: tuple[str, ...]) -> Callable[[F], F]:
    def decorate(func: F) -> F:
        decorators = [
            click.option(
                "--format", "output_format", type=click.Choice(formats), default=formats[0], show_default=True
            ),
            click.option(
                "--output",
                type=click.Path(dir_okay=False, path_type=Path),
                callback=writable_output,
                help="Write the report to FILE.",
            ),
            click.option("--color", type=click.Choice(("auto", "always", "never")), default="auto", show_default=True),
        ]
        return functools.reduce(lambda f, d: d(f), reversed(decorators), func)

    return decorate


def writable_output(_ctx: click.Context, _param: click.Parameter, path: Path | None) -> Path | None:
    """Refuse an output file that could not be written before any work is done (a scan can take hours).

    The report is written to a temporary name in the file's folder and renamed (`open_output`), so the
    folder must exist and be writable, and an existing file must be replaceable.
    """
    if path is None:
        return None
    folder = path.parent
    if not folder.is_dir():
        raise click.BadParameter(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise click.BadParameter(f"{path}: the folder {folder} is not writable")
    return path


def use_color(choice: str, stream: TextIO) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return stream.isatty()


@contextmanager
def open_output(path: Path | None) -> Iterator[TextIO]:
    """Standard output, or FILE written to a temporary name and renamed, so a failed run keeps the old file."""
    if path is None:
        yield sys.stdout
        return
    temporary = path.with_name(f".{path.name}.rediscipline-tmp")
    try:
        with temporary.open("w", encoding="utf-8", newline="\n") as stream:
            yield stream
        temporary.replace(path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise SourceError(f"cannot write {path}: {error.strerror or error}") from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def plain_console() -> Console:
    """A console that never interprets markup or emoji codes in data (`u:{uid}:fr:m:` stays as is); rich is
    imported here, by the commands that print tables, never by a run that writes JSON."""
    from rich.console import Console

    return Console(highlight=False, markup=False, emoji=False, soft_wrap=not sys.stdout.isatty())


def size_value(value: str, param: click.Parameter | None = None) -> int:
    """A size above 0 as redis.conf writes one: `67108864`, `64mb`, `500k`; a bad one is click's usage error."""
    size = memory_bytes(value.strip().encode("ascii", "replace"))
    if not size:
        raise click.BadParameter(f"{value!r} is not a size above 0 (bytes, or with k, kb, m, mb, g, gb)", param=param)
    return size


def write_report(
    report: Report, settings: Settings, *, output_format: str, output: Path | None, color: str, exit_zero: bool
) -> None:
    """Render the report and exit: 1 when a finding reaches `fail-on` (unless --exit-zero), else 0."""
    sys.exit(
        render_report(report, settings, output_format=output_format, output=output, color=color, exit_zero=exit_zero)
    )


def render_report(
    report: Report, settings: Settings, *, output_format: str, output: Path | None, color: str, exit_zero: bool
) -> int:
    """Render the report; return the exit code its findings call for (see `write_report`)."""
    with open_output(output) as stream:
        RENDERERS[output_format](report, stream, settings.lang, output is None and use_color(color, sys.stdout))
    worst = report.max_severity()
    failed = worst is not None and worst >= settings.fail_on
    return EXIT_FINDINGS if failed and not exit_zero else EXIT_CLEAN
