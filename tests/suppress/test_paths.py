"""Gitignore-style globs of `per-file-ignores`."""

from __future__ import annotations

import re

import pytest

from rediscipline.suppress.paths import PathIgnores, glob_regex, relative_path


@pytest.mark.parametrize(
    ("glob", "matches", "misses"),
    [
        ("tests/**", ["tests/a.py", "tests/unit/b.py"], ["src/tests/a.py", "tests.py", "testsx/a.py"]),
        ("scripts/*.py", ["scripts/seed.py"], ["scripts/sub/seed.py", "src/scripts/seed.py", "scripts/seed.pyc"]),
        ("*.py", ["a.py", "deep/er/a.py"], ["a.pyi"]),
        ("conftest.py", ["conftest.py", "tests/conftest.py"], ["conftest.pyc", "my_conftest.py"]),
        ("**/migrations/*.py", ["migrations/0001.py", "app/db/migrations/0001.py"], ["app/migrations.py"]),
        ("scripts", ["scripts/a.py", "pkg/scripts/a.py", "scripts"], ["scripts.py"]),
        ("/scripts/", ["scripts/a.py"], ["pkg/scripts/a.py"]),
        ("./src/legacy/", ["src/legacy/a.py", "src/legacy/x/b.py"], ["src/legacy_a.py"]),
        ("src/*_test.py", ["src/cache_test.py"], ["src/cache_test.pyx"]),
        ("job?.py", ["job1.py", "a/jobs.py"], ["job12.py", "job/.py"]),
        ("[ab].py", ["a.py", "b.py"], ["c.py"]),
        ("[!ab].py", ["c.py"], ["a.py"]),
        ("src/[.py", ["src/[.py"], ["src/a.py"]),
        ("a+b (1).py", ["a+b (1).py"], ["aab (1).py"]),
    ],
)
def test_glob(glob: str, matches: list[str], misses: list[str]) -> None:
    regex = re.compile(glob_regex(glob), re.DOTALL)
    assert [p for p in matches if not regex.fullmatch(p)] == []
    assert [p for p in misses if regex.fullmatch(p)] == []


@pytest.mark.parametrize(
    ("path", "root", "expected"),
    [
        ("/repo/src/a.py", "/repo", "src/a.py"),
        ("/repo/src/a.py", "/repo/", "src/a.py"),
        ("/other/a.py", "/repo", "/other/a.py"),
        ("./src/a.py", "/repo", "src/a.py"),
        ("src\\win\\a.py", None, "src/win/a.py"),
    ],
)
def test_relative_path(path: str, root: str | None, expected: str) -> None:
    assert relative_path(path, root) == expected


def test_path_ignores_union_of_matching_globs() -> None:
    ignores = PathIgnores({"tests/**": {"CMD001"}, "*.py": {"KEY005"}, "docs/**": {"CMD002"}}, root="/repo")
    assert ignores.ids("/repo/tests/a.py") == {"CMD001", "KEY005"}
    assert ignores.ids("tests/a.txt") == {"CMD001"}
    assert ignores.ids("src/a.txt") == frozenset()
    assert not PathIgnores({})
