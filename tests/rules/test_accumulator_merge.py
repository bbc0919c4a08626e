"""Merge laws of the aggregate rules' accumulators (tests/support/merge_laws.py): KEY013 hashtag-slot-skew,
TTL002 expiry-cliff, TTL003 ttl-range (too short) and VAL005 object-as-strings. Each accumulator is fed the
facts of random parts, within its bounds, and must report what one accumulator fed every part reports, merged
in any order and grouping; past its bounds, what the rule promises still holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from rediscipline.model.facts import KeyFact
from rediscipline.model.location import Location
from rediscipline.rules.base import (
    Accumulator,
    AggregateResult,
    AggregateRule,
    RuleContext,
    merge_table,
    prune_table,
)
from rediscipline.rules.key.hashtag_slot_skew import HashtagSlotSkew
from rediscipline.rules.options import build
from rediscipline.rules.ttl.expiry_cliff import SECOND_COUNTERS, ExpiryCliff, ExpiryCliffOptions, _CliffAccumulator
from rediscipline.rules.ttl.ttl_range import TtlRange
from rediscipline.rules.value.object_as_strings import ObjectAsStrings
from rediscipline.settings.namespaces import parse_namespace
from tests.support.merge_laws import assert_merge_laws

NOW = 1_704_067_200_000  # 2024-01-01T00:00:00Z
ORIGINS = st.sampled_from([Location("rdb", "a.rdb", db=0), Location("rdb", "b.rdb", db=0)])
Item = tuple[KeyFact, bytes]  # a fact and the pattern the engine counted it under


def parts_of(items: st.SearchStrategy[Item], size: int = 25) -> st.SearchStrategy[list[list[Item]]]:
    return st.lists(st.lists(items, max_size=size), min_size=1, max_size=4)


def accumulator_of(rule: AggregateRule[Any], options: dict[str, Any], ctx: dict[str, Any] | None = None) -> Any:
    """A builder of `rule`'s accumulators for `assert_merge_laws`."""
    context = RuleContext(build(rule.Options, options), rule.meta.severity, **(ctx or {}))

    def make(items: Sequence[Item], part: int) -> Accumulator:
        accumulator = rule.accumulator(context)
        accumulator.part = part
        for fact, pattern in items:
            accumulator.add(fact, pattern)
        return accumulator

    return make


def results(accumulator: Accumulator) -> list[AggregateResult]:
    """What an accumulator reports, in the engine's order (an accumulator's own order is not its contract)."""
    return sorted(accumulator.finish(), key=lambda r: (r.pattern, r.violation.code, -r.count, repr(r.examples)))


def merge(first: Accumulator, second: Accumulator) -> None:
    first.merge(second)


# -- KEY013 -------------------------------------------------------------------------------------------------

TAGGED = st.builds(
    lambda tag, kind, number, origin: (
        KeyFact(b"%s:{%s}:%d" % (kind, tag, number), origin),
        b"%s:{%s}:*" % (kind, tag),
    ),
    st.sampled_from([b"global", b"hot", b"x"]),
    st.sampled_from([b"rank", b"feed", b"cart", b"box"]),  # at most 4 patterns per tag: within its bound of 8
    st.integers(0, 30),
    ORIGINS,
)


@given(parts_of(TAGGED))
def test_hashtag_skew_accumulators_merge_into_one_pass(parts: list[list[Item]]) -> None:
    make = accumulator_of(HashtagSlotSkew(), {"min-keys": 4})
    assert_merge_laws(make, merge, results, parts)


def test_a_skew_spread_over_parts_is_found_only_once_they_merge() -> None:
    make = accumulator_of(HashtagSlotSkew(), {"min-keys": 10})
    parts = [[(KeyFact(b"rank:{g}:%d" % (10 * p + i), Location("rdb", f"{p}.rdb")), b"rank:{g}:*") for i in range(4)]
             for p in range(3)]  # fmt: skip
    alone = [results(make(part, index)) for index, part in enumerate(parts)]
    merged = make(parts[2], 2)
    merged.merge(make(parts[0], 0))
    merged.merge(make(parts[1], 1))
    (found,) = results(merged)
    assert alone == [[], [], []]
    assert found.count == 12 and [e.name for e in found.examples] == [b"rank:{g}:0", b"rank:{g}:1", b"rank:{g}:2"]


# -- TTL002 -------------------------------------------------------------------------------------------------


def _expiring(name: int, second: int, left_minutes: int, origin: Location) -> Item:
    expire_at = NOW + second * 1000 + 250
    fact = KeyFact(b"coupon:%d" % name, origin, 0, "string", ttl_ms=left_minutes * 60_000, expire_at_ms=expire_at)
    return fact, b"coupon:*" if name % 3 else b"promo:*"


EXPIRING = st.builds(
    _expiring,
    st.integers(0, 200),
    st.sampled_from([0, 0, 0, 1, 59, 60, 61, 600, 3600]),  # few distinct seconds and minutes: exact counters
    st.sampled_from([0, 5, 11, 60]),  # below and above the one- and ten-minute horizons
    ORIGINS,
)


@given(parts_of(EXPIRING, 40))
def test_expiry_cliff_accumulators_merge_into_one_pass(parts: list[list[Item]]) -> None:
    make = accumulator_of(ExpiryCliff(), {"min-keys": 5, "max-share": 0.3})
    assert_merge_laws(make, merge, results, parts)


@given(st.lists(st.lists(st.integers(0, 999), min_size=50, max_size=400), min_size=2, max_size=4))
def test_merged_cliff_counters_keep_the_misra_gries_bound(parts: list[list[int]]) -> None:
    # Many distinct seconds: counters are dropped in each part and at the merge, but a count is never too
    # high and at most n / (counters + 1) too low.
    merged = _CliffAccumulator(ExpiryCliffOptions())
    truth: dict[int, int] = {}
    for index, seconds in enumerate(parts):
        accumulator = _CliffAccumulator(ExpiryCliffOptions())
        accumulator.part = index
        for number, second in enumerate(seconds):
            truth[second] = truth.get(second, 0) + 1
            accumulator.add(_expiring(3 * number + 1, second, 60, Location("rdb", "x"))[0], b"coupon:*")
        merged.merge(accumulator)
    counts = merged.patterns[b"coupon:*"].seconds.counts
    keys = sum(truth.values())
    assert len(counts) <= SECOND_COUNTERS
    for second, true_count in truth.items():
        counter = counts.get(NOW // 1000 + second)
        estimate = counter[0] if counter is not None else 0
        assert true_count - keys // (SECOND_COUNTERS + 1) <= estimate <= true_count


# -- TTL003 -------------------------------------------------------------------------------------------------

SESSION = parse_namespace("session:*", {"ttl-min": "10m"}, "test")
SHORT = st.builds(
    lambda number, left, origin: (
        KeyFact(b"session:%d" % number, origin, 0, "string", ttl_ms=left),
        b"session:*" if number % 2 else b"session:x:*",
    ),
    st.integers(0, 50),
    st.sampled_from([-1, 1_000, 7_200, 200_000, 299_999, 300_000, 900_000]),
    ORIGINS,
)


@given(parts_of(SHORT))
def test_ttl_range_accumulators_merge_into_one_pass(parts: list[list[Item]]) -> None:
    make = accumulator_of(TtlRange(), {}, {"namespace": SESSION, "namespaces": (SESSION,)})
    assert_merge_laws(make, merge, results, parts)


# -- VAL005 -------------------------------------------------------------------------------------------------

FIELDS = st.builds(
    lambda family, object_id, field, kind, origin: (
        KeyFact(b"%s:%d:%s" % (family, object_id, field), origin, 0, kind),
        b"%s:*:%s" % (family, field),
    ),
    st.sampled_from([b"member", b"item"]),
    st.integers(1, 8),
    st.sampled_from([b"name", b"age", b"city", b"mail", b"tel"]),
    st.sampled_from(["string", "string", "string", "hash"]),
    ORIGINS,
)


@given(parts_of(FIELDS, 40))
def test_object_as_strings_accumulators_merge_into_one_pass(parts: list[list[Item]]) -> None:
    make = accumulator_of(ObjectAsStrings(), {"min-fields": 2, "min-objects": 2})
    assert_merge_laws(make, merge, results, parts)


def test_an_object_whose_fields_are_in_different_parts_is_one_object() -> None:
    make = accumulator_of(ObjectAsStrings(), {"min-fields": 3, "min-objects": 2})
    where = Location("rdb", "x.rdb")
    parts = [
        [(KeyFact(b"member:%d:%s" % (i, field), where, 0, "string"), b"member:*:" + field) for i in (1, 2)]
        for field in (b"name", b"age", b"city")
    ]
    assert [results(make(part, index)) for index, part in enumerate(parts)] == [[], [], []]
    merged = make(parts[0], 0)
    merged.merge(make(parts[1], 1))
    merged.merge(make(parts[2], 2))
    (found,) = results(merged)
    assert (found.pattern, found.count, found.violation.value) == (b"member:*:*", 6, 2)
    assert "(name, age, city)" in found.violation.message.en


def test_merging_into_a_full_table_makes_room_in_the_table_it_fills() -> None:
    """`merge_table` prunes the very table it merges into (in place), so nothing lands in a dropped copy."""
    mine = {b"heavy": [9], b"light": [1], b"mid": [5], b"small": [2]}
    theirs = {b"heavy": [1], b"new": [3]}

    def combine(kept: list[int], entry: list[int]) -> None:
        kept[0] += entry[0]

    merge_table(mine, theirs, 4, lambda entry: entry[0], combine)

    # full at 4: the entries at most the lower quartile's weight (2) go before `new` enters
    assert mine == {b"heavy": [10], b"mid": [5], b"new": [3]}


def test_pruning_drops_the_lightest_quarter_at_least_and_keeps_the_order() -> None:
    table = {bytes([index]): weight for index, weight in enumerate((5, 1, 7, 1, 3, 8, 2, 6))}

    prune_table(table, lambda entry: entry)

    # lower quartile of 1 1 2 3 5 6 7 8 is 2: three of eight go
    assert list(table.values()) == [5, 7, 3, 8, 6]
