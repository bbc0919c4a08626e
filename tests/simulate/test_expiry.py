"""The active expire cycle's model: the effort formulas of expire.c, the quiet sweep's pace, a storm hitting
the time limit and starting fast cycles, lazyfree, and the series' arithmetic; then what the cycles of Redis 5
(random lookups) and Valkey 9 (its hashtable, its scan's end) change, and which server has which."""

from __future__ import annotations

import pytest

from rediscipline.simulate.expiry import (
    ExpirySettings,
    VolatileKeys,
    algorithm_for,
    hashtable_resized,
    simulate_expiry,
    table_size,
)

START = 1_795_000_000_000


@pytest.mark.parametrize(
    ("effort", "hz", "expected"),
    [(1, 10, (20, 1000, 25_000, 10)), (10, 10, (65, 3250, 43_000, 1)), (1, 100, (20, 1000, 2_500, 10))],
)
def test_the_effort_formulas(effort: int, hz: int, expected: tuple[int, int, int, int]) -> None:
    """keys per loop, fast cycle µs, slow cycle limit µs, acceptable stale %: the reference's table."""
    settings = ExpirySettings(hz=hz, effort=effort)
    got = (settings.keys_per_loop, settings.fast_duration_us, settings.slow_limit_us, settings.acceptable_stale)
    assert got == expected


def test_the_quiet_sweep_reclaims_about_keys_per_loop_times_hz_keys_a_second() -> None:
    """100,000 keys of which 1,000 expire at once: nothing is stale enough to repeat a loop, so the cursor
    sweeps about 20 keys a tick; after a minute about 12,000 of the 101,000 keys were swept."""
    keys = VolatileKeys(0, [START + 3_600_000] * 100_000 + [START] * 1_000, [10] * 101_000)
    outcome = simulate_expiry([keys], START, 60, 60)
    [first, last] = outcome.series
    assert (first.expired_in_memory, first.reclaimed) == (0, 0)  # a key lives through its own millisecond
    swept = last.reclaimed / 1_000
    assert 0.09 < swept < 0.15, swept
    assert last.expired_in_memory + last.reclaimed == 1_000
    assert last.expired_in_memory_bytes == 10 * last.expired_in_memory
    assert all(hits == 0 for _t, hits in outcome.time_limit_hits)


def test_a_storm_hits_the_time_limit_and_fast_cycles_follow() -> None:
    """200,000 keys expiring in the same millisecond: the slow cycles stop at their limit (25 ms a tick), fast
    cycles run between ticks, more than a quarter of the server's time goes to expiring, and every key is
    reclaimed within the next seconds."""
    keys = VolatileKeys(0, [START + 1_000] * 200_000, [100] * 200_000)
    outcome = simulate_expiry([keys], START, 5, 1, ExpirySettings(delete_us=4.0))  # 0.8 s of deleting in all
    shares = dict(outcome.cpu_share)
    hits = dict(outcome.time_limit_hits)
    assert hits[2.0] > 0 and shares[2.0] > 0.25
    assert max(shares.values()) < 0.8  # the slow quarter and the fast cycles' half, at most
    assert max(longest for _t, longest in outcome.longest_cycle_us) < 26_000  # a slow cycle stops near 25 ms
    assert outcome.series[-1].reclaimed == 200_000 and outcome.series[-1].expired_in_memory == 0


def test_lazyfree_spares_the_cycle_the_cost_of_big_values() -> None:
    """Big values cost the cycle their freeing unless lazyfree-lazy-expire hands it to a background thread:
    the same storm of 1 MB values is reclaimed sooner with it."""
    keys = VolatileKeys(0, [START + 1_000] * 20_000, [1 << 20] * 20_000)

    def reclaimed_at_2s(lazyfree: bool) -> int:
        outcome = simulate_expiry([keys], START, 2, 0.5, ExpirySettings(lazyfree=lazyfree, delete_us_per_kb=0.5))
        return next(point.reclaimed for point in outcome.series if point.t == 1.5)

    assert reclaimed_at_2s(True) > 2 * reclaimed_at_2s(False)


def test_each_database_has_its_series() -> None:
    keys = [VolatileKeys(3, [START] * 10, [5] * 10), VolatileKeys(1, [START + 60_000] * 5, [5] * 5)]
    outcome = simulate_expiry(keys, START, 2, 1)
    assert [(p.db, p.t) for p in outcome.series] == [(1, 0.0), (3, 0.0), (1, 1.0), (3, 1.0), (1, 2.0), (3, 2.0)]
    assert [p.reclaimed for p in outcome.series if p.db == 3][-1] == 10  # a small dict is swept at once


# ---- the cycles of other versions (`algorithm`) and `algorithm_for`


@pytest.mark.parametrize(
    ("flavor", "version", "expected"),
    [
        ("redis", "7.0.15", "cursor"),
        ("redis", "6.0.0", "cursor"),
        ("redis", "8.2.1", "cursor"),
        ("redis", "5.0.7", "random"),
        ("redis", "3.2.12", "random"),
        ("Redis", "5.0", "random"),
        ("valkey", "9.1.2", "valkey9"),
        ("valkey", "10.0.0", "valkey9"),
        ("valkey", "8.1.1", "valkey9"),
        ("valkey", "8.2", "valkey9"),
        ("valkey", "8.0.2", "cursor"),
        ("valkey", "7.2.4", "cursor"),
        ("redis", "", "cursor"),
        ("valkey", "", "cursor"),
        ("redis", "unknown", "cursor"),
        ("keydb", "5.0.0", "cursor"),
    ],
)
def test_algorithm_for_a_server(flavor: str, version: str, expected: str) -> None:
    assert algorithm_for(flavor, version) == expected


def test_settings_refuse_what_no_server_has() -> None:
    with pytest.raises(ValueError, match="algorithm"):
        ExpirySettings(algorithm="lru")
    with pytest.raises(ValueError, match="effort"):
        ExpirySettings(effort=11)
    with pytest.raises(ValueError, match="hz"):
        ExpirySettings(hz=0)


def test_redis_5_has_no_effort_and_repeats_above_a_quarter() -> None:
    """Redis 5's constants whatever the effort (it has no active-expire-effort), and the same outcome."""
    for effort in (1, 10):
        settings = ExpirySettings(algorithm="random", effort=effort)
        got = (settings.keys_per_loop, settings.fast_duration_us, settings.slow_limit_us, settings.acceptable_stale)
        assert got == (20, 1000, 25_000, 25)
    keys = VolatileKeys(0, [START + 500 * (i % 7) for i in range(3_000)], [10] * 3_000)
    outcomes = [simulate_expiry([keys], START, 5, 1, ExpirySettings(algorithm="random", effort=e)) for e in (1, 10)]
    assert outcomes[0] == outcomes[1]


def test_random_sampling_has_no_pass_to_finish() -> None:
    """200 expired keys among 2,000: the cursor has swept every bucket, and so reclaimed all of them, within
    about 2,000 / 200 s; random lookups find a key wherever it sits, a share of the rest each second, so they
    reclaim many early and the last ones late."""
    keys = VolatileKeys(0, [START + 3_600_000] * 1_800 + [START - 1] * 200, [10] * 2_000)

    def reclaimed(algorithm: str) -> dict[float, int]:
        outcome = simulate_expiry([keys], START, 60, 1, ExpirySettings(algorithm=algorithm))
        return {point.t: point.reclaimed for point in outcome.series}

    cursor, lookups = reclaimed("cursor"), reclaimed("random")
    assert cursor[11.0] == 200
    assert lookups[5.0] > 40  # about 1 - e^(-t × 200 / 2,000) of them
    assert lookups[11.0] < 170
    assert lookups[20.0] < 190 < lookups[60.0]


def test_redis_5_repeats_a_loop_only_above_a_quarter_expired() -> None:
    """A fifth of the keys expired: Redis 6's cursor repeats its loop while more than 10 % of what it sampled had
    expired, Redis 5's lookups only when more than 5 of 20 had: it reclaims a few times fewer."""
    keys = VolatileKeys(0, [START + 3_600_000] * 40_000 + [START + 500] * 10_000, [10] * 50_000)
    cursor, lookups = (
        simulate_expiry([keys], START, 3, 1, ExpirySettings(algorithm=algorithm)).series[-1].reclaimed
        for algorithm in ("cursor", "random")
    )
    assert cursor > 3 * lookups > 0


def test_a_valkey_9_loop_reads_whole_buckets_of_several_keys() -> None:
    """Valkey's hashtable keeps up to 7 keys a bucket, and a scan call reads one bucket (its chain too): a quiet
    loop samples its 20 keys and the rest of the last bucket, where a dict's bucket holds about one key and
    Redis 5 looks up exactly 20 (sampling costs 1 µs here, so the time counts the keys)."""
    keys = VolatileKeys(0, [START + 3_600_000] * 100_000, [10] * 100_000)

    def sampled_per_tick(algorithm: str) -> float:
        outcome = simulate_expiry([keys], START, 10, 10, ExpirySettings(algorithm=algorithm, sample_us=1.0))
        return outcome.cpu_share[-1][1] * 10_000_000 / 100  # 100 ticks in the step

    assert sampled_per_tick("random") == 20
    assert 20 < sampled_per_tick("cursor") < 21
    assert 22 < sampled_per_tick("valkey9") < 25


def test_a_valkey_9_database_is_done_for_the_call_when_its_cursor_wraps() -> None:
    """5,000 keys expiring together at 3 s, after 3 s of quiet sweeping moved the cursors into the table: the
    first tick after, Redis's loop goes on past the table's end (until the table is under 1 % full, where a
    database is skipped), Valkey 9's stops there, and the keys before its cursor wait for the next tick."""
    keys = VolatileKeys(0, [START + 3_000] * 5_000, [10] * 5_000)

    def reclaimed(algorithm: str) -> dict[float, int]:
        outcome = simulate_expiry([keys], START, 4, 0.1, ExpirySettings(algorithm=algorithm))
        return {point.t: point.reclaimed for point in outcome.series}

    cursor, valkey = reclaimed("cursor"), reclaimed("valkey9")
    assert cursor[3.0] == valkey[3.0] == 0  # a key lives through its own millisecond
    assert cursor[3.1] > 5_000 - 8_192 // 100  # all but what a table under 1 % full holds
    assert 4_000 < valkey[3.1] < cursor[3.1] - 300
    assert cursor[3.2] == valkey[3.2] == 5_000


def test_the_table_sizes_of_a_dict_and_of_valkeys_hashtable() -> None:
    """A dict: a bucket per key (at least 4); Valkey's hashtable (hashtable.c): up to 7 keys a bucket as it
    grows, and ceil(keys × 5 / 32) buckets, up to a power of two, when it resizes."""
    assert [table_size(keys, False) for keys in (0, 4, 5, 101_000)] == [4, 4, 8, 131_072]
    assert [table_size(keys, True) for keys in (1, 7, 8, 15, 101_000)] == [1, 1, 2, 4, 16_384]
    assert [hashtable_resized(keys) for keys in (0, 1, 7, 1_000, 2_000_000)] == [1, 1, 2, 256, 524_288]
