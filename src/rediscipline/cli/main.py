"""The `rediscipline` command group, and `run()`, which maps every outcome to an exit code and one line.

The group imports only click: each subcommand's module (and with it rich, redis-py, the rules, the engine)
is imported when that subcommand runs, so `--version` and `--help` start in a few hundredths of a second.
`rediscipline --help` lists the commands from `COMMANDS` without importing them; a test checks that each
one-line help there is the one its command declares.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NamedTuple

import click

from rediscipline.cli.entry import wraps_interrupt
from rediscipline.cli.exits import EXIT_CLEAN, EXIT_ERROR, EXIT_INTERRUPTED
from rediscipline.cli.usage import RESOLVED_COMMAND, CommandGroup, usage_line
from rediscipline.cli.version import version_line

PROG_NAME = "rediscipline"
COMPLETE_VAR = "_REDISCIPLINE_COMPLETE"  # click's shell completion: `_REDISCIPLINE_COMPLETE=bash_source rediscipline`


class LazyCommand(NamedTuple):
    """Where a subcommand is defined, and its one-line help for the group's command list (a named tuple: the
    `dataclasses` module is not imported by `--version` and `--help`)."""

    module: str
    attribute: str
    short_help: str


COMMANDS = {
    "baseline": LazyCommand(
        "rediscipline.cli.baseline",
        "baseline_command",
        "Adopt rediscipline on a legacy code base: fail only on findings the baseline does not hold.",
    ),
    "check": LazyCommand(
        "rediscipline.cli.check",
        "check_command",
        "Check Python code that uses redis-py, and redis.conf / ACL files, against the conventions.",
    ),
    "config": LazyCommand(
        "rediscipline.cli.config",
        "config_command",
        "Show the resolved configuration: built-in < preset chain < overlays < file < command line.",
    ),
    "diff": LazyCommand(
        "rediscipline.cli.diff",
        "diff_command",
        "Compare two JSON reports (scan, keys, check, a cluster's or a fleet's): findings new, fixed, worsened.",
    ),
    "fleet": LazyCommand(
        "rediscipline.cli.fleet",
        "fleet_command",
        "Audit every server, cluster and dump an inventory lists, at once, into one fleet report.",
    ),
    "keys": LazyCommand(
        "rediscipline.cli.keys",
        "keys_command",
        "Check key names against the naming rules; findings are grouped by key pattern.",
    ),
    "rule": LazyCommand(
        "rediscipline.cli.rules",
        "rule_command",
        "Show the full documentation of a rule (its docstring, cited sentences and options).",
    ),
    "rules": LazyCommand(
        "rediscipline.cli.rules",
        "rules_command",
        "List every rule: id, slug, family, default severity, where it can be checked.",
    ),
    "scan": LazyCommand(
        "rediscipline.cli.scan",
        "scan_command",
        "Audit a running Redis or Valkey server, or RDB dumps, against every rule the input can show.",
    ),
    "simulate": LazyCommand(
        "rediscipline.cli.simulate",
        "simulate_command",
        "What-if: a trace through the server's eviction per policy and maxmemory; a dump's TTLs through its expiry.",
    ),
    "traffic": LazyCommand(
        "rediscipline.cli.traffic",
        "traffic_command",
        "Observe what a running server is sent for a short window: commands, errors, slow calls, clients.",
    ),
}

#: Modules whose errors are the user's (bad input, configuration or rule selector): one line, exit 2.
USER_ERROR_CLASSES = (
    ("rediscipline.settings.errors", "ConfigError"),
    ("rediscipline.sources.errors", "SourceError"),
    ("rediscipline.rules.registry", "UnknownRuleError"),
    ("rediscipline.api.executors", "ExecutorError"),
)


class LazyGroup(CommandGroup):
    """A group whose subcommands are imported on first use (click's documented lazy-loading pattern)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        command = getattr(importlib.import_module(entry.module), entry.attribute)
        resume_collector()
        assert isinstance(command, click.Command), f"{entry.module}.{entry.attribute} is not a click command"
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from `COMMANDS`, shortened as click shortens the help it reads from a command."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [(name, click.Command(name, help=COMMANDS[name].short_help).get_short_help_str(limit)) for name in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def resume_collector() -> None:
    """Turn the cyclic garbage collector back on if the executable paused it for start-up (`cli.entry`), first
    freezing what start-up made (`gc.freeze`): the modules, classes and functions of the command, which live
    as long as the process, are then never traversed again by the collections of the run."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from rediscipline.compiled import core

    click.echo(version_line())
    click.echo(core())
    ctx.exit(EXIT_CLEAN)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help="Show the version (and which core runs: compiled or pure Python) and exit.",
)
def cli() -> None:
    """Turn your team's Redis conventions into executable rules.

    Checks application code, live instances, RDB dumps, server config files and key names, citing the
    written convention each finding breaks.
    """


def run(args: Sequence[str]) -> int:
    """Run the command line `args`; return the exit code, having written at most one line on stderr.

    KeyboardInterrupt is not handled here: the entry point (`rediscipline.cli.entry`) owns Ctrl-C.
    """
    if os.environ.get(COMPLETE_VAR):
        from click.shell_completion import shell_complete

        return int(shell_complete(cli, {}, PROG_NAME, COMPLETE_VAR, os.environ[COMPLETE_VAR]))
    root: click.Context | None = None
    try:
        root = cli.make_context(PROG_NAME, list(args))
        with root:
            cli.invoke(root)
    except SystemExit as done:
        return _exit_code(done.code)
    except click.exceptions.Exit as done:
        return done.exit_code
    except click.UsageError as error:
        no_args_is_help = getattr(click.exceptions, "NoArgsIsHelpError", ())
        if isinstance(error, no_args_is_help):  # `rediscipline` alone: the help, as click shows it
            error.show()
            return int(error.exit_code)
        return error_line(usage_line(error, (root.meta.get(RESOLVED_COMMAND) if root is not None else None) or cli))
    except click.ClickException as error:
        return error_line(error.format_message())
    except click.Abort:
        click.echo(f"{PROG_NAME}: aborted", err=True)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_CLEAN
    except Exception as error:
        if wraps_interrupt(error):  # a Ctrl-C: the entry point ends the run as interrupted
            raise
        if is_user_error(error):
            return error_line(str(error))
        if os.environ.get("REDISCIPLINE_DEBUG"):
            raise
        # never a traceback for the user; say how to get one
        return error_line(
            f"internal error: {type(error).__name__}: {error} (set REDISCIPLINE_DEBUG=1 for the traceback)"
        )
    return EXIT_CLEAN


def error_line(message: str) -> int:
    click.echo(f"{PROG_NAME}: error: {message}", err=True)
    return EXIT_ERROR


def is_user_error(error: Exception) -> bool:
    """Whether `error` is one of USER_ERROR_CLASSES; a class whose module was never imported cannot have raised."""
    for module_name, class_name in USER_ERROR_CLASSES:
        module = sys.modules.get(module_name)
        if module is not None and isinstance(error, getattr(module, class_name)):
            return True
    return False


def _exit_code(code: Any) -> int:
    """`sys.exit(code)` as the interpreter would turn it into a status: None is 0, text is printed and 1."""
    if code is None:
        return EXIT_CLEAN
    if isinstance(code, int):
        return code
    click.echo(str(code), err=True)
    return 1
