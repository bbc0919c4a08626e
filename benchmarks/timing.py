"""What the benchmark scripts share: finding GNU time, which reports a command's peak RSS (`-f %M`)."""

from __future__ import annotations

import os
import shutil
import subprocess


def gnu_time() -> str | None:
    """The path of GNU time, or None (BSD time and the shell keyword cannot print peak RSS)."""
    path = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)
    if not path:
        return None
    probe = subprocess.run([path, "--version"], capture_output=True, text=True, check=False)
    return path if "GNU" in probe.stdout + probe.stderr else None
