"""The simulator's policies on small traces whose outcome the algorithm fixes: what volatile policies may
evict, volatile-ttl's order, random eviction's reach, lazy expiry, and memory checked before each command."""

from __future__ import annotations

from rediscipline.simulate.eviction import EvictionSettings, Outcome, Trace, replay
from rediscipline.simulate.memory import REDIS_70

KEY = REDIS_70.key_bytes(len(b"k:00"), 100)
VOLATILE_KEY = REDIS_70.key_bytes(len(b"k:00"), 100, True)  # with its entry in the `expires` dict
TABLE = REDIS_70.table_bytes(4)


def trace_of(rows: list[tuple[int, str, int]]) -> Trace:
    """(time ms, key, ttl ms) rows, values of 100 bytes."""
    names: list[bytes] = []
    keys = []
    for _ms, name, _ttl in rows:
        if name.encode() not in names:
            names.append(name.encode())
        keys.append(names.index(name.encode()))
    count = len(rows)
    return Trace([r[0] for r in rows], keys, [100] * count, [r[2] for r in rows], [0] * count, names)


def run(rows: list[tuple[int, str, int]], policy: str, keys_room: int) -> tuple[Outcome, list[bytes]]:
    """Replay `rows` with room for `keys_room` keys with a TTL (both dicts at their smallest)."""
    trace = trace_of(rows)
    maxmemory = REDIS_70.baseline + 2 * TABLE + keys_room * VOLATILE_KEY
    outcome = replay(trace, EvictionSettings(policy, maxmemory))
    evicted = [trace.names[number] for number in sorted(outcome.evicted)]
    return outcome, evicted


def test_volatile_policies_evict_only_keys_with_a_ttl() -> None:
    rows = [(0, "k:00", 0), (1000, "k:01", 60_000), (2000, "k:02", 0), (3000, "k:03", 60_000), (4000, "k:04", 0)]
    for policy in ("volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl"):
        outcome, evicted = run([*rows, (5000, "k:05", 0), (6000, "k:06", 0)], policy, 3)
        assert set(evicted) <= {b"k:01", b"k:03"}, policy
        assert outcome.oom_errors > 0, policy  # once both volatile keys are gone, writes are refused


def test_volatile_ttl_evicts_the_nearest_expiry_first() -> None:
    rows = [(0, "k:00", 90_000), (0, "k:01", 10_000), (0, "k:02", 50_000), (1000, "k:03", 0), (2000, "k:03", 0)]
    _outcome, evicted = run(rows, "volatile-ttl", 3)
    assert evicted == [b"k:01"]


def test_allkeys_lru_evicts_the_key_idle_longest() -> None:
    rows = [(0, "k:00", 0), (1000, "k:01", 0), (2000, "k:02", 0), (3000, "k:00", 0), (4000, "k:03", 0)]
    _outcome, evicted = run([*rows, (5000, "k:03", 0)], "allkeys-lru", 3)  # the eviction runs before the read
    assert evicted == [b"k:01"]  # k:00 was read again at 3 s


def test_noeviction_refuses_writes_once_full_and_serves_reads() -> None:
    rows = [(0, "k:00", 0), (0, "k:01", 0), (0, "k:02", 0), (0, "k:00", 0), (0, "k:03", 0), (0, "k:01", 0)]
    outcome, evicted = run(rows, "noeviction", 1)
    # memory is checked before each command: the second key goes past the room, the third is refused
    assert (outcome.hits, outcome.misses, outcome.oom_errors, evicted) == (2, 4, 2, [])


def test_a_key_past_its_ttl_is_a_miss_when_read() -> None:
    rows = [(0, "k:00", 1000), (500, "k:00", 1000), (1500, "k:00", 1000), (1600, "k:00", 0)]
    outcome, _evicted = run(rows, "allkeys-lru", 10)
    assert (outcome.hits, outcome.misses) == (2, 2)
