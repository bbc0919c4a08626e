"""hatch_build.py, the build hook of the optional compiled core: what it compiles, when it falls back to pure
Python and what it says then, and one real wheel build of a small project that uses it (a few seconds: no
build isolation, the development virtualenv has hatchling, Cython and setuptools)."""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import hatch_build
import pytest
from hatch_build import CompileFailure, Module

ROOT = Path(__file__).resolve().parents[2]
SUFFIX = hatch_build.extension_suffix()
PROBE = "import cython\nCYTHON_VERSION = cython.__version__\ndef probe():\n    return 1\n"


def project(root: Path, modules: dict[str, str]) -> list[Module]:
    """A source tree `root/src/rediscipline/...` with the given `.pyx` files (dotted name -> text)."""
    package = root / "src" / "rediscipline"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text('__version__ = "0.0.1"\n', encoding="utf-8")
    for name, text in modules.items():
        path = root / "src" / Path(*name.split(".")).with_suffix(".pyx")
        path.parent.mkdir(parents=True, exist_ok=True)
        for folder in path.relative_to(package).parents:
            (package / folder / "__init__.py").touch()
        path.write_text(text, encoding="utf-8")
    return hatch_build.find_modules(root)


def test_find_modules_lists_every_underscore_pyx_by_its_dotted_name(tmp_path: Path) -> None:
    modules = project(tmp_path, {"rediscipline.engine._kernel": PROBE, "rediscipline.sources.rdb._walk": PROBE})
    (tmp_path / "src" / "rediscipline" / "public.pyx").write_text(PROBE, encoding="utf-8")  # not `_`: not ours
    assert [module.name for module in modules] == ["rediscipline.engine._kernel", "rediscipline.sources.rdb._walk"]
    assert modules[1].source == tmp_path / "src" / "rediscipline" / "sources" / "rdb" / "_walk.pyx"


def test_a_module_compiles_into_an_extension_of_its_dotted_name(tmp_path: Path) -> None:
    [module] = project(tmp_path, {"rediscipline.sources.rdb._walk": PROBE})
    built = hatch_build.compile_modules([module], tmp_path, tmp_path / "lib", tmp_path / "work")
    assert built == {module: tmp_path / "lib" / "rediscipline" / "sources" / "rdb" / f"_walk{SUFFIX}"}
    assert not list((tmp_path / "src").rglob("*.c"))  # the C code stays in the work folder


@pytest.mark.parametrize(
    ("compiler", "reason"),
    [
        ("/bin/false", "the C compiler failed: /bin/false exited with status 1"),
        ("/nonexistent/cc", "no C compiler: /nonexistent/cc not found"),
    ],
)
def test_a_compiler_that_fails_is_one_warning_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, compiler: str, reason: str
) -> None:
    [module] = project(tmp_path, {"rediscipline._probe": PROBE})
    monkeypatch.setenv("CC", compiler)
    with pytest.raises(CompileFailure) as failure:
        hatch_build.compile_modules([module], tmp_path, tmp_path / "lib", tmp_path / "work")
    assert failure.value.reason == reason
    assert failure.value.warning() == (
        f"rediscipline: rediscipline._probe not compiled ({reason}); the pure-Python code runs instead "
        "(set REDISCIPLINE_REQUIRE_COMPILED=1 to make this an error)"
    )


def test_code_cython_refuses_is_named_with_its_place(tmp_path: Path) -> None:
    [module] = project(tmp_path, {"rediscipline._probe": "def probe(:\n    pass\n"})
    with pytest.raises(CompileFailure) as failure:
        hatch_build.compile_modules([module], tmp_path, tmp_path / "lib", tmp_path / "work")
    assert failure.value.reason == f"Cython failed: {module.source}:1:10: Expected ')', found ':'"
    assert "Error compiling Cython file" in failure.value.log


def test_in_place_builds_what_is_stale_and_a_failure_leaves_pure_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    [module] = project(tmp_path, {"rediscipline._probe": PROBE})
    target = module.source.with_name(f"_probe{SUFFIX}")
    assert hatch_build.stale_modules(tmp_path, [module]) == [module]
    assert hatch_build.build_in_place(tmp_path, [module]) == [target]
    assert hatch_build.stale_modules(tmp_path, [module]) == []
    os.utime(module.source, (target.stat().st_mtime + 10,) * 2)  # the .pyx edited after the build
    assert hatch_build.stale_modules(tmp_path, [module]) == [module]
    monkeypatch.setenv("CC", "/bin/false")
    with pytest.raises(CompileFailure):
        hatch_build.build_in_place(tmp_path, [module])
    assert not target.exists()  # never a compiled copy of an older .pyx


def test_an_extension_whose_pyx_is_gone_is_an_orphan(tmp_path: Path) -> None:
    modules = project(tmp_path, {"rediscipline._kept": PROBE})
    package = tmp_path / "src" / "rediscipline"
    for name in (f"_kept{SUFFIX}", f"_renamed{SUFFIX}", f"public{SUFFIX}"):
        (package / name).write_bytes(b"")
    assert hatch_build.orphan_extensions(tmp_path, modules) == [package / f"_renamed{SUFFIX}"]


PYPROJECT = """\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "rediscipline"
version = "0.0.1"
requires-python = ">=3.10"

[tool.hatch.build.targets.wheel]
packages = ["src/rediscipline"]
exclude = ["src/rediscipline/**/*.pyx"]

[tool.hatch.build.targets.wheel.hooks.custom]
path = "hatch_build.py"
"""


def build_wheel(root: Path, out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("CC", hatch_build.REQUIRE_VARIABLE)}
    return subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(root)],
        capture_output=True,
        text=True,
        env={**environment, **env},
        timeout=300,
        check=False,
    )


def test_wheels_of_a_project_with_the_hook(tmp_path: Path) -> None:
    """The compiled wheel (platform tag, the extension, no sources); with no working compiler the pure wheel
    and one warning line; with REDISCIPLINE_REQUIRE_COMPILED=1 no wheel and an error."""
    root = tmp_path / "project"
    project(root, {"rediscipline.sources.rdb._walk": PROBE})
    shutil.copy(ROOT / "hatch_build.py", root / "hatch_build.py")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")

    done = build_wheel(root, tmp_path / "compiled")
    assert done.returncode == 0, done.stderr
    [wheel] = (tmp_path / "compiled").glob("*.whl")
    python = f"cp{sys.version_info.major}{sys.version_info.minor}"
    assert wheel.name.startswith(f"rediscipline-0.0.1-{python}-{python}-")  # a CPython platform wheel
    assert not wheel.name.endswith("-any.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = [name for name in archive.namelist() if not name.startswith("rediscipline-0.0.1.dist-info/")]
        assert "Root-Is-Purelib: false" in archive.read("rediscipline-0.0.1.dist-info/WHEEL").decode()
    assert sorted(names) == [
        "rediscipline/__init__.py",
        "rediscipline/sources/__init__.py",
        "rediscipline/sources/rdb/__init__.py",
        f"rediscipline/sources/rdb/_walk{SUFFIX}",
    ]

    done = build_wheel(root, tmp_path / "pure", CC="/bin/false")
    assert done.returncode == 0, done.stderr
    assert [wheel.name for wheel in (tmp_path / "pure").glob("*.whl")] == ["rediscipline-0.0.1-py3-none-any.whl"]
    warnings = [line for line in (done.stdout + done.stderr).splitlines() if " not compiled (" in line]
    assert warnings == [
        "rediscipline: rediscipline.sources.rdb._walk not compiled (the C compiler failed: /bin/false exited "
        "with status 1); the pure-Python code runs instead (set REDISCIPLINE_REQUIRE_COMPILED=1 to make this "
        "an error)"
    ]

    done = build_wheel(root, tmp_path / "required", CC="/bin/false", REDISCIPLINE_REQUIRE_COMPILED="1")
    assert done.returncode != 0
    assert not (tmp_path / "required").exists() or not list((tmp_path / "required").glob("*.whl"))
    assert (
        "RuntimeError: rediscipline: rediscipline.sources.rdb._walk: the C compiler failed: /bin/false exited "
        "with status 1 (REDISCIPLINE_REQUIRE_COMPILED is set: the compiled core is required)"
    ) in done.stderr


def test_extension_suffix_is_one_python_imports() -> None:
    assert SUFFIX in importlib.machinery.EXTENSION_SUFFIXES
