"""Compile the optional Cython modules in place, next to their `.pyx` in src/, for a development checkout.

    python scripts/build_ext.py [--force] [--clean]        (or: make build-ext; `make venv` runs it)

A module is compiled when its extension is missing or older than its `.pyx` (or than any `.pxd`); an extension
whose `.pyx` is gone is removed. The compiling is hatch_build.py's, the build hook of the wheel: same
directives, same fallback. When a module does not compile, one warning line says which and why and the
pure-Python code keeps running (exit 0), unless REDISCIPLINE_REQUIRE_COMPILED=1 (exit 1, with the compiler's
output). `--force` compiles every module; `--clean` removes the extensions and compiles nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # hatch_build.py sits at the project root, beside pyproject.toml

import hatch_build  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0] if __doc__ else None)
    parser.add_argument("--force", action="store_true", help="compile every module, even when up to date")
    parser.add_argument("--clean", action="store_true", help="remove the compiled extensions; compile nothing")
    args = parser.parse_args(argv)
    modules = hatch_build.find_modules(ROOT)
    removed = hatch_build.orphan_extensions(ROOT, modules)
    if args.clean:
        removed += [module.extension_path(ROOT / hatch_build.SOURCE_DIR) for module in modules]
    for path in removed:
        if path.exists():
            path.unlink()
            print(f"build-ext: removed {path.relative_to(ROOT)}")
    if args.clean:
        return 0
    stale = modules if args.force else hatch_build.stale_modules(ROOT, modules)
    if not stale:
        print(f"build-ext: {len(modules)} compiled module(s) up to date")
        return 0
    started = time.perf_counter()
    try:
        written = hatch_build.build_in_place(ROOT, stale)
    except hatch_build.CompileFailure as failure:
        if hatch_build.compiled_required():
            print(failure.log, file=sys.stderr)
            print(f"build-ext: {failure} ({hatch_build.REQUIRE_VARIABLE} is set)", file=sys.stderr)
            return 1
        print(failure.warning(), file=sys.stderr)
        return 0
    for path in written:
        print(f"build-ext: compiled {path.relative_to(ROOT)}")
    print(f"build-ext: {len(written)} module(s) in {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
