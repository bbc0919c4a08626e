"""The recipes on every server kind installed here (Redis 6.2, 7.0, 8.2, Valkey 9.1): same data, same result."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from rediscipline.recipes import (
    HotKeyReplicas,
    ProgressiveDelete,
    chunked_delete,
    chunked_mget,
    chunked_mset,
    progressive_delete,
)
from tests.recipes.oracle import Raw, keys_of, reset
from tests.support.servers import INSTALL_HINT, KINDS, REQUIRED_IN_CI, ServerProcess, binary_path, start_server


@pytest.fixture(scope="module", params=KINDS)
def any_server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    kind: str = request.param
    if binary_path(kind) is None:
        reason = f"{kind} is not installed ({INSTALL_HINT[kind]})"
        if os.environ.get("CI") == "true" and kind in REQUIRED_IN_CI:
            pytest.fail(f"{reason}: required in CI", pytrace=False)
        pytest.skip(reason)
    started = start_server(kind)
    try:
        yield started
    finally:
        started.stop()


def test_every_recipe_on_this_server(any_server: ServerProcess) -> None:
    with Raw(any_server) as raw, any_server.client() as client:
        reset(raw)
        data = {b"user:profile:%d" % i: b"\xff%d" % i for i in range(250)}
        assert chunked_mset(client, data, ttl=100) == 250
        assert chunked_mget(client, [*data, b"user:profile:none"]) == [*data.values(), None]
        assert chunked_delete(client, data) == 250

        raw.pipeline([("HSET", b"big:hash:1", b"f%d" % i, b"v") for i in range(700)])
        raw.pipeline([("SADD", b"big:set:1", b"m%d" % i) for i in range(700)])
        raw.pipeline([("ZADD", b"big:zset:1", i, b"m%d" % i) for i in range(700)])
        raw.pipeline([("RPUSH", b"big:list:1", b"e%d" % i) for i in range(700)])
        raw.pipeline([("XADD", b"big:stream:1", "*", b"f", b"%d" % i) for i in range(700)])
        results = [
            progressive_delete(client, b"big:%s:1" % kind) for kind in (b"hash", b"set", b"zset", b"list", b"stream")
        ]
        assert [(r.key_type, r.elements, r.unlinked) for r in results] == [
            ("hash", 700, False),
            ("set", 700, False),
            ("zset", 700, False),
            ("list", 700, False),
            ("stream", 700, True),
        ]
        assert results[2] == ProgressiveDelete("zset", 700, 7, unlinked=False)

        replicas = HotKeyReplicas(client, b"live:goods:1", copies=3, ttl=60)
        replicas.set(b"goods")
        assert replicas.get() == b"goods"
        assert keys_of(raw) == {b"live:goods:1", b"live:goods:1#0", b"live:goods:1#1", b"live:goods:1#2"}
        assert replicas.delete() == 4
        assert keys_of(raw) == set()
