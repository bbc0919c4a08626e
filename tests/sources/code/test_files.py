"""Which files `check` reads: .gitignore from the repository root down, skipped folders, globs, named files."""

from __future__ import annotations

from pathlib import Path

import pytest

from rediscipline.sources.code.files import FileSelection, find_files
from rediscipline.sources.errors import SourceError


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".gitignore").write_text("*.gen.py\nout/\n")
    for name in (
        "app/main.py",
        "app/models.gen.py",
        "app/stubs.pyi",
        "app/tool.pyw",
        "app/sub/.gitignore",
        "app/sub/keep.py",
        "app/sub/local.py",
        "out/built.py",
        ".venv/lib/site.py",
        "tests/test_main.py",
        "README.md",
    ):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("local.py\n" if name.endswith(".gitignore") else "")
    return tmp_path


def shown(repo: Path, targets: list[str], selection: FileSelection) -> list[str]:
    return [f.shown for f in find_files([str(repo / t) for t in targets], selection, repo)]


def test_gitignore_from_the_root_down_and_skipped_folders(repo: Path) -> None:
    assert shown(repo, ["."], FileSelection()) == [
        "app/main.py",
        "app/stubs.pyi",
        "app/sub/keep.py",
        "tests/test_main.py",
    ]


def test_a_subfolder_still_obeys_the_root_gitignore(repo: Path) -> None:
    assert shown(repo, ["app"], FileSelection()) == ["app/main.py", "app/stubs.pyi", "app/sub/keep.py"]


def test_globs_and_no_gitignore(repo: Path) -> None:
    selection = FileSelection(include=("*.pyw",), exclude=("tests/**",), gitignore=False)
    assert shown(repo, ["."], selection) == [
        "app/main.py",
        "app/models.gen.py",
        "app/stubs.pyi",
        "app/sub/keep.py",
        "app/sub/local.py",
        "app/tool.pyw",
        "out/built.py",
    ]


def test_named_files_are_always_read(repo: Path) -> None:
    found = find_files([str(repo / "app/models.gen.py"), str(repo / "app")], FileSelection(), repo)
    assert [(f.shown, f.explicit) for f in found] == [
        ("app/main.py", False),
        ("app/models.gen.py", True),
        ("app/stubs.pyi", False),
        ("app/sub/keep.py", False),
    ]


def test_a_missing_path_is_one_line(repo: Path) -> None:
    with pytest.raises(SourceError, match=r"cannot check .*nope\.py: no such file or folder"):
        find_files([str(repo / "nope.py")], FileSelection(), repo)
