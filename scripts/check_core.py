"""Check the core an installed rediscipline runs: the `core:` line of `rediscipline --version` against the checkout.

    python scripts/check_core.py compiled [--rediscipline PROGRAM]
    python scripts/check_core.py pure [--rediscipline PROGRAM]

`compiled`: the line is `core: compiled (Cython X.Y.Z, modules: ...)` and names exactly the modules of this
checkout's `src/rediscipline/**/_*.pyx`, every one loaded. `pure`: the line is `core: pure Python (no compiled
modules in this install)`. cibuildwheel runs it on every wheel it builds (pyproject.toml [tool.cibuildwheel]
test-command, from a virtualenv holding only that wheel), and `make smoke` on the wheels it builds, so it uses
the standard library only. PROGRAM defaults to the `rediscipline` found on PATH. Exit 0 when the line is as
expected, 1 (with what it printed) otherwise.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIR = ROOT / "src" / "rediscipline"
PURE_LINE = "core: pure Python (no compiled modules in this install)"
COMPILED_LINE = re.compile(r"core: compiled \(Cython \d+\.\d+\S*, modules: (?P<modules>[\w.]+(?:, [\w.]+)*)\)")


def expected_modules(package_dir: Path = PACKAGE_DIR) -> list[str]:
    """The compiled modules a wheel of this checkout holds, as `core()` names them: `sources.rdb._walk`."""
    return sorted(".".join(pyx.relative_to(package_dir).with_suffix("").parts) for pyx in package_dir.rglob("_*.pyx"))


def core_problem(expect: str, version_output: str, modules: Sequence[str]) -> str | None:
    """What is wrong with the `core:` line of `version_output` when `expect` ("compiled" or "pure"), or None."""
    lines = version_output.splitlines()
    line = lines[1] if len(lines) == 2 else None
    if line is None or not line.startswith("core: "):
        return f"`rediscipline --version` printed {version_output!r}: not a version line and a core line"
    if expect == "pure":
        return None if line == PURE_LINE else f"expected {PURE_LINE!r}, got {line!r}"
    if not modules:
        return "this checkout has no src/rediscipline/**/_*.pyx: there is no compiled core to expect"
    match = COMPILED_LINE.fullmatch(line)
    if match is None:
        return f"expected `core: compiled (Cython X.Y.Z, modules: {', '.join(modules)})`, got {line!r}"
    named = match.group("modules").split(", ")
    if named != list(modules):
        return f"the compiled core names {named}, the checkout has {list(modules)}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("expect", choices=("compiled", "pure"), help="the core the install must run")
    parser.add_argument("--rediscipline", default=None, help="the program to run (default: rediscipline on PATH)")
    args = parser.parse_args(argv)
    program = args.rediscipline or shutil.which("rediscipline")
    if program is None:
        print("check_core: no `rediscipline` on PATH", file=sys.stderr)
        return 1
    env = {key: value for key, value in os.environ.items() if key != "REDISCIPLINE_PURE"}
    done = subprocess.run([program, "--version"], capture_output=True, text=True, env=env, timeout=120, check=False)
    problem = (
        f"`{program} --version` exited with {done.returncode}: {done.stderr.strip()}"
        if done.returncode != 0
        else core_problem(args.expect, done.stdout, expected_modules())
    )
    if problem is not None:
        print(f"check_core: {problem}", file=sys.stderr)
        return 1
    print(f"check_core: {done.stdout.splitlines()[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
