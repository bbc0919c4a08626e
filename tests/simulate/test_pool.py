"""The eviction pool as `evictionPoolPopulate` keeps it: ascending scores, free places on the right, a full
pool dropping its lowest entry (or the newcomer when it is lower than all), stale scores kept, ghosts passed."""

from __future__ import annotations

from rediscipline.simulate.pool import POOL_SIZE, EvictionPool


def entries(pool: EvictionPool) -> list[tuple[int, int]]:
    return [(key, score) for key, score in zip(pool.keys, pool.scores, strict=True) if key is not None]


def test_candidates_are_kept_in_ascending_order_with_free_places_on_the_right() -> None:
    pool = EvictionPool()
    for key, score in ((1, 50), (2, 10), (3, 30), (4, 30)):
        pool.insert(key, score)
    assert entries(pool) == [(2, 10), (4, 30), (3, 30), (1, 50)]  # an equal score goes before: `<` stops there
    assert pool.keys[4:] == [None] * (POOL_SIZE - 4)


def test_a_full_pool_drops_its_lowest_entry_or_a_lower_newcomer() -> None:
    pool = EvictionPool()
    for key in range(POOL_SIZE):
        pool.insert(key, 100 + key)
    pool.insert(99, 50)  # lower than every entry of a full pool: dropped
    assert 99 not in pool.keys
    pool.insert(98, 107)  # goes in order; the lowest (key 0, score 100) is dropped
    kept = entries(pool)
    assert len(kept) == POOL_SIZE and kept[0] == (1, 101) and (98, 107) in kept
    assert [score for _key, score in kept] == sorted(score for _key, score in kept)


def test_the_highest_existing_entry_is_taken_and_ghosts_above_it_are_removed() -> None:
    pool = EvictionPool()
    for key, score in ((1, 10), (2, 20), (3, 30)):
        pool.insert(key, score)
    assert pool.take({1, 2}) == 2  # 3 is a ghost: removed, not returned
    assert entries(pool) == [(1, 10)]
    assert pool.take(set()) is None and entries(pool) == []


def test_a_key_sampled_twice_holds_two_entries() -> None:
    pool = EvictionPool()
    pool.insert(7, 10)
    pool.insert(7, 40)
    assert entries(pool) == [(7, 10), (7, 40)]
