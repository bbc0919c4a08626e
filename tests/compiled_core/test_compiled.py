"""rediscipline.compiled against real extension modules: load() and REDISCIPLINE_PURE, core()'s wording."""

from __future__ import annotations

import importlib
import importlib.machinery
import re
import sys
from pathlib import Path

import Cython
import pytest
from scripts.check_core import expected_modules

from rediscipline import compiled
from rediscipline.compiled import PURE_VARIABLE, describe_core, extension_modules, load
from tests.compiled_core.conftest import Probes

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def test_load_returns_the_compiled_module(probes: Probes) -> None:
    module = load("probepkg._fast")
    assert module is not None
    assert isinstance(module.__spec__.loader, importlib.machinery.ExtensionFileLoader)
    assert module.answer() == 42
    assert Cython.__version__ == module.CYTHON_VERSION


@pytest.mark.parametrize("value", ["1", "yes", "true", "anything"])
def test_load_returns_none_when_pure_python_is_asked_for(
    probes: Probes, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    assert load("probepkg._fast") is not None  # imported: REDISCIPLINE_PURE still wins, read on every call
    monkeypatch.setenv(PURE_VARIABLE, value)
    assert load("probepkg._fast") is None


@pytest.mark.parametrize("value", ["", "0"])
def test_load_returns_the_module_when_pure_python_is_not_asked_for(
    probes: Probes, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(PURE_VARIABLE, value)
    module = load("probepkg.sub._walk")
    assert module is not None
    assert module.probe() == 1


@pytest.mark.parametrize("name", ["probepkg._missing", "probepkg.nosuch._walk", "no_such_package._kernel"])
def test_load_returns_none_for_a_missing_module(probes: Probes, name: str) -> None:
    assert load(name) is None


def test_load_returns_none_for_an_extension_that_does_not_import(probes: Probes) -> None:
    assert load("probemixed._bogus") is None


def test_load_never_returns_a_python_module(probes: Probes) -> None:
    assert load("probepure._plain") is None


def test_core_names_the_compiled_modules_and_the_cython_that_built_them(probes: Probes) -> None:
    line = describe_core("probepkg", str(probes.package("probepkg")))
    assert line == f"core: compiled (Cython {Cython.__version__}, modules: _fast, sub._walk)"


def test_core_loads_a_compiled_module_without_the_packages_above_it(probes: Probes) -> None:
    """A package's `__init__` may import much (`rediscipline.rules`: every rule); `--version` needs none of it.
    A later import of the module goes through its packages as usual."""
    describe_core("probepkg", str(probes.package("probepkg")))
    assert not {"probepkg.sub", "probepkg.sub._walk"} & set(sys.modules)
    walk = importlib.import_module("probepkg.sub._walk")
    assert sys.modules["probepkg.sub"].__dict__["_walk"] is walk
    assert walk.probe() == 1
    assert load("probepkg.sub._walk") is walk


def test_core_names_modules_that_do_not_load_and_an_unknown_cython(probes: Probes) -> None:
    line = describe_core("probemixed", str(probes.package("probemixed")))
    assert line == "core: compiled (Cython version unknown, modules: _ok; not loaded: _bogus)"


def test_core_is_pure_python_when_no_compiled_module_loads(probes: Probes, tmp_path: Path) -> None:
    (tmp_path / f"_bogus{SUFFIX}").write_bytes(b"\x7fELF, not really")
    line = describe_core("probemixed", str(tmp_path))
    assert line == "core: pure Python (compiled modules that do not load: _bogus)"


def test_core_is_pure_python_when_asked_for(probes: Probes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PURE_VARIABLE, "1")
    assert describe_core("probepkg", str(probes.package("probepkg"))) == "core: pure Python (REDISCIPLINE_PURE=1)"
    monkeypatch.setenv(PURE_VARIABLE, "yes")
    assert compiled.core() == "core: pure Python (REDISCIPLINE_PURE=yes)"


def test_core_is_pure_python_without_compiled_modules(probes: Probes) -> None:
    line = describe_core("probepure", str(probes.package("probepure")))
    assert line == "core: pure Python (no compiled modules in this install)"


def test_extension_modules_are_found_by_their_files(tmp_path: Path) -> None:
    for name in [
        f"_a{SUFFIX}",
        f"sub/_b{SUFFIX}",
        f"sub/deeper/_c{SUFFIX}",
        f"public{SUFFIX}",  # not a `_` module
        "_d.cpython-39-x86_64-linux-gnu.so",  # built for another Python
        "_e.pyx",
        "_e.c",
        "_f.py",
        f"__pycache__/_g{SUFFIX}",
        f"not-a-package/_h{SUFFIX}",
    ]:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
    assert extension_modules("pkg", str(tmp_path)) == ["pkg._a", "pkg.sub._b", "pkg.sub.deeper._c"]


def test_the_development_install_has_every_module_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """`make venv` (make build-ext) compiles every src/rediscipline/**/_*.pyx in place."""
    monkeypatch.delenv(PURE_VARIABLE, raising=False)
    modules = expected_modules()
    assert extension_modules() == [f"rediscipline.{name}" for name in modules]
    if not modules:
        assert compiled.core() == "core: pure Python (no compiled modules in this install)"
    else:
        pattern = rf"core: compiled \(Cython \d+\.\d+\.\d+\S*, modules: {re.escape(', '.join(modules))}\)"
        assert re.fullmatch(pattern, compiled.core())
