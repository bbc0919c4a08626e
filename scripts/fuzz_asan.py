"""Run the damaged-dump tests on the compiled core built with AddressSanitizer (`make fuzz-asan`).

The compiled walk reads the file through a pointer: a read past a buffer would not raise, it would read
whatever lies there. The robustness tests (truncation at every byte, every flipped byte, absurd lengths, the
mutation fuzzer) and the parity tests on damaged dumps and LZF streams run here on extensions compiled with
`-fsanitize=address`, in a copy of src/ (the checkout's own extensions are left alone), with the ASan runtime
preloaded into the interpreter (which is not built with ASan itself). Any invalid read or write aborts the run
with ASan's report; leak detection is off (the interpreter keeps memory until exit by design).

    python scripts/fuzz_asan.py [pytest options]

Exit status: pytest's, or 2 when gcc's libasan is not found.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Where Debian's gcc puts the runtime (`libasan8`); the first one found is preloaded.
RUNTIMES = ("/usr/lib/x86_64-linux-gnu/libasan.so.8", "/usr/lib/aarch64-linux-gnu/libasan.so.8")
TESTS = (
    "tests/rdb/test_robustness.py",
    "tests/core/test_parity.py",
)
#: The compiled runs of the robustness tests, and the parity tests that feed the compiled core damaged input.
SELECTION = "compiled or damaged or lzf or fast_paths"
FLAGS = "-fsanitize=address -fno-omit-frame-pointer -O1"


def runtime() -> str | None:
    found = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True, text=True, check=False)
    candidates = [found.stdout.strip(), *RUNTIMES] if found.returncode == 0 else list(RUNTIMES)
    return next((path for path in candidates if os.path.isabs(path) and os.path.exists(path)), None)


def main(argv: list[str]) -> int:
    library = runtime()
    if library is None:
        print("fuzz-asan: gcc's AddressSanitizer runtime (libasan) is not installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="rediscipline-asan-") as tmp:
        copy = Path(tmp)
        shutil.copytree(ROOT / "src", copy / "src", ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c"))
        shutil.copy2(ROOT / "hatch_build.py", copy)
        shutil.copy2(ROOT / "pyproject.toml", copy)
        (copy / "scripts").mkdir()
        shutil.copy2(ROOT / "scripts" / "build_ext.py", copy / "scripts")
        build = {**os.environ, "CFLAGS": FLAGS, "LDFLAGS": "-fsanitize=address", "REDISCIPLINE_REQUIRE_COMPILED": "1"}
        subprocess.run([sys.executable, "scripts/build_ext.py", "--force"], cwd=copy, env=build, check=True)
        test = {
            **os.environ,
            "PYTHONPATH": str(copy / "src"),
            "LD_PRELOAD": library,
            "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1",
            "CI": "true",  # the compiled runs fail, not skip, should the extensions not load
        }
        test.pop("REDISCIPLINE_PURE", None)
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS, "-k", SELECTION, *argv]
        print(f"fuzz-asan: {' '.join(command)} (extensions in {copy / 'src'}, LD_PRELOAD={library})", flush=True)
        return subprocess.run(command, cwd=ROOT, env=test, check=False).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
