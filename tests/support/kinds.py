"""A server kind a test needs: skipped when it is not installed, except under CI (CI=true) for the kinds CI
must have (`servers.REQUIRED_IN_CI`), which fail instead; and a server of it for the length of a block."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from tests.support.servers import INSTALL_HINT, REQUIRED_IN_CI, ServerProcess, binary_path, start_server


def require_kind(kind: str) -> None:
    """Skip when `kind` is not installed; fail instead for the kinds CI must have."""
    if binary_path(kind) is not None:
        return
    reason = f"{kind} is not installed ({INSTALL_HINT[kind]})"
    if os.environ.get("CI") == "true" and kind in REQUIRED_IN_CI:
        pytest.fail(f"{reason}: required in CI", pytrace=False)
    pytest.skip(reason)


@contextlib.contextmanager
def running(kind: str, extra_args: Sequence[str] = (), **options: Any) -> Iterator[ServerProcess]:
    """A server of `kind` (`require_kind` first), stopped by its PID at the end."""
    require_kind(kind)
    server = start_server(kind, extra_args, **options)
    try:
        yield server
    finally:
        server.stop()
