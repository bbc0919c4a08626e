"""Which findings are in test code, and what the convention file's `tests` mode does with them.

A key written in a test or a `KEYS` call in a fixture is worth less than the same in library code: a
reader wants to see library findings first and may choose to hear only errors from tests. A file is test
code when its path, relative to the project root, matches one of `BUILT_IN` (gitignore-style globs, as
`per-file-ignores`) or a glob the convention file adds with `test-paths`. Findings in such files carry
`context = "test"`, others in files `context = "library"`; findings about servers, dumps and key lists
have no context.

`tests` decides what is reported from test code: everything (`report`, the default), only errors
(`errors-only`), or nothing (`ignore`); the findings left out are counted for a note.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from rediscipline.model.finding import CONTEXT_LIBRARY, CONTEXT_TEST, TESTS_MODES, Finding
from rediscipline.model.location import FILE_SOURCES
from rediscipline.model.severity import Severity
from rediscipline.suppress.paths import glob_regex, relative_path

#: Paths that are test code in every project: test folders at any depth, pytest and unittest file names.
BUILT_IN = ("tests/", "test/", "test_*.py", "*_test.py", "*_tests.py", "tests.py", "conftest.py")
TESTS_REPORT, TESTS_ERRORS_ONLY, TESTS_IGNORE = TESTS_MODES


class TestPaths:
    """Tells test files apart by path; memoised, since a file has many findings."""

    __test__ = False  # not a pytest test class

    def __init__(self, extra: Sequence[str] = (), root: str | None = None) -> None:
        self.root = root
        self._globs = [re.compile(glob_regex(glob), re.DOTALL) for glob in (*BUILT_IN, *extra)]
        self._memo: dict[str, bool] = {}

    def __call__(self, path: str) -> bool:
        found = self._memo.get(path)
        if found is None:
            relative = relative_path(path, self.root)
            found = self._memo[path] = any(regex.fullmatch(relative) for regex in self._globs)
        return found


@dataclass(frozen=True, slots=True)
class TestSplit:
    """The findings kept, each in a file with its context, and how many test findings `tests` left out."""

    __test__ = False

    kept: list[Finding]
    left_out: int


def split_tests(findings: Iterable[Finding], is_test: TestPaths, mode: str = TESTS_REPORT) -> TestSplit:
    """Give every finding in a file its context and apply `mode` (one of `TESTS_MODES`) to test findings."""
    kept: list[Finding] = []
    left_out = 0
    for finding in findings:
        path = finding.location.path
        if path is None or finding.location.source not in FILE_SOURCES:
            kept.append(finding)
            continue
        test = is_test(path)
        if test and (mode == TESTS_IGNORE or (mode == TESTS_ERRORS_ONLY and finding.severity < Severity.ERROR)):
            left_out += 1
            continue
        kept.append(replace(finding, context=CONTEXT_TEST if test else CONTEXT_LIBRARY))
    return TestSplit(kept, left_out)


__all__ = ["BUILT_IN", "TestPaths", "TestSplit", "split_tests"]
