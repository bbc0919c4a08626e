"""Usage errors as one line: `rediscipline: error: --batch: 0 is not in the range 10<=x<=1000`.

click prints a usage error in four lines (usage, "Try --help", a blank line, the error). Here every kind
becomes one line that names the option or argument and, when the parameter has a closed set of values (a
choice, a numeric range), what it accepts; an unknown option or command suggests close matches, as click
does, on the same line. The text comes from the exception's fields (option name, parameter, possibilities)
rather than from click's wording, except the detail click gives about a bad value ("'abc' is not a valid
integer"), which is kept as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import click

RESOLVED_COMMAND = "rediscipline.resolved_command"  # Context.meta key: the subcommand being parsed


class UnknownCommandError(click.UsageError):
    """A command name the group does not have, with its closest matches."""

    def __init__(self, name: str, possibilities: Sequence[str], ctx: click.Context | None = None) -> None:
        super().__init__(f"no such command {name!r}", ctx)
        self.name = name
        self.possibilities = tuple(possibilities)


class CommandGroup(click.Group):
    """A group that names close matches of an unknown command (as click >= 8.4 does, on every click) and
    remembers which subcommand it handed the arguments to, for errors click raises without a context."""

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        commands = self.list_commands(ctx)
        if name not in commands and not ctx.resilient_parsing and not name.startswith("-"):
            from difflib import get_close_matches

            raise UnknownCommandError(name, get_close_matches(name, commands), ctx)
        resolved = super().resolve_command(ctx, args)
        ctx.meta[RESOLVED_COMMAND] = resolved[1]
        return resolved


def usage_line(error: click.UsageError, command: click.Command | None = None) -> str:
    """The one line (without the `rediscipline: error: ` prefix) that describes `error`.

    `command` is the command whose arguments were being parsed, for errors that carry no context (click
    raises BadOptionUsage from its parser without one).
    """
    ctx = error.ctx
    if command is None and ctx is not None:
        command = ctx.command
    if isinstance(error, UnknownCommandError):
        return error.message + _suggestion(error.possibilities)
    if isinstance(error, click.NoSuchOption):
        return f"no such option {error.option_name}" + _suggestion(error.possibilities or ())
    if isinstance(error, click.MissingParameter):
        param = error.param
        kind = error.param_type or (param.param_type_name if param is not None else "parameter")
        name = _name(param, ctx) if param is not None else _hint(error.param_hint)
        return f"missing {kind} {name}".rstrip() + _allowed_suffix(param, "")
    if isinstance(error, click.BadParameter):
        param = error.param
        name = _hint(error.param_hint) if error.param_hint is not None else _name(param, ctx)
        message = _clause(error.message)
        if not name:
            return message
        return f"{name}: {message}" + _allowed_suffix(param, message)
    if isinstance(error, click.BadOptionUsage):
        # click's text is "Option '--batch' requires an argument."; the option is named once, in front
        detail = _clause(re.sub(r"^Option '[^']*' ", "", error.message))
        param = _option(command, error.option_name)
        return f"{error.option_name}: {detail}" + _allowed_suffix(param, detail)
    return _clause(error.message)


def _suggestion(possibilities: Sequence[str]) -> str:
    if not possibilities:
        return ""
    if len(possibilities) == 1:
        return f" (did you mean {possibilities[0]}?)"
    return f" (did you mean one of {', '.join(possibilities)}?)"


def _name(param: click.Parameter | None, ctx: click.Context | None) -> str:
    """`--format` for an option (`--progress/--no-progress` for a flag pair), the metavar for an argument."""
    if param is None:
        return ""
    if isinstance(param, click.Option):
        return "/".join([*param.opts, *param.secondary_opts])
    return param.get_error_hint(ctx).strip("'\"") if ctx is not None else str(param.name).upper()


def _hint(hint: Sequence[str] | str | None) -> str:
    if hint is None:
        return ""
    return hint if isinstance(hint, str) else " / ".join(hint)


def _option(command: click.Command | None, option_name: str) -> click.Parameter | None:
    if command is None:
        return None
    for param in command.params:
        if isinstance(param, click.Option) and option_name in (*param.opts, *param.secondary_opts):
            return param
    return None


def allowed_values(param: click.Parameter | None) -> str | None:
    """What a parameter accepts when that is a closed set: `text, json` or `10<=x<=1000`."""
    if param is None:
        return None
    kind = param.type
    if isinstance(kind, click.Choice):
        return ", ".join(str(choice) for choice in kind.choices)
    if isinstance(kind, (click.IntRange, click.FloatRange)):
        low = None if kind.min is None else f"{kind.min}{'<' if kind.min_open else '<='}"
        high = None if kind.max is None else f"{'<' if kind.max_open else '<='}{kind.max}"
        if low and high:
            return f"{low}x{high}"
        if low:
            return f"x{'>' if kind.min_open else '>='}{kind.min}"
        if high:
            return f"x{high}"
    return None


def _allowed_suffix(param: click.Parameter | None, message: str) -> str:
    """` (allowed: …)` unless the message already says it (click lists the choices of a bad choice)."""
    allowed = allowed_values(param)
    if allowed is None or param is None:
        return ""
    if isinstance(param.type, click.Choice):
        if all(str(choice) in message for choice in param.type.choices):
            return ""
    elif allowed in message:
        return ""
    return f" (allowed: {allowed})"


def _clause(message: str) -> str:
    """click's sentence as a clause of our line: no final period, lower-case first word unless an acronym."""
    text = message.strip().rstrip(".")
    if len(text) > 1 and text[0].isupper() and not text[1].isupper():
        text = text[0].lower() + text[1:]
    return text
