"""Architecture guards: module size, a dependency-free core, and the import-linter contracts."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "rediscipline"
MAX_MODULE_LINES = 800
CORE_MODULES = ("rediscipline.model", "rediscipline.redis_meta", "rediscipline.rules")
HEAVY_DEPENDENCIES = ("redis", "click", "rich")


def test_modules_stay_small() -> None:
    sizes = {path.relative_to(ROOT).as_posix(): len(path.read_bytes().splitlines()) for path in PACKAGE.rglob("*.py")}
    assert sizes, f"no modules found under {PACKAGE}"
    offenders = {name: lines for name, lines in sorted(sizes.items()) if lines > MAX_MODULE_LINES}
    assert not offenders, f"modules over the {MAX_MODULE_LINES}-line cap (split them): {offenders}"


def test_core_imports_no_heavy_dependencies() -> None:
    """The model and the rules load without redis-py, click or rich: a fresh interpreter proves it."""
    probe = (
        "import importlib, json, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        f"heavy = {HEAVY_DEPENDENCIES!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in heavy)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=False, timeout=120
    )
    assert done.returncode == 0, f"importing {CORE_MODULES} failed:\n{done.stderr}"
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert not loaded, f"importing {', '.join(CORE_MODULES)} pulled in {loaded}"


def test_import_contracts_hold() -> None:
    exe = Path(sys.executable).parent / ("lint-imports.exe" if os.name == "nt" else "lint-imports")
    if not exe.exists():
        found = shutil.which("lint-imports")
        if found is None:
            pytest.skip(f"lint-imports (import-linter) is not installed next to {sys.executable} nor on PATH")
        exe = Path(found)
    done = subprocess.run([str(exe), "--no-logo"], capture_output=True, text=True, cwd=ROOT, check=False, timeout=300)
    assert done.returncode == 0, f"import contracts broken:\n{done.stdout}\n{done.stderr}"
