"""The plugin's command-line options and ini keys, read into one `PluginOptions`.

Each option has an ini key of the same meaning (`[tool.pytest.ini_options]`, pytest.ini, tox.ini,
setup.cfg); the command line wins. Paths given in an ini file are relative to that file's folder. Only the
mode is read when the plugin is off, so a bad value of the other options cannot break a run that does not
use them. Nothing here imports the guard.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from rediscipline.model.severity import Severity

OFF, REPORT, STRICT = "off", "report", "strict"
MODES = (OFF, REPORT, STRICT)
#: The output formats of `--rediscipline-report` (the renderers' names, as `rediscipline --format` has them).
FORMATS = ("text", "json", "sarif", "github", "markdown")
#: File name endings that choose a format when `--rediscipline-format` is not given (else text).
_SUFFIX_FORMATS = ((".sarif", "sarif"), (".sarif.json", "sarif"), (".json", "json"), (".md", "markdown"))
FLAG = "--rediscipline"


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("rediscipline", "Redis conventions checked on every command the tests send")
    group.addoption(
        FLAG,
        dest="rediscipline",
        nargs="?",
        const=REPORT,
        default=None,
        metavar="MODE",
        help="Guard every redis-py / valkey client made during the session and end with the report of the "
        "conventions broken. MODE: report (the default), strict (also fail the test that broke a rule at or "
        "above --rediscipline-fail-on) or off. ini: rediscipline.",
    )
    group.addoption(
        "--rediscipline-fail-on",
        dest="rediscipline_fail_on",
        default=None,
        metavar="SEVERITY",
        help="Lowest severity that fails a test in strict mode: note, warning or error (default). "
        "ini: rediscipline_fail_on.",
    )
    group.addoption(
        "--rediscipline-config",
        dest="rediscipline_config",
        default=None,
        metavar="PATH",
        help="Convention file (default: the nearest rediscipline.toml or pyproject.toml [tool.rediscipline]). "
        "ini: rediscipline_config.",
    )
    group.addoption(
        "--rediscipline-report",
        dest="rediscipline_report",
        default=None,
        metavar="FILE",
        help="Also write the report to FILE. ini: rediscipline_report.",
    )
    group.addoption(
        "--rediscipline-format",
        dest="rediscipline_format",
        default=None,
        metavar="FORMAT",
        help=f"Format of --rediscipline-report: {', '.join(FORMATS)} (default: json for *.json, sarif for "
        "*.sarif, else text). ini: rediscipline_format.",
    )
    parser.addini("rediscipline", f"rediscipline plugin mode: {', '.join(MODES)} (default: off)", default="")
    parser.addini("rediscipline_fail_on", "lowest severity that fails a test in strict mode", default="")
    parser.addini("rediscipline_config", "rediscipline convention file", default="")
    parser.addini("rediscipline_report", "file the rediscipline report is written to", default="")
    parser.addini("rediscipline_format", "format of the rediscipline report file", default="")


def rewrite_bare_flag(args: list[str]) -> None:
    """`--rediscipline` followed by something other than a mode is the flag alone: made `--rediscipline=report`
    in place, so that `pytest --rediscipline tests/` does not read `tests/` as the mode."""
    for index, arg in enumerate(args[:-1]):
        if arg == FLAG and args[index + 1] not in MODES:
            args[index] = f"{FLAG}={REPORT}"


@dataclass(frozen=True, slots=True)
class PluginOptions:
    """What the plugin was asked to do (see `add_options`)."""

    mode: str
    fail_on: Severity = Severity.ERROR
    config: Path | None = None
    report: Path | None = None
    report_format: str = "text"

    @property
    def enabled(self) -> bool:
        return self.mode != OFF

    @property
    def strict(self) -> bool:
        return self.mode == STRICT


def read_mode(config: pytest.Config) -> str:
    """The mode from the command line, else the ini file, else off; a bad one is a usage error."""
    given = config.getoption("rediscipline")
    text = str(given if given is not None else _ini(config, "rediscipline") or OFF).strip().lower()
    if text not in MODES:
        raise pytest.UsageError(f"{FLAG}: unknown mode {text!r} (use {', '.join(MODES)})")
    return text


def read_options(config: pytest.Config, mode: str) -> PluginOptions:
    """Every option of an enabled plugin, checked: a bad value is one line and pytest's usage-error exit."""
    fail_on_text = _given(config, "rediscipline_fail_on")
    try:
        fail_on = Severity.parse(fail_on_text) if fail_on_text else Severity.ERROR
    except ValueError as error:
        raise pytest.UsageError(f"{FLAG}-fail-on: {error}") from None
    convention = _path(config, "rediscipline_config")
    if convention is not None and not convention.is_file():
        raise pytest.UsageError(f"{FLAG}-config: {convention} is not a file")
    report = _path(config, "rediscipline_report")
    if report is not None:
        _check_writable(report)
    chosen = _given(config, "rediscipline_format")
    if chosen and chosen.lower() not in FORMATS:
        raise pytest.UsageError(f"{FLAG}-format: unknown format {chosen!r} (use {', '.join(FORMATS)})")
    report_format = chosen.lower() if chosen else format_for(report)
    return PluginOptions(mode, fail_on, convention, report, report_format)


def format_for(path: Path | None) -> str:
    """The format a report file's name asks for: json for `*.json`, sarif for `*.sarif`, markdown for `*.md`, else
    text."""
    name = path.name.lower() if path is not None else ""
    for suffix, chosen in _SUFFIX_FORMATS:
        if name.endswith(suffix):
            return chosen
    return "text"


def _ini(config: pytest.Config, name: str) -> str:
    value = config.getini(name)
    return str(value).strip() if value else ""


def _given(config: pytest.Config, name: str) -> str:
    value = config.getoption(name)
    return str(value).strip() if value is not None else _ini(config, name)


def _path(config: pytest.Config, name: str) -> Path | None:
    """A path option: relative to the working directory on the command line, to the ini file's folder in it."""
    value = config.getoption(name)
    if value is not None:
        return Path(config.invocation_params.dir, value) if str(value).strip() else None
    text = _ini(config, name)
    if not text:
        return None
    base = config.inipath.parent if config.inipath is not None else config.rootpath
    return Path(base, text)


def _check_writable(path: Path) -> None:
    """Refuse a report file that could not be written before any test runs."""
    folder = path.parent
    if path.is_dir():
        raise pytest.UsageError(f"{FLAG}-report: {path} is a folder")
    if not folder.is_dir():
        raise pytest.UsageError(f"{FLAG}-report: {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise pytest.UsageError(f"{FLAG}-report: {path}: the folder {folder} is not writable")
