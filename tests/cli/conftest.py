from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

Run = Callable[..., subprocess.CompletedProcess[bytes]]


@pytest.fixture
def run(tmp_path: Path) -> Run:
    """Run `python -m rediscipline ARGS` in an empty folder (no convention file is discovered)."""

    def _run(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "REDISCIPLINE_DEBUG")}
        return subprocess.run(
            [sys.executable, "-m", "rediscipline", *args],
            input=stdin if stdin is not None else b"",
            capture_output=True,
            cwd=cwd or tmp_path,
            env=env,
            timeout=120,
            check=False,
        )

    return _run
