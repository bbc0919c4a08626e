"""The eviction simulator against a real Redis 7.0: a Zipf trace replayed on the server with `maxmemory` and a
policy, and the same trace (with the times it was sent at) through the simulator with the server's own
baseline (its memory besides the keys while the trace was replayed, the client's buffers included): the hit
ratios agree within 2 points, for LRU, LFU and random eviction, small and large caches,
flatter and steeper popularity."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rediscipline.simulate.eviction import EvictionSettings, replay
from rediscipline.simulate.memory import REDIS_70, MemoryModel
from rediscipline.sources.simulation.eviction_source import working_set
from tests.support.kinds import require_kind
from tests.support.replay import replay_on_server, zipf_trace
from tests.support.servers import ServerProcess, start_server

CASES = [
    (policy, alpha, share)
    for policy in ("allkeys-lru", "allkeys-lfu", "allkeys-random")
    for alpha, share in ((0.8, 0.3), (1.2, 0.7), (1.0, 0.2))
]


@pytest.fixture
def server() -> Iterator[ServerProcess]:
    require_kind("redis70")
    with start_server("redis70") as started:
        yield started


@pytest.mark.parametrize(("policy", "alpha", "share"), CASES)
def test_simulated_hit_ratio_is_the_servers(server: ServerProcess, policy: str, alpha: float, share: float) -> None:
    trace = zipf_trace(8_000, alpha, 40_000, seed=7, size=300, rate=20_000)
    client = server.client()
    baseline = int(client.info("memory")["used_memory"])
    model = MemoryModel(REDIS_70.name, baseline)
    maxmemory = baseline + round((working_set(trace, model) - baseline) * share)
    client.config_set("maxmemory-policy", policy)
    client.config_set("maxmemory", maxmemory)
    real = replay_on_server(client, trace)
    assert real.evicted_keys > 0
    measured = MemoryModel(REDIS_70.name, real.baseline)  # the server's own overhead while it was replayed
    simulated = replay(real.trace, EvictionSettings(policy, maxmemory, memory=measured, seed=1))
    assert simulated.hit_ratio is not None
    assert abs(simulated.hit_ratio - real.hit_ratio) <= 0.02, (simulated.hit_ratio, real.hit_ratio)
    assert simulated.evicted_keys > 0
