"""What the guard raises and warns with: its own exception and warning categories, so they can be caught and
filtered apart from everything else."""

from __future__ import annotations

from rediscipline.model.location import Location
from rediscipline.model.severity import Severity


class ConventionWarning(UserWarning):
    """A command broke a convention (mode `warn`). Filter it like any warning:
    `warnings.simplefilter("error", ConventionWarning)` turns it into an exception."""


class ConventionViolation(Exception):
    """A command was refused before it was sent (mode `raise`): nothing reached the server.

    `rule_id`, `code`, `severity`, `message` (in the run's language), `command` (as `INFO commandstats`
    names it) and `location` (the application's call site) say which convention and where.
    """

    def __init__(
        self, rule_id: str, code: str, severity: Severity, message: str, *, command: str, location: Location
    ) -> None:
        self.rule_id = rule_id
        self.code = code
        self.severity = severity
        self.message = message
        self.command = command
        self.location = location
        where = f"{location.path}:{location.line}" if location.line is not None else str(location.path)
        super().__init__(f"{where}: {rule_id} [{severity.name.lower()}] {message}")


class GuardError(TypeError):
    """A client the guard cannot instrument (a type it does not know)."""
