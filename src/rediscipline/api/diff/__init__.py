"""`rediscipline diff`: what changed between two JSON reports of `scan`, `keys`, `check` or a fleet.

Example::

    from rediscipline.api.diff import diff_files
    result = diff_files("yesterday.json", "today.json")
    for change in result.report.changes: ...   # result.fleet for two fleet reports

Both files must hold the same schema (`rediscipline.report`, or `rediscipline.fleet`) at the same version,
one this rediscipline reads; otherwise, and for a file that is missing or is not a report, `ReportFileError`
(a `SourceError`: the CLI prints it on one line and exits with 2).
"""

from __future__ import annotations

from rediscipline.api.diff.compare import TOP_PATTERNS, compare_fleets, compare_reports
from rediscipline.api.diff.load import (
    ReportFile,
    ReportFileError,
    check_readable,
    fleet_targets,
    open_report_file,
    single_report,
)
from rediscipline.model.report_diff import SCHEMA_FLEET, DiffResult


def _comparable(old: ReportFile, new: ReportFile) -> None:
    if old.schema != new.schema:
        raise ReportFileError(
            f"cannot compare a {old.schema} ({old.shown}) with a {new.schema} ({new.shown}): "
            "give two reports of the same kind"
        )
    if old.version != new.version:
        raise ReportFileError(
            f"cannot compare {old.schema} version {old.version} ({old.shown}) with version {new.version} "
            f"({new.shown}): write both with the same rediscipline"
        )
    check_readable(old.shown, old.schema, old.version)


def diff_files(old_path: str, new_path: str, top: int = TOP_PATTERNS) -> DiffResult:
    """Compare the reports in the files `old_path` and `new_path` (`-` is standard input).

    `top` bounds each list of patterns that grew most.
    """
    if old_path == "-" and new_path == "-":
        raise ReportFileError("only one of the two reports can be read from standard input")
    old, new = open_report_file(old_path), open_report_file(new_path)
    _comparable(old, new)
    if old.schema == SCHEMA_FLEET:
        fleet, report = compare_fleets(fleet_targets(old), fleet_targets(new), top), None
    else:
        fleet, report = None, compare_reports(single_report(old), single_report(new), top)
    return DiffResult(old.shown, new.shown, old.schema, old.version, top, report=report, fleet=fleet)


__all__ = ["TOP_PATTERNS", "ReportFileError", "diff_files"]
