"""scripts/check_core.py, the release's test of every wheel (cibuildwheel) and make smoke's: which `core:` lines
pass for "compiled" and for "pure"."""

from __future__ import annotations

import pytest
from scripts.check_core import core_problem

VERSION = "rediscipline 1.0.0 (Python 3.12.3, redis-py 5.2.1, hiredis 3.1.0)\n"
MODULES = ["engine._kernel", "sources.rdb._walk"]


def test_every_module_compiled_passes() -> None:
    line = "core: compiled (Cython 3.1.2, modules: engine._kernel, sources.rdb._walk)\n"
    assert core_problem("compiled", VERSION + line, MODULES) is None


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (
            "core: compiled (Cython 3.1.2, modules: engine._kernel)",
            "the compiled core names ['engine._kernel'], the checkout has ['engine._kernel', 'sources.rdb._walk']",
        ),
        (
            "core: compiled (Cython 3.1.2, modules: engine._kernel; not loaded: sources.rdb._walk)",
            "expected `core: compiled (Cython X.Y.Z, modules: engine._kernel, sources.rdb._walk)`, got "
            "'core: compiled (Cython 3.1.2, modules: engine._kernel; not loaded: sources.rdb._walk)'",
        ),
        (
            "core: compiled (Cython version unknown, modules: engine._kernel, sources.rdb._walk)",
            "expected `core: compiled (Cython X.Y.Z, modules: engine._kernel, sources.rdb._walk)`, got "
            "'core: compiled (Cython version unknown, modules: engine._kernel, sources.rdb._walk)'",
        ),
        (
            "core: pure Python (no compiled modules in this install)",
            "expected `core: compiled (Cython X.Y.Z, modules: engine._kernel, sources.rdb._walk)`, got "
            "'core: pure Python (no compiled modules in this install)'",
        ),
    ],
)
def test_a_core_short_of_every_module_compiled_fails(line: str, problem: str) -> None:
    assert core_problem("compiled", VERSION + line + "\n", MODULES) == problem


def test_pure_wants_the_install_without_compiled_modules() -> None:
    assert core_problem("pure", VERSION + "core: pure Python (no compiled modules in this install)\n", MODULES) is None
    assert core_problem("pure", VERSION + "core: pure Python (REDISCIPLINE_PURE=1)\n", MODULES) == (
        "expected 'core: pure Python (no compiled modules in this install)', got "
        "'core: pure Python (REDISCIPLINE_PURE=1)'"
    )


def test_a_version_output_without_a_core_line_fails() -> None:
    assert core_problem("compiled", VERSION, MODULES) == (
        f"`rediscipline --version` printed {VERSION!r}: not a version line and a core line"
    )


def test_compiled_needs_something_to_compile() -> None:
    line = "core: pure Python (no compiled modules in this install)\n"
    assert core_problem("compiled", VERSION + line, []) == (
        "this checkout has no src/rediscipline/**/_*.pyx: there is no compiled core to expect"
    )
