"""KEY013 hashtag-slot-skew on key spaces too large for a case file (real Engine), and hashtags as Redis reads them."""

from __future__ import annotations

import pytest

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Example
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.location import Location
from rediscipline.redis_meta.keyslot import hash_slot, hashtag_of
from rediscipline.rules.key.hashtag_slot_skew import _SkewAccumulator
from rediscipline.rules.key.template_parts import scan_braces
from tests.rules.casefile import Case, run_case


@pytest.mark.parametrize(
    ("name", "tag"),
    [
        (b"user:{12345}:cart", None),  # a variable tag
        (b"rank:{global}:user:1", b"global"),
        (b"a{aa{xxx}bb}b", b"aa{xxx"),
        (b"order:{}:items", None),
        (b"user:{12345:cart", None),
        (b"plain:key", None),
    ],
)
def test_constant_tag_agrees_with_redis(name: bytes, tag: bytes | None) -> None:
    braces = scan_braces(KeyTemplate(infer_parts(name)))
    assert braces.constant_tag == tag
    if tag is not None:
        assert hashtag_of(name) == tag


def _run(keys: list[bytes], **options: int) -> list[tuple[str, bytes | None, int]]:
    case = Case("KEY013", "generated", keys, [], options=dict(options))
    return [(f.code, f.pattern, f.count) for f in run_case(case)]


def test_five_thousand_keys_with_a_constant_tag() -> None:
    keys = [f"rank:{{global}}:user:{i}".encode() for i in range(5000)]
    keys += [f"user:{{{i}}}:cart".encode() for i in range(5000)]  # ids in the tag spread out
    assert _run(keys) == [("constant-tag", b"rank:{global}:user:*", 5000)]


def test_threshold_is_inclusive() -> None:
    keys = [f"cfg:{{global}}:item:{i}".encode() for i in range(999)]
    assert _run(keys) == []
    assert _run([*keys, b"cfg:{global}:item:999"]) == [("constant-tag", b"cfg:{global}:item:*", 1000)]


def test_word_tags_are_counted_per_tag_even_when_patterns_merge() -> None:
    # 40 user names as tags: pattern compaction merges them into `user:*:cart`, but each tag (one slot)
    # holds only 100 keys, so nothing is skewed; one name with 1200 keys is.
    names = [f"name{chr(97 + n % 26)}{chr(97 + n // 26)}" for n in range(40)]
    keys = [f"user:{{{name}}}:cart:{i}".encode() for name in names for i in range(100)]
    assert _run(keys) == []
    keys += [f"user:{{celebrity}}:cart:{i}".encode() for i in range(1200)]
    findings = _run(keys)
    assert [(code, count) for code, _pattern, count in findings] == [("constant-tag", 1200)]


def test_message_names_the_slot_and_examples_are_kept() -> None:
    keys = [f"rank:{{global}}:user:{i}".encode() for i in range(1500)]
    case = Case("KEY013", "generated", keys, [])
    (finding,) = run_case(case)
    assert f"slot {hash_slot(b'global')}" in finding.message.en
    assert f"槽位 {hash_slot(b'global')}" in finding.message.zh
    assert finding.worst == 1500
    assert [e.name for e in finding.examples] == keys[:3]


def test_tracked_tags_are_bounded_and_big_tags_survive() -> None:
    accumulator = _SkewAccumulator(min_keys=50, capacity=100)
    origin = Location("keys", "x")
    for i in range(60):
        accumulator.add(KeyFact(b"hot:{big}:" + str(i).encode(), origin), b"hot:{big}:*")
    for i in range(5000):  # a long tail of one-key tags
        accumulator.add(KeyFact(b"t:{w" + str(i).encode() + b"}", origin), b"t:*")
        assert len(accumulator.tags) <= 100
    results = list(accumulator.finish())
    assert [(r.pattern, r.count) for r in results] == [(b"hot:{big}:*", 60)]
    assert results[0].examples[0] == Example(b"hot:{big}:0", origin)
