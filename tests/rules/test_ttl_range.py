"""TTL003 ttl-range where the TTL is seen as it is set (runtime): case files only hold live facts."""

from __future__ import annotations

import pytest

from rediscipline.engine.runner import Engine
from rediscipline.model.facts import KeyFact
from rediscipline.model.location import Location
from rediscipline.rules.base import ConfiguredRule
from rediscipline.rules.options import build
from rediscipline.rules.ttl.ttl_range import TtlRange, duration
from rediscipline.settings.namespaces import parse_namespace


def _codes(source: str, ttl_ms: int) -> list[tuple[str, int]]:
    configured = ConfiguredRule(TtlRange(), build(TtlRange.Options, {}), TtlRange.meta.severity)
    namespace = parse_namespace("session:*", {"ttl-min": "10m", "ttl-max": "24h"}, "test")
    engine = Engine([configured], [namespace])
    engine.feed(KeyFact(b"session:uid:1", Location(source, "app.py"), 0, "string", ttl_ms=ttl_ms))
    return [(f.code, f.count) for f in engine.finish(source).findings]


def test_too_short_where_the_ttl_is_the_one_being_set() -> None:
    assert _codes("runtime", 7200) == [("too-short", 1)]  # PX 7200: milliseconds meant as seconds
    assert _codes("runtime", 600_000) == []


def test_a_live_ttl_is_what_is_left_and_never_too_short() -> None:
    assert _codes("live", 7200) == []
    assert _codes("live", 90_000_000) == [("too-long", 1)]


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
    assert duration(seconds).en == en
    assert duration(seconds).zh == zh
