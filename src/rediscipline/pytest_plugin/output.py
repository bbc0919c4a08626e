"""The session's report as text for the terminal summary, and as a file in any output format."""

from __future__ import annotations

import io
from pathlib import Path

from rediscipline.model.report import Report
from rediscipline.render import RENDERERS


def rendered(report: Report, output_format: str, lang: str, color: bool = False) -> str:
    """`report` in one of the renderers' formats (text, json, sarif, github, markdown)."""
    buffer = io.StringIO()
    RENDERERS[output_format](report, buffer, lang, color)
    return buffer.getvalue()


def write_report(report: Report, path: Path, output_format: str, lang: str) -> None:
    """Write the report to `path` through a temporary file in its folder, so a failed write keeps the old
    file; raises OSError."""
    text = rendered(report, output_format, lang)
    temporary = path.with_name(f".{path.name}.rediscipline-tmp")
    try:
        temporary.write_text(text, encoding="utf-8", newline="\n")
        temporary.replace(path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
