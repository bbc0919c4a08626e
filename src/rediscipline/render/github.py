"""GitHub Actions annotations (`--format github`): one workflow command per finding.

`::error file=src/app.py,line=12,col=5,endLine=12,endColumn=21,title=CMD001 keys-command::message` makes
the runner show the finding on the pull request's diff. Errors become `::error`, warnings `::warning`,
notes `::notice`. Findings with no place in a source or config file (keys on a server or in a dump) carry
no `file` property and are shown on the run's summary instead.

Escaping is in two steps. Names, paths and messages are first shown as every renderer shows them
(`model.display`: control, bidi and format characters as visible escapes, bounded lengths), so a key
holding a terminal escape sequence cannot reach the log as one. Then GitHub's own escaping (the runner's
`escapeData` / `escapeProperty`): `%`, CR and LF in the message; also `:` and `,` in property values, so
neither `::` nor `%0A` in a key can end the command or start another.
"""

from __future__ import annotations

import os
from typing import TextIO

from rediscipline.model.display import NAME_LIMIT, display_bytes, inert
from rediscipline.model.finding import Finding
from rediscipline.model.report import Report
from rediscipline.model.severity import Severity
from rediscipline.render.libraries import with_advice
from rediscipline.render.sites import is_site, more_places, relative_path, shown_path

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _properties(finding: Finding, report: Report, cwd: str) -> list[tuple[str, str]]:
    properties: list[tuple[str, str]] = []
    location = finding.location
    if is_site(finding):
        assert location.path is not None
        properties.append(("file", shown_path(relative_path(location.path, cwd)[0])))
        for name, value in (
            ("line", location.line),
            ("col", location.column),
            ("endLine", location.end_line),
            ("endColumn", location.end_column),
        ):
            if value is not None:
                properties.append((name, str(value)))
    meta = report.rules.get(finding.rule_id)
    properties.append(("title", f"{finding.rule_id} {meta.slug}" if meta else finding.rule_id))
    return properties


def _message(finding: Finding, lang: str) -> str:
    """The message; for a finding about keys elsewhere, led by where and which pattern (it has no file)."""
    text = inert(with_advice(finding.message.in_(lang), finding.library, lang))
    if is_site(finding):
        more = more_places(finding, lang)
        return text if more is None else f"{text} ({more})"
    lead: list[str] = []
    location = finding.location
    if location.path:
        lead.append(shown_path(location.path) + (f" db{location.db}" if location.db is not None else ""))
    if finding.pattern is not None:
        lead.append(f"{display_bytes(finding.pattern, NAME_LIMIT)} ({finding.count:,})")
    return f"{' · '.join(lead)}: {text}" if lead else text


def annotation(finding: Finding, report: Report, lang: str = "en", cwd: str | None = None) -> str:
    """One workflow command line (without its newline) for `finding`."""
    root = os.getcwd() if cwd is None else cwd
    properties = ",".join(f"{name}={escape_property(value)}" for name, value in _properties(finding, report, root))
    return f"::{COMMAND[finding.severity]} {properties}::{escape_data(_message(finding, lang))}"


def render_github(report: Report, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    cwd = os.getcwd()
    for finding in report.findings:
        stream.write(annotation(finding, report, lang, cwd) + "\n")
