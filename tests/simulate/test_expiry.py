"""The active expire cycle's model: the effort formulas of expire.c, the quiet sweep's pace, a storm hitting
the time limit and starting fast cycles, lazyfree, and the series' arithmetic."""

from __future__ import annotations

import pytest

from rediscipline.simulate.expiry import ExpirySettings, VolatileKeys, simulate_expiry

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
