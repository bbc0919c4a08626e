"""Fixtures for the recipes' tests: a real Redis 7.0 per test module, a redis-py client on it (bytes in, bytes
out) and a raw connection (tests/recipes/oracle.py) that empties it and zeroes its statistics before each test;
`trips` records each round trip a recipe sends (its commands, as the drivers get them) without changing it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from rediscipline.recipes import aio, steps
from tests.recipes.oracle import Raw, reset
from tests.support.servers import INSTALL_HINT, ServerProcess, binary_path, start_server

KIND = "redis70"


def require_redis70() -> None:
    if binary_path(KIND) is None:
        reason = f"{KIND} is not installed ({INSTALL_HINT[KIND]})"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason}: required in CI", pytrace=False)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    """A Redis 7.0 of this test module's own, stopped by its PID at the end of the module."""
    require_redis70()
    started = start_server(KIND)
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def raw(server: ServerProcess) -> Iterator[Raw]:
    with Raw(server) as connection:
        reset(connection)
        yield connection


@pytest.fixture
def client(server: ServerProcess, raw: Raw) -> Iterator[redis.Redis]:
    with server.client() as connection:
        yield connection


@pytest.fixture
def trips(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[Any, ...], ...]]:
    """The commands of every round trip the sync and the asyncio drivers send, in order."""
    sent: list[tuple[tuple[Any, ...], ...]] = []
    sync_send, async_send = steps.send, aio._send

    def record(client: Any, batch: steps.Batch) -> list[Any]:
        sent.append(batch.commands)
        return sync_send(client, batch)

    async def record_async(client: Any, batch: steps.Batch) -> list[Any]:
        sent.append(batch.commands)
        return await async_send(client, batch)

    monkeypatch.setattr(steps, "send", record)
    monkeypatch.setattr(aio, "_send", record_async)
    return sent
