"""The `rediscipline` command group and `main()`, which maps every error to an exit code and one line."""

from __future__ import annotations

import os
import sys

import click

from rediscipline import __version__
from rediscipline.cli.baseline import baseline_command
from rediscipline.cli.check import check_command
from rediscipline.cli.common import EXIT_ERROR, USER_ERRORS, fail
from rediscipline.cli.config import config_command
from rediscipline.cli.keys import keys_command
from rediscipline.cli.rules import rule_command, rules_command
from rediscipline.cli.scan import scan_command


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(__version__, prog_name="rediscipline")
def cli() -> None:
    """Turn your team's Redis conventions into executable rules.

    Checks application code, live instances, RDB dumps, server config files and key names, citing the
    written convention each finding breaks.
    """


cli.add_command(scan_command)
cli.add_command(check_command)
cli.add_command(baseline_command)
cli.add_command(keys_command)
cli.add_command(rules_command)
cli.add_command(rule_command)
cli.add_command(config_command)


def main() -> None:
    try:
        cli.main(prog_name="rediscipline", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as error:
        error.show()
        sys.exit(EXIT_ERROR)
    except click.Abort:
        click.echo("rediscipline: aborted", err=True)
        sys.exit(130)
    except USER_ERRORS as error:
        fail(str(error))
    except KeyboardInterrupt:
        click.echo("rediscipline: interrupted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(0)
    except Exception as error:  # never a traceback for the user; say how to get one
        if os.environ.get("REDISCIPLINE_DEBUG"):
            raise
        fail(f"internal error: {type(error).__name__}: {error} (set REDISCIPLINE_DEBUG=1 for the traceback)")
    sys.exit(0)
