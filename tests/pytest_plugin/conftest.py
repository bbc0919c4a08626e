"""A real Redis server for the inner pytest sessions the plugin's tests run (its port is written into them)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.servers import INSTALL_HINT, ServerProcess, binary_path, start_server


@pytest.fixture(scope="session")
def shop_server() -> Iterator[ServerProcess]:
    """The Debian Redis 7.0 server (required in CI), emptied by the inner sessions' own fixture."""
    if binary_path("redis70") is None:
        reason = f"redis70 is not installed ({INSTALL_HINT['redis70']})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}: required in CI", pytrace=False)
        pytest.skip(reason)
    server = start_server("redis70")
    try:
        yield server
    finally:
        server.stop()
