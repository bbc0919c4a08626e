"""Packages of compiled probe modules, built once per session with the build hook's own code (hatch_build.py):
real Cython, a real C compiler, real extension modules imported by `rediscipline.compiled`.

    probepkg/_fast        CYTHON_VERSION, answer() -> 42
    probepkg/sub/_walk    CYTHON_VERSION, probe() -> 1
    probemixed/_ok        no CYTHON_VERSION
    probemixed/_bogus     an "extension" file that is not one (its import fails)
    probepure/            Python modules only
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import hatch_build
import pytest

FAST = "import cython\nCYTHON_VERSION = cython.__version__\ndef answer():\n    return 42\n"
WALK = "import cython\nCYTHON_VERSION = cython.__version__\ndef probe():\n    return 1\n"
OK = "def ok():\n    return True\n"
PROBE_PACKAGES = ("probepkg", "probemixed", "probepure")


@dataclass(frozen=True)
class Probes:
    """The folder put on sys.path, holding the probe packages."""

    source: Path

    def package(self, name: str) -> Path:
        return self.source / name


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="session")
def probe_build(tmp_path_factory: pytest.TempPathFactory) -> Probes:
    root = tmp_path_factory.mktemp("probes")
    source = root / hatch_build.SOURCE_DIR
    for package in PROBE_PACKAGES:
        write(source / package / "__init__.py", "")
    write(source / "probepkg" / "sub" / "__init__.py", "")
    write(source / "probepkg" / "_fast.pyx", FAST)
    write(source / "probepkg" / "sub" / "_walk.pyx", WALK)
    write(source / "probemixed" / "_ok.pyx", OK)
    write(source / "probepure" / "_plain.py", "VALUE = 1\n")
    modules = [
        hatch_build.Module(name, source.joinpath(*name.split(".")).with_suffix(".pyx"))
        for name in ("probepkg._fast", "probepkg.sub._walk", "probemixed._ok")
    ]
    hatch_build.build_in_place(root, modules)
    bogus = source / "probemixed" / f"_bogus{importlib.machinery.EXTENSION_SUFFIXES[0]}"
    bogus.write_bytes(b"not a shared library\n")
    return Probes(source)


@pytest.fixture
def probes(probe_build: Probes, monkeypatch: pytest.MonkeyPatch) -> Iterator[Probes]:
    """The probe packages importable, REDISCIPLINE_PURE unset; their modules forgotten afterwards."""
    monkeypatch.syspath_prepend(str(probe_build.source))
    monkeypatch.delenv("REDISCIPLINE_PURE", raising=False)
    yield probe_build
    for name in list(sys.modules):
        if name.split(".")[0] in PROBE_PACKAGES:
            del sys.modules[name]
