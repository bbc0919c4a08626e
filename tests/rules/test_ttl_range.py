"""TTL003 ttl-range on TTLs left (live, dump): `too-long` per key, `too-short` per pattern."""

from __future__ import annotations

import pytest

from rediscipline.engine.runner import Engine
from rediscipline.model.facts import KeyFact
from rediscipline.model.location import Location
from rediscipline.model.units import human_duration
from rediscipline.rules.base import ConfiguredRule
from rediscipline.rules.options import build
from rediscipline.rules.ttl.ttl_range import TtlRange
from rediscipline.settings.namespaces import parse_namespace


def _codes(source: str, *ttls_ms: int) -> list[tuple[str, int]]:
    configured = ConfiguredRule(TtlRange(), build(TtlRange.Options, {}), TtlRange.meta.severity)
    namespace = parse_namespace("session:*", {"ttl-min": "10m", "ttl-max": "24h"}, "test")
    engine = Engine([configured], [namespace])
    for index, ttl_ms in enumerate(ttls_ms):
        engine.feed(KeyFact(b"session:uid:%d" % index, Location(source, "dump.rdb"), 0, "string", ttl_ms=ttl_ms))
    return [(f.code, f.count) for f in engine.finish(source).findings]


@pytest.mark.parametrize("source", ["live", "rdb"])
def test_too_short_when_no_key_of_the_pattern_has_half_the_minimum_left(source: str) -> None:
    assert _codes(source, 7200) == [("too-short", 1)]  # PX 7200: milliseconds meant as seconds
    assert _codes(source, 7200, 1000, 299_000) == [("too-short", 3)]
    assert _codes(source, 7200, 300_000) == []  # one key keeps half of the 10 minutes: the TTL set was enough


def test_a_ttl_left_above_the_maximum_is_too_long() -> None:
    assert _codes("live", 90_000_000) == [("too-long", 1)]
    assert _codes("live", 86_400_000) == []


@pytest.mark.parametrize(
    ("seconds", "en", "zh"),
    [
        (0, "0 s", "0 秒"),
        (45, "45 s", "45 秒"),
        (3600, "1 h", "1 小时"),
        (90061, "1 d 1 h", "1 天 1 小时"),
        (864000 + 1800, "10 d", "10 天"),
        (5430, "1 h 30 min", "1 小时 30 分钟"),
    ],
)
def test_duration(seconds: int, en: str, zh: str) -> None:
    assert human_duration(seconds).en == en
    assert human_duration(seconds).zh == zh
