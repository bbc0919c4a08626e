"""What `rediscipline check` was given: Python files, and redis.conf / ACL files recognised by their content."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rediscipline.sources.code.files import PYTHON_SUFFIXES, SourceFile
from rediscipline.sources.config import HEAD_BYTES, config_kind
from rediscipline.sources.errors import SourceError


def split_files(files: Sequence[SourceFile]) -> tuple[list[SourceFile], list[tuple[Path, str, str]]]:
    """Python files, and config files as (path, shown, kind); a named file that is neither is an error."""
    python: list[SourceFile] = []
    configs: list[tuple[Path, str, str]] = []
    for source in files:
        if source.path.suffix in PYTHON_SUFFIXES:
            python.append(source)
            continue
        kind = config_kind(source.path, _head(source.path))
        if kind is not None:
            configs.append((source.path, source.shown, kind))
        elif source.explicit:
            raise SourceError(f"cannot check {source.shown}: not a Python file, a redis.conf or an ACL file")
        else:
            python.append(source)  # matched an --include glob: read as Python
    return python, configs


def _head(path: Path) -> bytes:
    try:
        with path.open("rb") as stream:
            return stream.read(HEAD_BYTES)
    except OSError as error:
        raise SourceError(f"cannot read {path}: {error.strerror or error}") from None
