"""Which files `rediscipline check` reads: Python files under the given folders, minus what git ignores.

Folders are walked for `*.py`/`*.pyi` (plus `--include` globs), skipping what `.gitignore` files (from the
repository root down) ignore, the usual tool and environment folders, and `--exclude` globs. Files named on
the command line are always read, whatever the ignore rules say, as ruff and flake8 do: naming a file is
asking for it. Globs are gitignore-style (`tests/**`, `*_pb2.py`) and match paths relative to the project
root (the convention file's folder, else the folder `check` runs in).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rediscipline.sources.errors import SourceError

if TYPE_CHECKING:
    import pathspec

PYTHON_SUFFIXES = (".py", ".pyi")
#: Folders never walked into: version control, virtual environments, caches, build output.
SKIPPED_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".venv", "venv", ".tox", ".nox", "__pycache__", "node_modules", "site-packages",
        ".mypy_cache", ".ruff_cache", ".pytest_cache", ".eggs", "build", "dist", ".direnv",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to check: where it is, how findings name it (relative to the project root when inside it)."""

    path: Path
    shown: str
    explicit: bool = False


@dataclass(frozen=True, slots=True)
class FileSelection:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    gitignore: bool = True


def shown_path(path: Path, root: Path) -> str:
    """A path as findings show it: relative to `root` with forward slashes when under it, else as given."""
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return path.as_posix()


def find_files(targets: Sequence[str], selection: FileSelection, root: Path | None = None) -> list[SourceFile]:
    """The files to check, in a stable order, each once (see the module docstring)."""
    root = (root or Path.cwd()).resolve()
    exclude = gitignore_spec(selection.exclude) if selection.exclude else None
    include = gitignore_spec(selection.include) if selection.include else None
    found: dict[Path, SourceFile] = {}
    for target in targets:
        path = Path(target)
        if not path.exists():
            raise SourceError(f"cannot check {target}: no such file or folder")
        if path.is_file():
            found.setdefault(path.resolve(), SourceFile(path, shown_path(path, root), explicit=True))
            continue
        ignores = _GitIgnores(path.resolve()) if selection.gitignore else None
        for file in _walk(path, ignores):
            relative = shown_path(file, root)
            if exclude is not None and exclude.match_file(relative):
                continue
            wanted = file.suffix in PYTHON_SUFFIXES or (include is not None and include.match_file(relative))
            if wanted:
                found.setdefault(file.resolve(), SourceFile(file, relative))
    return sorted(found.values(), key=lambda f: f.shown)


def gitignore_spec(lines: Sequence[str]) -> pathspec.GitIgnoreSpec:
    """Git's matching of `lines` (gitignore syntax). pathspec is imported when the first globs or `.gitignore`
    file of a run are read: never by a check of files named one by one."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _walk(folder: Path, ignores: _GitIgnores | None) -> Iterator[Path]:
    for current, dirs, files in os.walk(folder, onerror=_walk_error):
        base = Path(current)
        if ignores is not None:
            ignores.enter(base)
        dirs[:] = sorted(
            d for d in dirs if d not in SKIPPED_DIRS and (ignores is None or not ignores.ignored(base / d, True))
        )
        for name in sorted(files):
            path = base / name
            if ignores is None or not ignores.ignored(path, False):
                yield path


def _walk_error(error: OSError) -> None:
    raise SourceError(f"cannot read {error.filename}: {error.strerror or error}")


class _GitIgnores:
    """The `.gitignore` files that apply under one folder: from the repository root down to each folder."""

    def __init__(self, start: Path) -> None:
        self._specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
        self._seen: set[Path] = set()
        repository = next((p for p in (start, *start.parents) if (p / ".git").exists()), None)
        if repository is not None:
            chain = [start, *start.parents]
            for folder in reversed(chain[: chain.index(repository) + 1]):
                self.enter(folder)

    def enter(self, folder: Path) -> None:
        folder = folder.resolve()
        if folder in self._seen:
            return
        self._seen.add(folder)
        ignore_file = folder / ".gitignore"
        if ignore_file.is_file():
            try:
                lines = ignore_file.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
            except OSError:
                return
            self._specs.append((folder, gitignore_spec(lines)))

    def ignored(self, path: Path, is_dir: bool) -> bool:
        resolved = path.resolve()
        for base, spec in self._specs:
            try:
                relative = resolved.relative_to(base).as_posix()
            except ValueError:
                continue
            if spec.match_file(relative + "/" if is_dir else relative):
                return True
        return False
