"""Running a package's tests on both cores: the compiled modules and the pure-Python code (`rediscipline.compiled`).

A conftest makes every test of its package run twice with `core_fixture(module)`: once with the compiled
module `module` (skipped without it, and failing under CI, whose `make venv` builds it), once with
`REDISCIPLINE_PURE=1`; or once, on the core this checkout uses, with `one_core_fixture(module)`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from rediscipline import compiled

CORES = ("compiled", "pure")


def require_compiled(module: str) -> None:
    """Skip without the compiled module `module`, or fail under CI (which builds it)."""
    if compiled.load(module) is None:
        reason = f"{module} is not built in this checkout (make build-ext)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)


#: Set to 1, `one_core_fixture` packages run on both cores too.
BOTH_VARIABLE = "REDISCIPLINE_TEST_BOTH_CORES"


def one_core_fixture(module: str) -> Callable[..., Any]:
    """`core_fixture` for a package whose twin is held equal to the Python by a parity test of its own: its tests
    run on the compiled core when this checkout has it (always under CI), else on the pure one, and on both
    with REDISCIPLINE_TEST_BOTH_CORES=1."""
    if os.environ.get(BOTH_VARIABLE) == "1":
        return core_fixture(module)
    built = compiled.load(module) is not None or os.environ.get("CI") == "true"
    return core_fixture(module, ("compiled",) if built else ("pure",))


def core_fixture(module: str, cores: tuple[str, ...] = CORES) -> Callable[..., Any]:
    """A package-scoped, autouse fixture `core` ("compiled" or "pure") that switches the core for its tests."""

    @pytest.fixture(scope="package", params=cores, autouse=True)
    def core(request: pytest.FixtureRequest) -> Iterator[str]:
        name: str = request.param
        with pytest.MonkeyPatch.context() as patch:
            if name == "pure":
                patch.setenv(compiled.PURE_VARIABLE, "1")
            else:
                patch.delenv(compiled.PURE_VARIABLE, raising=False)
                require_compiled(module)
            yield name

    return core
