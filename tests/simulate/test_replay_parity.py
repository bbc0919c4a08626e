"""The compiled replay (`simulate._replay`) gives the pure replay's outcome exactly, for every policy, on
traces with TTLs, several databases, LFU decay over minutes, dict growth and lazy expiry, with each server
layout's memory (Redis 7's dicts, Redis 8's embedded keys, Valkey's hashtables of 7-key buckets)."""

from __future__ import annotations

import random

import pytest

from rediscipline import compiled
from rediscipline.simulate.eviction import POLICIES, EvictionSettings, Trace, replay_in_python
from rediscipline.simulate.memory import MemoryModel
from rediscipline.sources.simulation.eviction_source import working_set
from tests.support.replay import SERVER_MODELS

KERNEL = compiled.load("rediscipline.simulate._replay")


def mixed_trace(seed: int, accesses: int = 30_000) -> Trace:
    """Three databases, Zipf-like popularity, values of 10 to 2,000 bytes, a third of the keys with TTLs of
    0.5 s to 5 min, and accesses spread over 20 minutes (the LFU clock counts minutes)."""
    rng = random.Random(seed)
    names: list[bytes] = []
    numbers: dict[tuple[int, int], int] = {}
    times, keys, sizes, ttls, dbs = [], [], [], [], []
    for index in range(accesses):
        rank = int(rng.paretovariate(1.1)) % 3_000
        db = rank % 3
        number = numbers.get((db, rank))
        if number is None:
            number = numbers[(db, rank)] = len(names)
            names.append(b"obj:%d:%d" % (db, rank))
        times.append(index * 40)
        keys.append(number)
        sizes.append(10 + (rank * 37) % 2_000)
        ttls.append(rng.choice((0, 0, 500, 60_000, 300_000)) if rank % 3 == 0 else 0)
        dbs.append(db)
    return Trace(times, keys, sizes, ttls, dbs, names)


@pytest.mark.skipif(KERNEL is None, reason="no compiled core in this install (make build-ext)")
@pytest.mark.parametrize("server", sorted(SERVER_MODELS))
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("share", [0.05, 0.3, 0.9])
def test_the_compiled_replay_is_the_pure_one(policy: str, share: float, server: str) -> None:
    assert KERNEL is not None
    memory: MemoryModel = SERVER_MODELS[server]
    trace = mixed_trace(len(policy))
    data = working_set(trace, memory) - memory.baseline
    for seed, decay in ((0, 1), (7, 0)):
        settings = EvictionSettings(
            policy, memory.baseline + round(data * share), decay_time=decay, log_factor=3, memory=memory, seed=seed
        )
        pure, fast = replay_in_python(trace, settings), KERNEL.replay(trace, settings)
        assert fast == pure, (policy, share, seed)
        assert pure.evicted_keys > 0 or pure.oom_errors > 0 or share > 0.5
