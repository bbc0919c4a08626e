"""Pattern grouping: high-cardinality segments merge, memory stays bounded, the cap is reported."""

from __future__ import annotations

from rediscipline.api import check_key_names, settings_for
from rediscipline.engine.patterns import OVERFLOW_PATTERN, PatternTable
from rediscipline.settings.loader import Overrides


def test_word_segments_with_many_values_merge() -> None:
    table = PatternTable(cap=1000, merge_at=24)
    names = [f"user:{n}:profile".encode() for n in ("alice", "bob", "carol", "dave")] * 1
    names += [f"user:name{chr(97 + i)}{chr(97 + j)}:profile".encode() for i in range(5) for j in range(5)]
    for name in names:
        table.add(name)
    moved = table.compact()
    assert set(table.counts) == {b"user:*:profile"}
    assert table.counts[b"user:*:profile"] == len(names)
    assert moved[b"user:alice:profile"] == b"user:*:profile"
    # a later key of the merged family lands in the merged pattern directly
    assert table.add(b"user:zed:profile") == b"user:*:profile"


def test_few_values_do_not_merge() -> None:
    table = PatternTable(cap=1000)
    for name in (b"config:feature_a", b"config:feature_b", b"config:feature_c"):
        table.add(name)
    table.compact()
    assert set(table.counts) == {b"config:feature_a", b"config:feature_b", b"config:feature_c"}


def test_hard_cap_counts_overflow() -> None:
    table = PatternTable(cap=100, merge_at=10_000)  # merging disabled: every pattern is distinct
    for index in range(300):
        table.add(b"k%c%c" % (65 + index % 26, 65 + index // 26))
    assert len(table.counts) <= 101
    assert table.overflow_keys == 300 - 100
    assert table.counts[OVERFLOW_PATTERN] == table.overflow_keys


def test_findings_follow_merged_patterns_and_report_the_cap() -> None:
    names = [f"legacy_{word}:x y".encode() for word in ("a", "b")]
    names += [f"user:{chr(97 + i)}{chr(97 + j)}x:Profile".encode() for i in range(6) for j in range(6)]
    report = check_key_names(names, settings_for(Overrides(isolated=True, select=("KEY006", "KEY001"))))
    by_rule = {(f.rule_id, f.pattern): f.count for f in report.findings}
    assert by_rule[("KEY006", b"user:*:Profile")] == 36
    assert by_rule[("KEY001", b"legacy_a:x y")] == 1
    assert report.stats.overflow_keys == 0 and not report.notes
