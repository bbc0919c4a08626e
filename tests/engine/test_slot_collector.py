"""Keys per hash slot and per hashtag: the slots Redis computes, exact merges, and the view's busiest slots."""

from __future__ import annotations

import random

from redis.crc import key_slot

from rediscipline.engine.cluster import VIEW_TOP, SlotCollector
from rediscipline.model.cluster import ClusterView, HashtagStat, ShardStat, SlotStat


def _names(seed: int, count: int) -> list[bytes]:
    rng = random.Random(seed)
    names = [f"user:{rng.randrange(10**9)}:profile".encode() for _ in range(count)]
    names += [f"cart:{{shop{rng.randrange(5)}}}:{i}".encode() for i in range(count // 2)]
    names += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 12))) for _ in range(count // 4)]
    return names


def test_slots_are_the_slots_redis_py_computes() -> None:
    collector = SlotCollector()
    names = _names(1, 2000)
    for name in names:
        collector.add(name, 10)
    expected = [0] * 16384
    for name in names:
        expected[key_slot(name)] += 1
    assert list(collector.keys) == expected
    assert [m // 10 for m in collector.memory] == expected


def test_parts_merged_count_what_one_collector_counts() -> None:
    names = _names(2, 3000)
    whole, parts = SlotCollector(), [SlotCollector() for _ in range(3)]
    for index, name in enumerate(names):
        whole.add(name, len(name))
        parts[index % 3].add(name, len(name))
    parts[2].merge(parts[0])
    parts[1].merge(parts[2])
    assert list(parts[1].keys) == list(whole.keys)
    assert list(parts[1].memory) == list(whole.memory)
    assert parts[1].tags == whole.tags


def test_view_lists_the_busiest_slots_and_hashtags_with_their_shards() -> None:
    collector = SlotCollector()
    for i in range(500):
        collector.add(f"rank:{{global}}:{i}".encode(), 100)
    for i in range(50):
        collector.add(f"feed:{{u7}}:{i}".encode(), 1000)
    collector.add(b"plain", 5)
    shards = (
        ShardStat("a", "127.0.0.1:7000", "master", ((0, 8191),), 1),
        ShardStat("b", "127.0.0.1:7001", "master", ((8192, 16383),), 1),
    )
    view = collector.complete(ClusterView(shards))
    global_slot, u7_slot, plain_slot = key_slot(b"global"), key_slot(b"u7"), key_slot(b"plain")
    shard = {slot: 0 if slot < 8192 else 1 for slot in (global_slot, u7_slot, plain_slot)}
    assert view.hashtags == (
        HashtagStat(b"global", global_slot, shard[global_slot], 500, 50_000),
        HashtagStat(b"u7", u7_slot, shard[u7_slot], 50, 50_000),
    )
    assert sorted(view.slots, key=lambda s: s.slot) == sorted(
        [
            SlotStat(global_slot, shard[global_slot], 500, 50_000),
            SlotStat(u7_slot, shard[u7_slot], 50, 50_000),
            SlotStat(plain_slot, shard[plain_slot], 1, 5),
        ],
        key=lambda s: s.slot,
    )


def test_view_keeps_the_servers_slot_figures_and_adds_memory() -> None:
    collector = SlotCollector()
    for i in range(VIEW_TOP * 3):
        collector.add(f"k{i}".encode(), None)
    slot = key_slot(b"k0")
    given = SlotStat(slot, 0, 7, None, cpu_usec=900, network_bytes=12)
    view = collector.complete(ClusterView((ShardStat("a", "h:1", "master", ((0, 16383),), 0),), slots=(given,)))
    assert given in view.slots  # memory not measured: the server's figures as given
    assert len(view.slots) <= VIEW_TOP + 1
