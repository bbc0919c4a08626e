"""The optional compiled core: which Cython modules this install has, and whether to use them.

Some hot loops have a compiled twin, a Cython module `_name.pyx` built into an extension `_name` next to the
pure-Python code it speeds up (the wheels carry them; a build without a C compiler, or `REDISCIPLINE_PURE=1`,
leaves only the pure-Python code, which gives the same results more slowly). A caller asks once, where it
chooses its implementation:

    kernel = compiled.load("rediscipline.engine._kernel")
    walk = kernel.walk if kernel is not None else walk_in_python

`core()` is the line `rediscipline --version` prints about it. This module imports nothing of rediscipline, so
any layer can use it, and nothing heavy, so `--version` stays fast.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import types

#: Set to anything but "" or "0", the compiled modules are not used (load returns None).
PURE_VARIABLE = "REDISCIPLINE_PURE"
#: The package whose compiled modules `core()` reports, and its folder in this install (os.path, not pathlib:
#: `--version` imports this module, and pathlib would be its only use of it).
PACKAGE = __name__.rpartition(".")[0]
PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def pure_requested() -> str | None:
    """The value of REDISCIPLINE_PURE when it asks for pure Python, else None (read on every call)."""
    value = os.environ.get(PURE_VARIABLE, "")
    return None if value in ("", "0") else value


def load(name: str) -> types.ModuleType | None:
    """The compiled module `name` (e.g. "rediscipline.engine._kernel"), or None to run the pure-Python code.

    None when REDISCIPLINE_PURE asks for pure Python, when this install has no extension module of that name,
    or when importing it fails with an ImportError (built for another Python, a missing shared library). A
    Python module of the same name is never returned: only an extension is a compiled core.
    """
    if pure_requested() is not None:
        return None
    try:
        spec = importlib.util.find_spec(name)
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            return None
        return importlib.import_module(name)
    except ImportError:
        return None


def extension_modules(package: str = PACKAGE, directory: str = PACKAGE_DIR) -> list[str]:
    """The extension modules `_*` under `directory` (the folder of `package`) that this Python can load, as
    dotted names, sorted: every compiled module the install has, found by its file, never listed by hand."""
    return sorted(_extension_files(package, directory))


def _extension_files(package: str, directory: str) -> dict[str, str]:
    """`extension_modules`, each with the path of its file."""
    found: dict[str, str] = {}
    for folder, subfolders, files in os.walk(directory):
        subfolders[:] = [name for name in subfolders if name.isidentifier() and name != "__pycache__"]
        relative = os.path.relpath(folder, directory)
        prefix = () if relative == os.curdir else tuple(relative.split(os.sep))
        for file in sorted(files):
            stem = _extension_stem(file)
            if stem is not None:
                found.setdefault(".".join((package, *prefix, stem)), os.path.join(folder, file))
    return found


def _load_file(name: str, path: str) -> types.ModuleType | None:
    """The extension module `name` loaded from `path`, without importing the packages above it: their
    `__init__` may import much (`rediscipline.rules` imports every rule), and `--version` needs none of it.
    The module is not left in `sys.modules`, so a later import goes through its packages as usual (and
    Cython hands it the module made here). One imported already is that one; None when it does not load."""
    module = sys.modules.get(name)
    if module is not None:
        spec = getattr(module, "__spec__", None)
        return module if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader) else None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError:
        return None
    finally:
        sys.modules.pop(name, None)
    return module


def _extension_stem(file: str) -> str | None:
    """`_walk` for `_walk.cpython-312-x86_64-linux-gnu.so` (any suffix this Python imports), else None."""
    if not file.startswith("_"):
        return None
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        if file.endswith(suffix):
            stem = file[: -len(suffix)]
            if stem.isidentifier():
                return stem
    return None


def core() -> str:
    """One line naming the core in use, e.g.

    `core: compiled (Cython 3.1.2, modules: engine._kernel, sources.rdb._walk)`,
    `core: pure Python (REDISCIPLINE_PURE=1)`, `core: pure Python (no compiled modules in this install)`.
    """
    return describe_core(PACKAGE, PACKAGE_DIR)


def describe_core(package: str, directory: str) -> str:
    """`core()` for the compiled modules of `package`, whose folder is `directory`.

    The Cython version is the one each loaded module was built with: its `CYTHON_VERSION` attribute
    (`CYTHON_VERSION = cython.__version__` in the .pyx, a constant Cython writes into the C code).
    """
    value = pure_requested()
    if value is not None:
        return f"core: pure Python ({PURE_VARIABLE}={value})"
    files = _extension_files(package, directory)
    if not files:
        return "core: pure Python (no compiled modules in this install)"
    loaded: dict[str, types.ModuleType] = {}
    failed: list[str] = []
    for name in sorted(files):
        module = _load_file(name, files[name])
        short = name.removeprefix(package + ".")
        if module is None:
            failed.append(short)
        else:
            loaded[short] = module
    if not loaded:
        return f"core: pure Python (compiled modules that do not load: {', '.join(failed)})"
    versions = {getattr(module, "CYTHON_VERSION", None) for module in loaded.values()}
    known = sorted(version for version in versions if isinstance(version, str))
    built_with = f"Cython {' and '.join(known)}" if known else "Cython version unknown"
    line = f"core: compiled ({built_with}, modules: {', '.join(loaded)}"
    if failed:
        line += f"; not loaded: {', '.join(failed)}"
    return line + ")"
