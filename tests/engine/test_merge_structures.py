"""Merge laws of the engine's structures (tests/support/merge_laws.py): pattern table, finding groups, flagged
and unreadable counts, keyspace statistics with its top-K heaps. Each is fed random parts and must give what
one pass over all of them gives, merged in any order and grouping."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rediscipline.engine.flagged import FlaggedKeys
from rediscipline.engine.groups import Groups, ResolvedViolation
from rediscipline.engine.keyspace import KeyspaceCollector
from rediscipline.engine.patterns import OVERFLOW_PATTERN, PatternTable
from rediscipline.engine.unreadable import UnreadableTally
from rediscipline.model.facts import KeyFact
from rediscipline.model.keyspace import namespace_of
from rediscipline.model.location import Location
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from tests.support.merge_laws import assert_merge_laws

PARTS = 4
WORDS = (b"a", b"b", b"c", b"d", b"e", b"f")
PATTERNS = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(b":".join)
#: Every pattern PATTERNS can draw, to compare where each of them ends up.
EVERY_PATTERN = [b":".join(words) for size in (1, 2, 3) for words in itertools.product(WORDS, repeat=size)]


def parts_of(items: st.SearchStrategy[Any], size: int = 12) -> st.SearchStrategy[list[list[Any]]]:
    return st.lists(st.lists(items, max_size=size), min_size=1, max_size=PARTS)


# -- pattern table ------------------------------------------------------------------------------------------


def _table(patterns: Sequence[bytes], part: int, cap: int = 1000) -> PatternTable:
    table = PatternTable(cap=cap, merge_at=3)
    for pattern in patterns:
        table.add(pattern)
    return table


def _table_view(table: PatternTable) -> Any:
    moved = table.compact()  # what `Engine.finish` does first
    where = {pattern: moved.get(pattern) or table.canonical(pattern) for pattern in EVERY_PATTERN}
    return sorted(table.counts.items()), table.overflow_keys, where


@given(parts_of(PATTERNS, 30))
def test_pattern_tables_below_the_soft_cap_merge_into_one_pass(parts: list[list[bytes]]) -> None:
    assert_merge_laws(_table, PatternTable.merge, _table_view, parts)


def test_merged_tables_compact_at_the_end_like_one_table() -> None:
    # Two values of the middle segment in each part: too few to merge in either part (3 make a variable),
    # enough in the merged table, whose compaction at the end is the one one table would make.
    first = [b"user:%s:profile" % bytes([97 + i]) for i in range(2)]
    second = [b"user:%s:profile" % bytes([97 + i]) for i in range(2, 4)]
    merged = _table(first, 0)
    merged.merge(_table(second, 1))
    assert merged.compact() == dict.fromkeys(first + second, b"user:*:profile")
    assert merged.counts == {b"user:*:profile": 4}


@given(parts_of(PATTERNS, 40))
def test_pattern_tables_past_their_caps_stay_bounded_and_count_every_key(parts: list[list[bytes]]) -> None:
    # Past the soft cap each part compacts and overflows at points that depend on the order of its keys, as
    # one pass does; merged tables keep the cap, count every key once, and depend only on the merge order.
    recorded: set[bytes] = set()  # what the parts' tables counted keys under: their groups are keyed by these

    def part(index: int) -> PatternTable:
        table = PatternTable(cap=6, merge_at=3)
        recorded.update(table.add(pattern) for pattern in parts[index])
        return table

    def merged() -> PatternTable:
        table = part(0)
        for index in range(1, len(parts)):
            table.merge(part(index))
        return table

    table, again = merged(), merged()
    assert table.counts == again.counts and table.overflow_keys == again.overflow_keys
    assert sum(table.counts.values()) == sum(len(part) for part in parts)
    assert len([p for p in table.counts if p != OVERFLOW_PATTERN]) <= 6
    assert table.overflow_keys == table.counts.get(OVERFLOW_PATTERN, 0)
    table.compact()
    assert {table.canonical(pattern) for pattern in recorded} <= set(table.counts)


# -- finding groups -----------------------------------------------------------------------------------------

ORIGIN = Location("rdb", "part.rdb", db=0)
KEY_EVENT = st.tuples(
    st.just("key"),
    st.sampled_from(["KEY001", "VAL001"]),
    st.sampled_from([b"p:a", b"p:b", b"q:*"]),
    st.binary(min_size=1, max_size=3),
    st.sampled_from([None, 1.0, 2.0, 5.0]),
)
SUBJECT_EVENT = st.tuples(
    st.just("subject"),
    st.sampled_from(["CMD001", "CMD002"]),
    st.sampled_from(["keys", "flushall"]),
    st.sampled_from([None, b"KEYS *", b"KEYS a*"]),
    st.sampled_from([None, 3.0, 7.0]),
)
SITE_EVENT = st.tuples(
    st.just("site"),
    st.sampled_from(["BAT001", "CMD001"]),
    st.sampled_from([1, 2]),
    st.sampled_from([b"x", b"y", b"zz"]),
    st.sampled_from([None, 4.0]),
)


def _violation(rule: str, value: float | None) -> ResolvedViolation:
    message = Text(f"{rule} value {value}", f"{rule} 值 {value}")
    return ResolvedViolation(rule, "c", Severity.WARNING, message, value, None)


def _groups(events: Sequence[tuple[Any, ...]], part: int) -> Groups:
    groups = Groups(examples=2, part=part)
    for seq, (kind, rule, where, name, value) in enumerate(events, 1):
        violation = _violation(rule, value)
        if kind == "key":
            groups.add(violation, where, name, ORIGIN, seq)
        elif kind == "subject":
            origin = Location("live", f"node-{len(name or b'')}")  # where it was seen: a property of the item
            groups.add_subject(violation, (where, "commandstats"), origin, name, 2, rank=seq)
        else:
            site = Location("code", "app.py", line=where, column=len(name))
            groups.add_site(violation, site, name, None, rank=seq)
    return groups


def _groups_view(groups: Groups) -> Any:
    groups.remap(lambda pattern: b"p:*" if pattern.startswith(b"p:") else pattern)  # a pattern merge at the end
    return groups.findings("rdb")


@given(parts_of(st.one_of(KEY_EVENT, SUBJECT_EVENT, SITE_EVENT), 15))
def test_groups_merge_into_one_pass(parts: list[list[tuple[Any, ...]]]) -> None:
    assert_merge_laws(_groups, Groups.merge, _groups_view, parts)


def test_examples_and_worst_values_are_the_earliest_whatever_the_merge_order() -> None:
    later = _groups([("key", "KEY001", b"p:a", b"k3", 5.0), ("key", "KEY001", b"p:a", b"k4", 5.0)], 1)
    earlier = _groups([("key", "KEY001", b"p:a", b"k1", 2.0), ("key", "KEY001", b"p:a", b"k2", 5.0)], 0)
    later.merge(earlier)
    (finding,) = later.findings("rdb")
    assert [e.name for e in finding.examples] == [b"k1", b"k2"]
    assert finding.count == 4 and finding.worst == 5.0
    assert finding.message.en == "KEY001 value 5.0"


# -- flagged keys and unreadable keys -----------------------------------------------------------------------


def _flagged(patterns: Sequence[bytes], part: int) -> FlaggedKeys:
    flagged = FlaggedKeys(lambda p: b"p:*" if p.startswith(b"p:") else p)
    for pattern in patterns:
        flagged.add(pattern)
    return flagged


@given(parts_of(PATTERNS))
def test_flagged_counts_merge_into_one_pass(parts: list[list[bytes]]) -> None:
    def view(flagged: FlaggedKeys) -> Any:
        aggregates = [(b"p:*", 3), (b"a", 1)]
        return flagged.keys, flagged.total(aggregates, {b"p:*": 5, b"a": 2, b"a:b": 1}, 40)

    assert_merge_laws(_flagged, FlaggedKeys.merge, view, parts)


def _tally(patterns: Sequence[bytes], part: int) -> UnreadableTally:
    tally = UnreadableTally()
    for pattern in patterns:
        tally.add(pattern)
    return tally


@given(parts_of(PATTERNS))
def test_unreadable_tallies_merge_into_one_pass(parts: list[list[bytes]]) -> None:
    assert_merge_laws(_tally, UnreadableTally.merge, lambda t: t.summary(lambda p: p[:1], []), parts)


# -- keyspace statistics ------------------------------------------------------------------------------------

FACTS = st.builds(
    lambda name, db, kind, ttl, memory, length: (name, db, kind, ttl, memory, length),
    st.sampled_from([b"user:1", b"user:2", b"order:9", b"cache", b"a:b:c", b"zz:top"]),
    st.sampled_from([0, 0, 3]),
    st.sampled_from([None, "string", "hash"]),
    st.sampled_from([None, -1, 5_000, 4_000_000, 100_000_000, 3_000_000_000]),  # timeline: minute, hour, later
    st.sampled_from([None, 0, 64, 64, 900, 1 << 70]),  # 2^70: past the 65 size buckets a collector starts with
    st.sampled_from([None, 0, 2, 2, 30]),
)


def _keyspace(
    facts: Sequence[tuple[Any, ...]], part: int, top: int = 3, sample: tuple[float, int] | None = None
) -> KeyspaceCollector:
    collector = KeyspaceCollector(top=top)
    if sample is not None:
        collector.set_sampling(*sample)  # a sampled scan says so before its keys
    for name, db, kind, ttl, memory, length in facts:
        fact = KeyFact(name, ORIGIN, db, kind, ttl_ms=ttl, memory=memory, length=length, encoding=kind and "raw")
        collector.note_fields(fact)
        collector.add(fact, None, name.split(b":")[0] + b":*" if b":" in name else name)
    return collector


@given(parts_of(FACTS, 20))
@settings(deadline=None)  # each merge adds the timeline's 2,160 counts: no wall-clock limit on a shared machine
def test_keyspace_statistics_and_top_keys_merge_into_one_pass(parts: list[list[tuple[Any, ...]]]) -> None:
    # The same key may sit in two parts (two dumps of one server) with other fields: ties in the top-K
    # heaps are broken by every field, so the heaviest keys are exact whatever the order.
    assert_merge_laws(_keyspace, KeyspaceCollector.merge, KeyspaceCollector.finish, parts)


@given(parts_of(FACTS, 20))
@settings(max_examples=50, deadline=None)
def test_sampled_parts_merge_into_one_pass_with_their_estimates(parts: list[list[tuple[Any, ...]]]) -> None:
    # Each part is a node sampled at one rate, its population twice the keys drawn: the estimates (sums of
    # squares in integers) and the populations add up to one pass's.
    def build(facts: Sequence[tuple[Any, ...]], part: int) -> KeyspaceCollector:
        return _keyspace(facts, part, sample=(0.5, 2 * len(facts)))

    assert_merge_laws(build, KeyspaceCollector.merge, KeyspaceCollector.finish, parts)


def test_parts_sampled_at_different_rates_or_not_at_all_do_not_merge() -> None:
    first, second = _keyspace([], 0), _keyspace([], 1)
    first.set_sampling(0.5, 10)
    second.set_sampling(0.25, 10)
    with pytest.raises(ValueError, match="different rates"):
        first.merge(second)
    sampled, whole = _keyspace([], 0), _keyspace([(b"a:1", 0, "string", -1, 64, 2)], 1)
    sampled.set_sampling(0.5, 10)
    with pytest.raises(ValueError, match="read whole"):
        sampled.merge(whole)


def test_namespaces_past_the_cap_keep_the_biggest() -> None:
    from rediscipline.engine import keyspace

    first, second = KeyspaceCollector(), KeyspaceCollector()
    cap = keyspace.NAMESPACE_CAP
    for index in range(cap):
        name = b"ns%d:x" % index
        first.add(KeyFact(name, ORIGIN, 0, "string", memory=1), None, name)
    for _ in range(3):
        second.add(KeyFact(b"big:x", ORIGIN, 0, "string", memory=1), None, b"big:x")
    first.merge(second)
    labels = {bucket.label: bucket.keys for bucket in first.finish().namespaces}
    assert labels["big:*"] == 3
    assert labels[keyspace.OTHER] == 1  # the greatest label among the one-key namespaces went to <other>
    greatest = max(f"ns{index}:*" for index in range(cap))
    assert greatest not in labels and "ns0:*" in labels
    assert len(labels) == cap + 1
    assert namespace_of(b"big:x") == "big:*"
