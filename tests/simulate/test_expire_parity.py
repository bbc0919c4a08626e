"""The compiled expire cycle (`simulate._expire`) gives the pure one's outcome exactly, for the three cycles, on
several databases, quiet sweeps and storms (time limit, fast cycles), tables that shrink, every effort, with and
without lazyfree, and the inputs as lists or arrays."""

from __future__ import annotations

import random
from array import array
from dataclasses import replace

import pytest

from rediscipline import compiled
from rediscipline.simulate.expiry import (
    ALGORITHMS,
    ExpiryOutcome,
    ExpirySettings,
    VolatileKeys,
    simulate_expiry,
    simulate_expiry_in_python,
)

KERNEL = compiled.load("rediscipline.simulate._expire")
START = 1_795_000_000_000
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="no compiled core in this install (make build-ext)")


def mixed_keys(seed: int, sizes: tuple[int, ...] = (8_000, 3, 1_500)) -> list[VolatileKeys]:
    """Databases 7, 0 and 3 (given out of order): TTLs spread over 5 minutes, a fifth of the keys expiring in the
    same second, some expired already, values of 1 byte to 1 MB."""
    rng = random.Random(seed)
    keys = []
    for db, count in zip((7, 0, 3), sizes, strict=True):
        expires = [
            START + rng.choice((rng.randrange(-5_000, 300_000), 20_000 + rng.randrange(1_000), 150_000))
            for _ in range(count)
        ]
        keys.append(VolatileKeys(db, expires, [rng.choice((1, 100, 5_000, 1 << 20)) for _ in range(count)]))
    return keys


def both(keys: list[VolatileKeys], seconds: float, step: float, settings: ExpirySettings) -> ExpiryOutcome:
    """The pure outcome, after checking that the compiled one is the same."""
    assert KERNEL is not None
    pure = simulate_expiry_in_python(keys, START, seconds, step, settings)
    fast = KERNEL.simulate_expiry(keys, START, seconds, step, settings)
    assert fast.series == pure.series, settings
    assert fast.cpu_share == pure.cpu_share, settings
    assert fast.time_limit_hits == pure.time_limit_hits, settings
    assert fast.longest_cycle_us == pure.longest_cycle_us, settings
    return pure


@needs_kernel
@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("effort", [1, 5, 10])
def test_the_compiled_cycle_is_the_pure_one(algorithm: str, effort: int) -> None:
    keys = mixed_keys(effort)
    for lazyfree, seed in ((False, effort), (True, 1_000 + effort)):
        settings = ExpirySettings(effort=effort, lazyfree=lazyfree, seed=seed, algorithm=algorithm, delete_us=2.0)
        outcome = both(keys, 240, 20, settings)
        reclaimed = sum(point.reclaimed for point in outcome.series if point.t == 240)
        assert reclaimed > 2_000  # the storm at 20 s was found, by every cycle


@needs_kernel
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_a_storm_at_the_time_limit(algorithm: str) -> None:
    """Every key expiring in one millisecond, deleting slowly: slow cycles stop at their limit, fast cycles run,
    and the tables shrink as they empty."""
    count = 40_000
    keys = [
        VolatileKeys(0, [START + 1_000] * count, [200] * count),
        VolatileKeys(1, [START + 2_500] * 5_000, [10] * 5_000),
    ]
    outcome = both(keys, 6, 0.5, ExpirySettings(algorithm=algorithm, delete_us=3.0))
    assert sum(hits for _t, hits in outcome.time_limit_hits) > 0
    assert max(longest for _t, longest in outcome.longest_cycle_us) > 20_000
    last = [point for point in outcome.series if point.t == 6]
    assert [point.reclaimed for point in last] == [count, 5_000]  # emptied: the tables shrank to nothing


@needs_kernel
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_tables_that_shrink_while_the_cursor_sweeps(algorithm: str) -> None:
    """Nine keys in ten expire at once, cheaply: the tables shrink (a dict at the next tick, Valkey's after the scan
    call that left it sparse, its cursor keeping its place), the dict's cycle passes over a table under 1 % full
    until then, and the survivors go on being swept."""
    rng = random.Random(5)
    count = 60_000
    expires = [START + 500 if rng.random() < 0.9 else START + rng.randrange(1_000, 30_000) for _ in range(count)]
    keys = [VolatileKeys(2, expires, [rng.randrange(1, 300) for _ in range(count)])]
    settings = ExpirySettings(algorithm=algorithm, delete_us=0.01, sample_us=0.001, effort=10, hz=50)
    outcome = both(keys, 40, 2, settings)
    assert outcome.series[-1].reclaimed > 0.9 * count


@needs_kernel
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_loops_in_a_table_the_storm_left_sparse(algorithm: str) -> None:
    """97 % of the keys expire at once and the others over the next 20 s: after the storm and until the table
    shrinks, a loop reads its whole budget of buckets to find a few keys (a pass over the empty buckets that
    did not count them would sample more)."""
    rng = random.Random(1)
    count = 50_000
    expires = [START + 1_000 if rng.random() < 0.97 else START + rng.randrange(1_000, 20_000) for _ in range(count)]
    for delete_us in (0.2, 0.5):
        settings = ExpirySettings(algorithm=algorithm, sample_us=1.0, delete_us=delete_us)
        both([VolatileKeys(0, expires, [100] * count)], 10, 0.5, settings)


@needs_kernel
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_small_tables_odd_steps_and_other_hz(algorithm: str) -> None:
    """A database of one key, of two, and of 64 (a power of two), a step that does not divide the span, hz 1 and
    hz 100."""
    keys = [
        VolatileKeys(1, [START + 700], [3]),
        VolatileKeys(2, [START + 100, START + 9_000], [1, 2]),
        VolatileKeys(4, [START + 37 * i for i in range(64)], list(range(64))),
        VolatileKeys(9, [], []),
    ]
    for hz in (1, 100):
        both(keys, 7.3, 0.7, ExpirySettings(algorithm=algorithm, hz=hz, seed=hz))


@needs_kernel
def test_seeds_place_keys_differently_and_arrays_are_lists() -> None:
    keys = mixed_keys(11)
    as_arrays = [VolatileKeys(k.db, array("q", k.expires), array("q", k.sizes)) for k in keys]
    settings = ExpirySettings(algorithm="cursor")
    assert KERNEL is not None
    listed = KERNEL.simulate_expiry(keys, START, 60, 10, settings)
    assert KERNEL.simulate_expiry(as_arrays, START, 60, 10, settings) == listed
    assert both(as_arrays, 60, 10, settings) == listed
    assert both(keys, 60, 10, replace(settings, seed=99)) != listed  # the seed is the keys' places


@needs_kernel
def test_the_kernel_refuses_what_the_pure_code_refuses() -> None:
    assert KERNEL is not None
    with pytest.raises(ValueError, match="step"):
        KERNEL.simulate_expiry([VolatileKeys(0, [START], [1])], START, 10, 0, ExpirySettings())
    with pytest.raises(ValueError, match="sizes"):
        KERNEL.simulate_expiry([VolatileKeys(0, [START, START], [1])], START, 10, 1, ExpirySettings())


def test_simulate_expiry_uses_the_compiled_cycle_when_there_is_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """With REDISCIPLINE_PURE set the pure code runs; either way the outcome is the same."""
    keys = mixed_keys(3, (500, 2, 50))
    settings = ExpirySettings(algorithm="valkey9")
    default = simulate_expiry(keys, START, 30, 10, settings)
    monkeypatch.setenv("REDISCIPLINE_PURE", "1")
    assert simulate_expiry(keys, START, 30, 10, settings) == default
