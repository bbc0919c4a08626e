"""keys_flagged counts the keys behind aggregate findings too: exactly where it can, an upper bound where a
pattern has both per-key warnings and an aggregate finding over part of its keys."""

from __future__ import annotations

from rediscipline.api import settings_for
from rediscipline.engine.flagged import FlaggedKeys
from rediscipline.engine.runner import Engine
from rediscipline.model.facts import KeyFact
from rediscipline.model.location import Location
from rediscipline.settings.loader import Overrides

HOUR_MS = 3_600_000


def _same(pattern: bytes) -> bytes:
    return pattern


def test_aggregate_keys_are_added_up_to_the_pattern_unflagged_keys() -> None:
    flagged = FlaggedKeys(_same)
    for _ in range(30):
        flagged.add(b"a:*")
    counts = {b"a:*": 100, b"b:*": 500}
    assert flagged.total([], counts, 600) == 30
    assert flagged.total([(b"b:*", 400)], counts, 600) == 430  # no per-key warning in b:*: exact
    assert flagged.total([(b"a:*", 100)], counts, 600) == 100  # the whole pattern: exact
    assert flagged.total([(b"a:*", 50)], counts, 600) == 80  # overlap unknown: at most the 70 unflagged
    assert flagged.total([(b"a:*", 90), (b"a:*", 90)], counts, 600) == 100  # never more than the pattern
    assert flagged.total([(b"family:*", 900)], counts, 600) == 600  # a pattern with no keys: the keyspace bounds it


def test_merged_patterns_are_followed() -> None:
    flagged = FlaggedKeys(lambda p: b"user:*" if p.startswith(b"user:") else p)
    flagged.add(b"user:alice")
    flagged.add(b"user:bob")
    assert flagged.total([(b"user:carol", 5)], {b"user:*": 6}, 6) == 6


def test_expiry_cliff_flags_its_keys() -> None:
    """10,000 keys all expiring in the same second: one aggregate warning, and 10,000 keys flagged."""
    settings = settings_for(Overrides(isolated=True, select=("TTL002",)))
    engine = Engine(settings.rules)
    origin = Location("live", "redis://h:1", db=0)
    for index in range(10_000):
        name = b"cache:item:%d" % index
        engine.feed(KeyFact(name, origin, 0, "string", 3 * HOUR_MS, 100, 10, "embstr", expire_at_ms=10 * HOUR_MS))
    result = engine.finish("live")
    assert [(f.rule_id, f.count) for f in result.findings] == [("TTL002", 10_000)]
    assert result.stats.keys_flagged == 10_000
    assert result.stats.score is not None and result.stats.score == 0
