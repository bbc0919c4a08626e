"""TTL002 expiry-cliff with the default thresholds, on key spaces too large for a case file (real Engine).

Each key space is what a scan at NOW would see: a key written at `w` with a TTL of `t` seconds expires at
`w + t` and has `w + t - NOW` left.
"""

from __future__ import annotations

import random

import pytest

from rediscipline import compiled
from rediscipline.model.facts import KeyFact
from rediscipline.model.location import Location
from rediscipline.rules.ttl.expiry_cliff import SECOND_COUNTERS, TWIN, ExpiryCliffOptions, _CliffAccumulator
from tests.rules.casefile import Case, run_case
from tests.support.cores import require_compiled

NOW = 1_704_067_200_000  # 2024-01-01T00:00:00Z, in ms
ORIGIN = Location("live", "redis://test:6379")


def _fact(name: str, written_ms: int, ttl_seconds: float) -> KeyFact:
    expire_at = written_ms + round(ttl_seconds * 1000)
    return KeyFact(name.encode(), ORIGIN, 0, "string", ttl_ms=expire_at - NOW, expire_at_ms=expire_at)


def _run(facts: list[KeyFact], **options: float) -> list[tuple[str, bytes | None, int]]:
    case = Case("TTL002", "generated", [], [], options=dict(options), facts=facts)
    return [(f.code, f.pattern, f.count) for f in run_case(case)]


def test_a_bulk_load_with_one_ttl_fires_and_the_same_load_with_jitter_does_not() -> None:
    rng = random.Random(1)
    batch = [NOW - 200_000 + rng.randrange(800) for _ in range(5000)]  # 5000 writes within 0.8 s
    fixed = [_fact(f"seckill:stock:{i}", w, 3600) for i, w in enumerate(batch)]
    # 003 方案1: 3600 s ± a random 300 s
    jittered = [_fact(f"product:cache:{i}", w, 3600 + rng.uniform(-300, 300)) for i, w in enumerate(batch)]
    assert _run(fixed + jittered) == [("same-second", b"seckill:stock:*", 5000)]


def test_steady_writes_with_a_fixed_ttl_do_not_fire() -> None:
    # A session written at a steady rate over the last 30 minutes, always with EX 1800: expiries are as
    # steady as the writes.
    rng = random.Random(2)
    facts = [_fact(f"session:token:{i}", NOW - rng.randrange(1_800_000), 1800) for i in range(20_000)]
    assert _run(facts) == []


def test_a_batch_spread_over_seconds_is_a_minute_cliff() -> None:
    # 003 场景2: a nightly job refreshes 10 000 product caches in about 20 s, all with EX 14400.
    rng = random.Random(3)
    facts = [_fact(f"product:detail:{i}", NOW - 600_000 + rng.randrange(20_000), 14400) for i in range(10_000)]
    findings = _run(facts)
    assert [(code, pattern) for code, pattern, _count in findings] == [("same-minute", b"product:detail:*")]
    assert findings[0][2] > 5000


def test_batched_offsets_do_not_fire() -> None:
    # 003 方案3: 100 batches of 100 keys, each batch 10 s later than the previous one, plus random(10).
    rng = random.Random(4)
    facts = [
        _fact(f"seckill:stock:{batch * 100 + i}", NOW - 1000, 3600 + batch * 10 + rng.randrange(10))
        for batch in range(100)
        for i in range(100)
    ]
    assert _run(facts) == []


def test_short_lived_keys_written_steadily_do_not_fire() -> None:
    # Locks of 3 s and rate-limit windows of 90 s, written at a high steady rate.
    rng = random.Random(5)
    locks = [_fact(f"lock:order:{i}", NOW - rng.randrange(3000), 3) for i in range(3000)]
    windows = [_fact(f"ratelimit:ip:{i}", NOW - rng.randrange(90_000), 90) for i in range(3000)]
    assert _run(locks + windows) == []


def test_keys_without_a_ttl_neither_fire_nor_count() -> None:
    persistent = [KeyFact(f"config:item:{i}".encode(), ORIGIN, 0, "string", ttl_ms=-1) for i in range(500)]
    few = [_fact(f"config:item:{i}", NOW - 1000, 3600) for i in range(99)]
    assert _run(persistent + few) == []
    assert _run([*persistent, *few, _fact("config:item:99", NOW - 1000, 3600)]) == [
        ("same-second", b"config:item:*", 100)
    ]


def test_message_names_the_second_and_the_share() -> None:
    facts = [_fact(f"seckill:stock:{i}", NOW, 300) for i in range(150)]
    facts += [_fact(f"seckill:stock:{150 + i}", NOW, 301 + i) for i in range(50)]
    case = Case("TTL002", "generated", [], [], facts=facts)
    (finding,) = run_case(case)
    assert "150 of the pattern's 200 keys with a TTL (75.0%, limit 10%)" in finding.message.en
    assert "2024-01-01T00:05:00Z" in finding.message.en
    assert "2024-01-01T00:05:00Z" in finding.message.zh
    assert finding.worst == 75.0
    assert [e.name for e in finding.examples] == [b"seckill:stock:0", b"seckill:stock:1", b"seckill:stock:2"]


def test_counters_are_bounded_and_a_cliff_survives_a_long_spread() -> None:
    # 20 000 keys spread over 20 000 distinct seconds and 3000 due in one second, in random order: the
    # per-second counters never exceed their capacity, and the cliff's count is under-estimated by at most
    # n / (capacity + 1).
    rng = random.Random(6)
    facts = [_fact(f"feed:item:{i}", NOW, 600 + i) for i in range(20_000)]
    facts += [_fact(f"feed:item:{20_000 + i}", NOW, 7200) for i in range(3000)]
    rng.shuffle(facts)
    accumulator = _CliffAccumulator(ExpiryCliffOptions())
    for fact in facts:
        accumulator.add(fact, b"feed:item:*")
        assert len(accumulator.patterns[b"feed:item:*"].seconds.counts) <= SECOND_COUNTERS
    (result,) = accumulator.finish()
    assert result.violation.code == "same-second"
    assert 3000 - len(facts) // (SECOND_COUNTERS + 1) <= result.count <= 3000


def test_tracked_patterns_are_bounded_and_big_patterns_survive() -> None:
    accumulator = _CliffAccumulator(ExpiryCliffOptions(), capacity=100)
    for i in range(150):
        accumulator.add(_fact(f"big:cliff:{i}", NOW, 3600), b"big:cliff:*")
    for i in range(5000):  # a long tail of one-key patterns
        accumulator.add(_fact(f"tail{i}:x", NOW, 3600 + i), f"tail{i}:x".encode())
        assert len(accumulator.patterns) <= 100
    assert [(r.pattern, r.count) for r in accumulator.finish()] == [(b"big:cliff:*", 150)]


def _state(acc: _CliffAccumulator) -> list[tuple[bytes, int, dict[int, list[object]], dict[int, list[object]]]]:
    return [(p, e.keys, dict(e.seconds.counts), dict(e.minutes.counts)) for p, e in acc.patterns.items()]


@pytest.mark.parametrize("seed", range(6))
def test_the_compiled_add_changes_the_accumulator_as_the_method_does(seed: int) -> None:
    """`_expiry_cliff.Adder`, which the compiled kernel calls instead of `add`: the same state key for key,
    with tables small enough that patterns are pruned and bucket counters dropped, TTLs at each horizon ±1,
    keys without a TTL, already expired and negative expiry times, and the part changing midway."""
    twin = compiled.load(TWIN)
    if twin is None:
        require_compiled(TWIN)
    rng = random.Random(seed)
    options = ExpiryCliffOptions()
    method, compiled_one = _CliffAccumulator(options, capacity=8), _CliffAccumulator(options, capacity=8)
    adder = twin.Adder(compiled_one)
    lefts = [None, -1, -2, 0, 59_999, 60_000, 60_001, 599_999, 600_000, 600_001, 3_600_000, 86_400_000]
    for i in range(4000):
        if i == 2000:
            method.part = compiled_one.part = 1
        pattern = f"p{rng.randrange(12)}:*".encode()
        left = rng.choice(lefts) if rng.random() < 0.5 else rng.randrange(-5_000, 10_000_000)
        expire_at = None if left is None else rng.choice([NOW, -NOW, 0]) + rng.randrange(200) * 997 + (left or 0)
        fact = KeyFact(f"k:{i}".encode(), ORIGIN, 0, "string", ttl_ms=left, expire_at_ms=expire_at)
        method.add(fact, pattern)
        adder(fact, pattern)
        assert _state(compiled_one) == _state(method), i
    assert list(compiled_one.finish()) == list(method.finish())
