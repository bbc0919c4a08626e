"""The command line as a user runs it: `python -m rediscipline ARGS --isolated` in a process of its own, its
output captured as text, its exit code left to the test."""

from __future__ import annotations

import subprocess
import sys


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `rediscipline ARGS` without any convention file (`--isolated`)."""
    return subprocess.run(
        [sys.executable, "-m", "rediscipline", *args, "--isolated"],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
