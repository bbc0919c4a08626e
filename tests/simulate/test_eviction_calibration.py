"""The eviction simulator against real servers: a Zipf trace replayed on the server with `maxmemory` and a
policy, and the same trace (with the times it was sent at) through the simulator with the server's own
baseline (its memory besides the keys while the trace was replayed, the client's buffers included): the hit
ratios agree within 2 points, for LRU, LFU and random eviction, small and large caches, flatter and steeper
popularity, on Redis 7.0 (every case), and on Redis 8.2 and Valkey 9.1 with their own memory layouts (one case
per policy)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from rediscipline.simulate.eviction import EvictionSettings, replay
from rediscipline.sources.simulation.eviction_source import working_set
from tests.support.kinds import require_kind
from tests.support.replay import SERVER_MODELS, replay_on_server, zipf_trace
from tests.support.servers import ServerProcess, start_server

POLICIES = ("allkeys-lru", "allkeys-lfu", "allkeys-random")
SHAPES = ((0.8, 0.3), (1.2, 0.7), (1.0, 0.2))
CASES = [
    *(("redis70", policy, alpha, share) for policy in POLICIES for alpha, share in SHAPES),
    *((kind, policy, *SHAPES[index]) for kind in ("redis82", "valkey91") for index, policy in enumerate(POLICIES)),
]


@pytest.fixture
def server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    kind = request.node.callspec.params["kind"]
    require_kind(kind)
    with start_server(kind) as started:
        yield started


@pytest.mark.parametrize(("kind", "policy", "alpha", "share"), CASES)
def test_simulated_hit_ratio_is_the_servers(
    server: ServerProcess, kind: str, policy: str, alpha: float, share: float
) -> None:
    trace = zipf_trace(8_000, alpha, 40_000, seed=7, size=300, rate=20_000)
    client = server.client()
    model = replace(SERVER_MODELS[kind], baseline=int(client.info("memory")["used_memory"]))
    maxmemory = model.baseline + round((working_set(trace, model) - model.baseline) * share)
    client.config_set("maxmemory-policy", policy)
    client.config_set("maxmemory", maxmemory)
    real = replay_on_server(client, trace, model)
    assert real.evicted_keys > 0
    measured = replace(model, baseline=real.baseline)  # the server's own overhead while it was replayed
    simulated = replay(real.trace, EvictionSettings(policy, maxmemory, memory=measured, seed=1))
    assert simulated.hit_ratio is not None
    assert abs(simulated.hit_ratio - real.hit_ratio) <= 0.02, (simulated.hit_ratio, real.hit_ratio)
    assert simulated.evicted_keys > 0
