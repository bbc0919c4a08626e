"""The cluster rules on what the engine counted: each shard's keys fed to an engine of its own (a part of the
run, in cluster mode), the parts merged, and the cluster's view given as a cluster scan gives it. The case
files (tests/rules/cases/CLU*.toml) pin each rule on views written by hand; these tests pin that the slots
and hashtags the engine counts are what the rules need, and how CLU002 and CLU003 share a dominant hashtag.
"""

from __future__ import annotations

from typing import Any

from rediscipline.engine.runner import Engine
from rediscipline.model.cluster import ClusterView, ShardStat
from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Finding
from rediscipline.model.location import Location
from rediscipline.redis_meta.keyslot import hash_slot, hashtag_of
from rediscipline.rules import default_registry
from rediscipline.rules.base import ConfiguredRule
from rediscipline.rules.options import build
from tests.rules.casefile import even_slots

#: Bytes of memory every key of these tests carries.
KEY_MEMORY = 100
GLOBAL_SLOT = hash_slot(b"global")


def _configured(*rule_ids: str) -> list[ConfiguredRule]:
    registry = default_registry()
    return [
        ConfiguredRule(cls(), build(cls.Options, {}), cls.meta.severity)
        for cls in (registry.get(rule_id) for rule_id in rule_ids)
    ]


def _names() -> list[bytes]:
    """30,000 keys spread over the slots, and 6,000 under the constant hashtag `{global}`."""
    spread = [f"user:{i}:profile".encode() for i in range(30_000)]
    return spread + [f"rank:{{global}}:user:{i}".encode() for i in range(6_000)]


def _run(rules: list[ConfiguredRule], names: list[bytes], failed: int | None = None) -> list[Finding]:
    """Feed each shard's keys to an engine of its own, merge them into the run's and judge the cluster; the
    shard `failed` is never read (its keys never reach an engine)."""
    ranges = even_slots(3)
    owned: list[list[bytes]] = [[], [], []]
    for name in names:
        tag = hashtag_of(name)
        slot = hash_slot(name if tag is None else tag)
        owned[next(i for i, r in enumerate(ranges) if r[0][0] <= slot <= r[0][1])].append(name)
    shards: list[ShardStat] = []
    engine = Engine(rules, (), cluster=True)
    for index, keys in enumerate(owned):
        address = f"10.0.0.{index + 1}:7000"
        if index == failed:
            shards.append(ShardStat(f"shard{index}", address, "master", ranges[index], 1, status="failed"))
            continue
        part = Engine(rules, (), part=index + 1, cluster=True)
        for name in keys:
            part.feed(KeyFact(name, Location("live", address), memory=KEY_MEMORY))
        engine.merge(part.partial())
        shards.append(
            ShardStat(
                f"shard{index}", address, "master", ranges[index], 1, keys=len(keys), memory=len(keys) * KEY_MEMORY
            )
        )
    engine.consume([ClusterView(tuple(shards), origin=Location("live", "redis://10.0.0.1:7000"))])
    return [f for f in engine.finish("live").findings if f.rule_id.startswith("CLU")]


def _summary(findings: list[Finding]) -> list[tuple[Any, ...]]:
    return sorted((f.rule_id, f.code, f.subject, f.worst, f.examples[0].name if f.examples else None) for f in findings)


def test_a_dominant_hashtag_is_reported_as_the_tag_and_its_shard_as_skewed() -> None:
    names = _names()
    assert 5461 <= GLOBAL_SLOT <= 10922  # the tag lands on the second shard
    on_second = sum(1 for n in names[:30_000] if 5461 <= hash_slot(n) <= 10922) + 6_000
    findings = _run(_configured("CLU001", "CLU002", "CLU003"), names)
    total = len(names)
    assert _summary(findings) == [
        ("CLU001", "keys", "shard 10.0.0.2:7000", round(on_second / (total / 3), 2), b"10.0.0.2:7000"),
        ("CLU002", "keys", "hashtag {global}", round(6_000 / on_second, 3), b"global"),
    ]
    (tag,) = [f for f in findings if f.rule_id == "CLU002"]
    assert tag.message.en.startswith(f"the hashtag {{global}} pins 6,000 keys to slot {GLOBAL_SLOT}, ")
    assert tag.location == Location("live", "redis://10.0.0.1:7000")


def test_without_the_hashtag_rule_the_slot_is_reported_naming_its_tag() -> None:
    names = _names()
    findings = _run(_configured("CLU003"), names)
    (slot,) = findings
    assert (slot.code, slot.subject, slot.examples[0].name) == ("keys", f"slot {GLOBAL_SLOT}", b"global")
    assert "most of them share the hashtag {global}" in slot.message.en


def test_a_shard_never_read_makes_no_skew() -> None:
    """The third shard's keys are unknown, not zero: the two shards read are compared, and are even."""
    findings = _run(_configured("CLU001"), _names()[:30_000], failed=2)
    assert findings == []
