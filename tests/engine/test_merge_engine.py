"""Engines of the parts of a run merge (`Engine.partial`, `Engine.merge`) into what one engine fed every part
gives: the whole result (findings with their examples and locations, statistics, keyspace, unreadable keys),
with every default rule on. Random parts follow the merge laws (tests/support/merge_laws.py); a real key list
split into three files merges into the result of the whole list."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rediscipline.api import settings_for
from rediscipline.engine.runner import Engine, EngineResult
from rediscipline.model.facts import VANISHED, KeyFact, KeyNames, UnreadableKey
from rediscipline.model.location import Location
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides
from rediscipline.settings.namespaces import parse_namespace
from tests.support.merge_laws import assert_merge_laws

NOW = 1_704_067_200_000
SMALL_THRESHOLDS = {
    "rules": {
        "KEY013": {"min-keys": 4},
        "TTL002": {"min-keys": 4, "max-share": 0.3},
        "VAL005": {"min-fields": 2, "min-objects": 2},
    }
}
SETTINGS = settings_for(Overrides(isolated=True, extra=SMALL_THRESHOLDS))
NAMESPACES = [parse_namespace("session:*", {"ttl-min": "10m", "ttl-max": "24h", "type": "hash"}, "test")]
DEMO_KEYS = Path(__file__).parents[2] / "examples" / "demo-keys.txt"


def engine_for(part: int, settings: Settings = SETTINGS) -> Engine:
    return Engine(settings.rules, NAMESPACES, settings.key_ignores, examples=2, part=part)


def result_of(engine: Engine) -> EngineResult:
    """The engine's result with its wall time left out (the one thing two runs never share)."""
    result = engine.finish("rdb")
    return replace(result, stats=replace(result.stats, elapsed_seconds=0.0))


def merge(first: Engine, second: Engine) -> None:
    first.merge(second.partial())


# -- random parts -------------------------------------------------------------------------------------------

NAMES = st.sampled_from(
    [
        b"user:profile:%d",
        b"User:Profile:%d",
        b"rank:{global}:user:%d",
        b"order:%d:name",
        b"order:%d:total",
        b"order:%d:city",
        b"session:%d",
        b"Session Key %d",
        b"promo:coupon:%d",
        b"cache:page:%d",
        b"a:%d",
    ]
)
ORIGINS = st.sampled_from([Location("rdb", "node-1.rdb", db=0), Location("rdb", "node-2.rdb", db=3)])


def _fact(drawn: tuple[bytes, int, str, int | None, int, Location]) -> Any:
    shape, number, kind, ttl, memory, origin = drawn
    name = shape % number if b"%d" in shape else shape
    if kind == "unreadable":
        return UnreadableKey(name, origin)
    if kind == "vanished":
        return VANISHED
    expire_at = None if ttl is None or ttl < 0 else NOW + ttl
    length = memory // 8
    return KeyFact(name, origin, origin.db, kind, ttl, memory, length, "raw", expire_at_ms=expire_at)


FACTS = st.tuples(
    NAMES,
    st.integers(0, 40),
    st.sampled_from(["string", "string", "hash", "set", "unreadable", "vanished"]),
    st.sampled_from([None, -1, 7_000, 3_600_000, 3_600_000, 200_000_000]),
    st.sampled_from([60, 600, 60_000, 20_000_000]),
    ORIGINS,
).map(_fact)


def _engine(facts: Sequence[Any], part: int) -> Engine:
    engine = engine_for(part)
    engine.consume(facts)
    return engine


@given(st.lists(st.lists(FACTS, max_size=40), min_size=1, max_size=4))
@settings(max_examples=60, deadline=None)
def test_engines_of_random_parts_merge_into_one_engine(parts: list[list[Any]]) -> None:
    assert_merge_laws(_engine, merge, result_of, parts)


def test_aggregates_spread_over_parts_fire_once_merged() -> None:
    origin = Location("rdb", "node.rdb", db=0)
    facts = [KeyFact(b"rank:{global}:user:%d" % i, origin, 0, "string", -1, 60, 7, "raw") for i in range(6)]
    facts += [
        KeyFact(b"promo:coupon:%d" % i, origin, 0, "string", 3_600_000, 60, 7, "raw", expire_at_ms=NOW)
        for i in range(6)
    ]
    parts = [facts[index::3] for index in range(3)]  # two keys of each family per part: under every threshold
    alone = [{f.rule_id for f in result_of(_engine(part, i)).findings} for i, part in enumerate(parts)]
    merged = _engine(parts[0], 0)
    for index in (2, 1):
        merged.merge(_engine(parts[index], index).partial())
    fired = {(f.rule_id, f.pattern, f.count) for f in result_of(merged).findings}
    assert not any({"KEY013", "TTL002"} & rules for rules in alone)
    assert {("KEY013", b"rank:{global}:user:*", 6), ("TTL002", b"promo:coupon:*", 6)} <= fired


# -- a key list split into three files ----------------------------------------------------------------------


def _names(lines: Sequence[tuple[int, bytes]]) -> KeyNames:
    """Names of the demo list at their lines of the whole file: a part reports them where they are."""
    return KeyNames(Location("keys", "demo-keys.txt"), [(name, line, None) for line, name in lines])


def test_a_key_list_split_in_three_merges_into_the_whole_list() -> None:
    lines = list(enumerate(DEMO_KEYS.read_bytes().splitlines(), 1))
    settings = settings_for(Overrides(isolated=True))
    whole = Engine(settings.rules, settings.namespaces, settings.key_ignores)
    whole.consume([_names(lines)])
    third = len(lines) // 3
    parts = [lines[:third], lines[third : 2 * third], lines[2 * third :]]
    engines = []
    for index, part in enumerate(parts):
        engine = Engine(settings.rules, settings.namespaces, settings.key_ignores, part=index)
        engine.consume([_names(part)])
        engines.append(engine)
    merged = engines[1]
    merged.merge(engines[2].partial())
    merged.merge(engines[0].partial())
    expected = result_of(whole)
    assert result_of(merged) == expected
    assert expected.stats.keys == len(lines) and len(expected.findings) > 10
    assert expected.stats.patterns < expected.stats.keys  # patterns were merged at the end, in both
