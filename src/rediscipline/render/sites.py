"""Where a finding is, as the file-oriented renderers (text sites, SARIF, GitHub annotations) need it, and
where an example key was read, as every report shows it.

A finding from source code or a config file sits at a line of a file: editors, code scanning and CI
annotations can point at it. Findings from a server, a dump or a key list are about key patterns: their
`location.path` is a URL, a dump, a key file or `-`, and their line (if any) is only where an example key
happened to be read, so these renderers never treat it as a place in source.
"""

from __future__ import annotations

import os
import posixpath
from pathlib import PurePath, PurePosixPath, PureWindowsPath

from rediscipline.model.display import PATH_LIMIT, display_bytes
from rediscipline.model.finding import Finding
from rediscipline.model.location import FILE_SOURCES, SOURCE_LIVE, SOURCE_RDB, Location
from rediscipline.model.text import Text

#: How many of a folded finding's other lines `more_places` names.
LINES_SHOWN = 5
_MORE = Text("and {n} more in this file (line {lines})", "本文件另有 {n} 处（第 {lines} 行）")


def is_file_path(path: str | None) -> bool:
    """True for a path on disk: not empty, not standard input (`-`), not `<memory>`, not a server URL."""
    if not path or path == "-" or "://" in path:
        return False
    return not (path.startswith("<") and path.endswith(">"))


def is_site(finding: Finding) -> bool:
    """A finding at a place in a source-code or config file (it may lack a line: a setting not written)."""
    location = finding.location
    return location.source in FILE_SOURCES and is_file_path(location.path)


def path_bytes(path: str) -> bytes:
    """The bytes of a path as the OS gave them (non-UTF-8 names arrive as surrogate escapes)."""
    return path.encode("utf-8", "surrogateescape")


def shown_path(path: str) -> str:
    """A path safe to print: control characters and undecodable bytes escaped like key names, bounded."""
    return display_bytes(path_bytes(path), PATH_LIMIT)


def relative_path(path: str, cwd: str) -> tuple[str, bool]:
    """(posix path, is_relative): relative paths stay relative, absolute ones under `cwd` become relative.

    An absolute path outside `cwd` is returned in posix form with `is_relative` False, so SARIF can write it
    as a `file://` URI instead of pretending it lives in the repository.
    """
    flavour: type[PurePath] = PureWindowsPath if os.sep == "\\" else PurePosixPath
    pure = flavour(path)
    if pure.is_absolute():
        base = flavour(cwd)
        normal = flavour(os.path.normpath(path))
        try:
            pure = normal.relative_to(base)
        except ValueError:
            return normal.as_posix(), False
    text = posixpath.normpath(pure.as_posix())
    return text, True


def example_place(location: Location) -> str:
    """Where an example key was read, as a report that names its server or dumps in the header shows it: the
    database of a server, the dump's file name and database, or `path:line` of a key list or a file."""
    if location.source == SOURCE_LIVE:
        return f"db{location.db}" if location.db is not None else ""
    if location.source == SOURCE_RDB:
        return f"{shown_path(os.path.basename(location.path or ''))} db{location.db or 0}"
    path = shown_path(location.path or "")
    return f"{path}:{location.line}" if location.line is not None else path


def where(location: Location) -> str:
    """`path:line:col` (as much as is known) for a site finding."""
    text = shown_path(location.path or "")
    if location.line is not None:
        text += f":{location.line}"
        if location.column is not None:
            text += f":{location.column}"
    return text


def more_places(finding: Finding, lang: str) -> str | None:
    """`and 9 more in this file (line 12, 40, 77, 80, 93, …)` for a key-name fact found at several places in
    one file; None for a finding at one place."""
    others = finding.count - 1
    if others < 1 or not is_site(finding):
        return None
    lines = [str(location.line) for location in finding.related[:LINES_SHOWN] if location.line is not None]
    if others > len(lines):
        lines.append("…")
    return _MORE.in_(lang).format(n=f"{others:,}", lines=("、" if lang == "zh" else ", ").join(lines))
