"""Hatchling build hook: compiles rediscipline's optional Cython modules into the wheel.

Every `src/rediscipline/**/_*.pyx` is the compiled twin of pure-Python code; `rediscipline.compiled.load`
uses it when it is there. A standard wheel build cythonizes each one (language_level 3, `binding=False`) and
compiles it with setuptools' `build_ext` in a temporary folder, then adds the extension to the wheel, which
becomes a platform wheel (`cp312-cp312-linux_x86_64`, ...). When Cython or setuptools is missing, there is no
working C compiler, or a module does not compile, the hook prints one warning line (which module, why) and the
wheel stays pure Python (`py3-none-any`); with `REDISCIPLINE_REQUIRE_COMPILED=1` (the release workflow) that
is an error instead. An editable install (`pip install -e .`) builds the extensions in place, next to their
`.pyx` in `src/`, as `scripts/build_ext.py` (`make build-ext`) does with the same functions.

Cython, setuptools and the compiler run only inside `compile_modules`: importing this file needs hatchling
alone, and the compilers' own output goes to a log whose first error line is what the warning quotes.
"""

from __future__ import annotations

import importlib.machinery
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any, NamedTuple

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGE = "rediscipline"
SOURCE_DIR = "src"
REQUIRE_VARIABLE = "REDISCIPLINE_REQUIRE_COMPILED"
#: Cython's defaults otherwise; `binding=False` keeps the module's functions plain builtins (smaller, faster).
COMPILER_DIRECTIVES: dict[str, Any] = {"language_level": 3, "binding": False}
#: A warning quotes at most this much of a compiler's message.
REASON_LIMIT = 240


class Module(NamedTuple):
    """One `_*.pyx` file and the dotted name its extension module has.

    (A NamedTuple, not a dataclass: hatchling loads this file without registering it in sys.modules.)
    """

    name: str  # rediscipline.sources.rdb._walk
    source: Path  # absolute path of the .pyx

    def extension_path(self, lib_dir: Path) -> Path:
        """Where the extension for this interpreter goes under `lib_dir` (a site-packages-like tree)."""
        return lib_dir.joinpath(*self.name.split(".")).with_name(self.name.rpartition(".")[2] + extension_suffix())


class CompileFailure(Exception):
    """A module that could not be compiled, and why, in one line."""

    def __init__(self, module: Module, reason: str, log: str = "") -> None:
        super().__init__(f"{module.name}: {reason}")
        self.module = module
        self.reason = reason
        self.log = log  # everything Cython and the compiler printed

    def warning(self) -> str:
        return (
            f"rediscipline: {self.module.name} not compiled ({self.reason}); the pure-Python code runs instead "
            f"(set {REQUIRE_VARIABLE}=1 to make this an error)"
        )


def extension_suffix() -> str:
    """The file suffix setuptools gives extensions for this interpreter (`.cpython-312-x86_64-linux-gnu.so`)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return suffix if isinstance(suffix, str) and suffix else importlib.machinery.EXTENSION_SUFFIXES[0]


def compiled_required() -> bool:
    return os.environ.get(REQUIRE_VARIABLE, "") not in ("", "0")


def find_modules(root: Path) -> list[Module]:
    """Every `src/rediscipline/**/_*.pyx` under the project `root`, sorted by name."""
    source_dir = root / SOURCE_DIR
    found = []
    for pyx in (source_dir / PACKAGE).rglob("_*.pyx"):
        parts = pyx.relative_to(source_dir).with_suffix("").parts
        found.append(Module(".".join(parts), pyx.resolve()))
    return sorted(found, key=lambda module: module.name)


# ---- compiling -------------------------------------------------------------------------------------------------


def compile_modules(modules: Sequence[Module], root: Path, lib_dir: Path, work_dir: Path) -> dict[Module, Path]:
    """Compile each module into `lib_dir` (laid out as site-packages); the extension file of each.

    Stops at the first module that does not compile (`CompileFailure`): a wheel is either wholly compiled or
    wholly pure Python. The generated C files and object files stay in `work_dir`.
    """
    return {module: _compile(module, root / SOURCE_DIR, lib_dir, work_dir) for module in modules}


def _compile(module: Module, source_dir: Path, lib_dir: Path, work_dir: Path) -> Path:
    try:
        from Cython.Build import cythonize
    except ImportError:
        raise CompileFailure(module, "Cython is not installed; it is a build requirement: Cython>=3.1") from None
    try:
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext
    except ImportError:
        raise CompileFailure(module, "setuptools is not installed; it is a build requirement: setuptools>=68") from None

    log = work_dir / f"{module.name}.log"
    work_dir.mkdir(parents=True, exist_ok=True)
    stage, failure = "Cython", None
    with _output_to(log):
        try:
            extensions = cythonize(
                [Extension(module.name, [str(module.source)])],
                compiler_directives=COMPILER_DIRECTIVES,
                include_path=[str(source_dir)],
                build_dir=str(work_dir / "c"),
                force=True,
                quiet=True,
            )
            stage = "the C compiler"
            command = build_ext(Distribution({"name": PACKAGE, "ext_modules": extensions}))
            command.build_lib = str(lib_dir)
            command.build_temp = str(work_dir / "temp")
            command.ensure_finalized()
            command.run()
            built = Path(command.get_ext_fullpath(module.name))
        except Exception as error:  # whatever stops a build (CompileError, a missing MSVC, ...) means "pure Python"
            failure = error
    output = log.read_text(encoding="utf-8", errors="replace")
    if failure is not None:
        raise CompileFailure(module, _reason(stage, failure, output), output)
    return built


#: Cython prints `path.pyx:LINE:COL: message` after the excerpt of the code it refuses.
CYTHON_ERROR = re.compile(r"^(\S+\.(?:pyx|pxd):\d+:\d+: .+)$", flags=re.MULTILINE)
#: gcc and clang print `file.c:LINE:COL: error: ...` (or `fatal error:`), MSVC `file.c(LINE): error C1083: ...`.
C_ERROR = re.compile(r"^(.*\berror\b.*)$", flags=re.MULTILINE | re.IGNORECASE)


def _reason(stage: str, error: Exception, output: str) -> str:
    """Why `stage` failed, on one line: the first error line it printed, else what the exception says."""
    program = _failed_program(error)
    if isinstance(program, FileNotFoundError):
        reason = f"no C compiler: {program.filename} not found"
    else:
        first = (CYTHON_ERROR if stage == "Cython" else C_ERROR).search(output)
        if first is not None:
            detail = first.group(1)
        elif isinstance(program, subprocess.CalledProcessError):
            command = program.cmd if isinstance(program.cmd, (list, tuple)) else str(program.cmd).split()
            detail = f"{command[0]} exited with status {program.returncode}"
        else:
            detail = str(error) or type(error).__name__
        reason = f"{stage} failed: {' '.join(detail.split())}"
    return reason if len(reason) <= REASON_LIMIT else reason[: REASON_LIMIT - 1] + "…"


def _failed_program(error: BaseException) -> OSError | subprocess.CalledProcessError | None:
    """The failed run of a program behind `error`: setuptools wraps it (`CompileError(CalledProcessError)`)."""
    seen: list[BaseException] = []
    pending: list[object] = [error]
    while pending:
        current = pending.pop()
        if not isinstance(current, BaseException) or any(current is done for done in seen):
            continue
        if isinstance(current, (OSError, subprocess.CalledProcessError)):
            return current
        seen.append(current)
        pending.extend([*current.args, current.__cause__, current.__context__])
    return None


@contextmanager
def _output_to(log: Path) -> Iterator[None]:
    """Send all this process prints to `log`: file descriptors 1 and 2 (the compiler, a child process, writes
    there) and sys.stdout and sys.stderr (Cython writes there, which need not be those descriptors)."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    try:
        with log.open("ab") as sink, log.open("a", encoding="utf-8", errors="replace", buffering=1) as text:
            os.dup2(sink.fileno(), 1)
            os.dup2(sink.fileno(), 2)
            with redirect_stdout(text), redirect_stderr(text):
                yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])


# ---- in place (development checkouts) --------------------------------------------------------------------------


def stale_modules(root: Path, modules: Sequence[Module]) -> list[Module]:
    """The modules whose in-place extension is missing, or older than its `.pyx` or any `.pxd` of the package."""
    declarations = [path.stat().st_mtime for path in (root / SOURCE_DIR / PACKAGE).rglob("*.pxd")]
    stale = []
    for module in modules:
        target = module.extension_path(root / SOURCE_DIR)
        newest_input = max([module.source.stat().st_mtime, *declarations])
        if not target.exists() or target.stat().st_mtime < newest_input:
            stale.append(module)
    return stale


def orphan_extensions(root: Path, modules: Sequence[Module]) -> list[Path]:
    """Extension files `_*<suffix>` in the source tree whose `.pyx` is gone (a renamed or removed module)."""
    sources = {module.source.with_suffix("") for module in modules}
    orphans = []
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        for path in (root / SOURCE_DIR / PACKAGE).rglob(f"_*{suffix}"):
            stem = path.name[: -len(suffix)]
            if stem.isidentifier() and path.with_name(stem) not in sources:
                orphans.append(path)
    return sorted(set(orphans))


def build_in_place(root: Path, modules: Sequence[Module]) -> list[Path]:
    """Compile `modules` next to their `.pyx`; the extension files written.

    Each extension is built in a temporary folder and then renamed over the old one, so a process that has the
    old one loaded keeps its (unlinked) file intact. When one does not compile (`CompileFailure`), the old
    extensions of `modules` are removed: the pure-Python code runs, never a compiled copy of an older `.pyx`.
    """
    with tempfile.TemporaryDirectory(prefix="rediscipline-build-ext-") as work:
        try:
            built = compile_modules(modules, root, Path(work) / "lib", Path(work))
        except CompileFailure:
            for module in modules:
                module.extension_path(root / SOURCE_DIR).unlink(missing_ok=True)
            raise
        written = []
        for module, path in built.items():
            target = module.extension_path(root / SOURCE_DIR)
            os.replace(path, target)
            written.append(target)
    return written


# ---- the hook --------------------------------------------------------------------------------------------------


class CompiledCoreHook(BuildHookInterface):  # type: ignore[type-arg]
    """`[tool.hatch.build.targets.wheel.hooks.custom]`: the compiled core in the wheel, or a pure wheel."""

    PLUGIN_NAME = "custom"
    _work: Path | None = None  # the temporary folder of a standard build, removed by finalize

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        modules = find_modules(root)
        if not modules:
            return
        try:
            if version == "editable":
                for path in build_in_place(root, stale_modules(root, modules)):
                    self.app.display_info(f"rediscipline: compiled {path.relative_to(root)}")
                return
            self._work = Path(tempfile.mkdtemp(prefix="rediscipline-build-"))
            lib_dir = self._work / "lib"
            built = compile_modules(modules, root, lib_dir, self._work)
        except CompileFailure as failure:
            if compiled_required():
                self.app.display_error(failure.log)
                message = f"rediscipline: {failure} ({REQUIRE_VARIABLE} is set: the compiled core is required)"
                raise RuntimeError(message) from None
            self.app.display_warning(failure.warning())
            return
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        for module, path in built.items():
            build_data["force_include"][str(path)] = path.relative_to(lib_dir).as_posix()
            self.app.display_info(f"rediscipline: compiled {module.name} ({path.name})")

    def finalize(self, version: str, build_data: dict[str, Any], _artifact_path: str) -> None:
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)
            self._work = None
