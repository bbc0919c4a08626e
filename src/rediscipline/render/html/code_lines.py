"""The line of code a finding points at, read from the file the report names, as a SARIF viewer shows it.

Reports hold places, not code: the page reads each file a finding is in once, when it is written, and shows
the line escaped and bounded like every other outside text. A file that is gone, unreadable or shorter than
the line (it changed since the run) shows no line rather than a wrong one; a file larger than FILE_LIMIT is
not read.
"""

from __future__ import annotations

from pathlib import Path

from rediscipline.model.display import TEXT_LIMIT, display_text

#: Bytes of a file read for its lines: a source file a person edits is far smaller.
FILE_LIMIT = 8 * 1024 * 1024


class SourceLines:
    """Lines of the files findings point at, each file read at most once; relative paths under `root`."""

    def __init__(self, root: str | None = None) -> None:
        self._root = Path(root) if root is not None else Path.cwd()
        self._files: dict[str, list[str] | None] = {}

    def _lines(self, path: str) -> list[str] | None:
        if path not in self._files:
            self._files[path] = _read(self._root / path)
        return self._files[path]

    def line(self, path: str, number: int) -> str:
        """Line `number` (1-based) of `path`, stripped of its indentation and escaped; "" when unknown."""
        lines = self._lines(path)
        if lines is None or not 1 <= number <= len(lines):
            return ""
        return display_text(lines[number - 1].strip(), TEXT_LIMIT)


def _read(file: Path) -> list[str] | None:
    try:
        if not file.is_file() or file.stat().st_size > FILE_LIMIT:
            return None
        return file.read_bytes().decode("utf-8", "surrogateescape").splitlines()
    except OSError:
        return None
