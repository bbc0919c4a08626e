"""Servers for the guard's tests: one Redis 7.0 per module, emptied before each test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from rediscipline.guard import Collector, new_collector, reset_default
from tests.live.conftest import serve
from tests.support.servers import ServerProcess

APPS = Path(__file__).parent / "apps"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    yield from serve("redis70")


@pytest.fixture
def plain(server: ServerProcess) -> Iterator[redis.Redis]:
    """An unguarded client on an emptied server, to look at what reached it."""
    client = redis.Redis(host=server.host, port=server.port)
    client.flushall()
    client.config_resetstat()
    try:
        yield client
    finally:
        client.close()


@pytest.fixture
def client(server: ServerProcess, plain: redis.Redis) -> Iterator[redis.Redis]:
    """A client to guard (the tests guard it themselves)."""
    made = redis.Redis(host=server.host, port=server.port)
    try:
        yield made
    finally:
        made.close()
        reset_default()


def recorder(mode: str = "record", *, select: list[str] | None = None, fail_on: str | None = None) -> Collector:
    """A collector with the built-in settings only (no convention file of this repository)."""
    return new_collector(mode, isolated=True, select=select, fail_on=fail_on)


def seeded(path: Path) -> set[tuple[str, str, int]]:
    """The (rule, file name, line) of every `# seeded: RULE[, RULE]` mark in an application module."""
    marks: set[tuple[str, str, int]] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if "# seeded:" in line:
            for rule in line.split("# seeded:", 1)[1].split(","):
                marks.add((rule.strip(), path.name, number))
    return marks


def calls(plain: redis.Redis) -> dict[str, int]:
    """How many times the server ran each command since the test began (INFO commandstats)."""
    stats = plain.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(row["calls"]) for name, row in stats.items()}
