"""`Collector.keep_recent()`: the numbered, bounded record of violations the plugin reads per test, and the
exempt rules left out of the collector's record, on a real client sending to a real server."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from rediscipline.guard import guard, new_collector, report_of
from rediscipline.guard.recent import RecentViolations
from tests.support.servers import ServerProcess

HERE = Path(__file__).name


@pytest.fixture
def client(shop_server: ServerProcess) -> Iterator[redis.Redis]:
    made = shop_server.client()
    yield made
    made.close()


def line() -> int:
    """The line of the caller (the next command's call site is its line + 1)."""
    return sys._getframe(1).f_lineno


def test_nothing_is_kept_unless_asked(client: redis.Redis) -> None:
    collector = new_collector("record", isolated=True)
    guard(client, collector=collector)
    client.keys("shop:*")
    assert collector.recent is None
    assert [f.rule_id for f in report_of(collector).findings] == ["CMD001"]


def test_each_violation_is_numbered_and_read_back_after_a_mark(client: redis.Redis) -> None:
    collector = new_collector("record", isolated=True)
    recent = collector.keep_recent()
    assert collector.keep_recent() is recent
    guard(client, collector=collector)
    client.get("shop:user:1")
    assert recent.serial == 0
    first = line() + 1
    client.keys("shop:*")
    mark = recent.serial
    assert mark == 1
    second = line() + 1
    client.set("Shop:Count", 1)  # KEY006 (upper case) and TTL006 (no TTL)
    recorded, dropped = recent.since(mark)
    assert dropped == 0
    assert {(r.violation.rule_id, r.site.line, r.command) for r in recorded} == {
        ("KEY006", second, "set"),
        ("TTL006", second, "set"),
    }
    assert all(r.site.path is not None and r.site.path.endswith(HERE) for r in recorded)
    everything, _ = recent.since(0)
    assert (everything[0].violation.rule_id, everything[0].site.line) == ("CMD001", first)
    assert recent.serial == 3 and len(everything) == 3
    assert recent.since(recent.serial) == ([], 0)


def test_only_the_last_violations_are_kept_and_the_dropped_are_counted(client: redis.Redis) -> None:
    collector = new_collector("record", isolated=True, select=["CMD001"])
    recent = collector.keep_recent(limit=3)
    guard(client, collector=collector)
    for _ in range(5):
        client.keys("shop:*")
    recorded, dropped = recent.since(0)
    assert (len(recorded), dropped) == (3, 2)
    assert recent.since(3) == (recorded[1:], 0)
    assert report_of(collector).findings[0].count == 5


def test_exempt_rules_are_left_out_of_the_record_while_set(client: redis.Redis) -> None:
    collector = new_collector("record", isolated=True)
    recent = collector.keep_recent()
    guard(client, collector=collector)
    recent.exempt = frozenset({"CMD001"})
    client.keys("shop:*")
    client.set("Shop:Count", 1)
    assert sorted(r.violation.rule_id for r in recent.since(0)[0]) == ["KEY006", "TTL006"]
    recent.exempt = frozenset()
    kept = line() + 1
    client.keys("shop:*")
    findings = report_of(collector).findings
    assert sorted((f.rule_id, f.count) for f in findings) == [("CMD001", 1), ("KEY006", 1), ("TTL006", 1)]
    assert next(f.location.line for f in findings if f.rule_id == "CMD001") == kept


def test_the_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="must be positive, not 0"):
        RecentViolations(0)
