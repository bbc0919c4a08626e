"""`rediscipline.api.diff`: two reports written by the real tool, compared; cluster and fleet shapes around them."""

from __future__ import annotations

import base64
import hashlib
import shutil
from pathlib import Path
from typing import Any

import pytest

from rediscipline.api.diff import ReportFileError, diff_files
from rediscipline.model.report_diff import (
    TARGET_ADDED,
    TARGET_COMPARED,
    TARGET_NEWLY_FAILING,
    TARGET_RECOVERED,
    TARGET_REMOVED,
    TARGET_STILL_FAILING,
    Delta,
    FindingChange,
    Place,
    ReportDiff,
)
from rediscipline.model.severity import Severity
from tests.support.diff_reports import (
    NEW_KEYS,
    OLD_KEYS,
    fleet,
    keys_report,
    read,
    rediscipline,
    target,
    with_shards,
    write,
)

ERROR, WARNING = Severity.ERROR, Severity.WARNING


@pytest.fixture(scope="module")
def lists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The seeded pair of key-list reports (tests/support/diff_reports.py)."""
    folder = tmp_path_factory.mktemp("diff-keys")
    return keys_report(folder, "old.json", OLD_KEYS), keys_report(folder, "new.json", NEW_KEYS)


def _rows(diff: ReportDiff) -> list[tuple[Any, ...]]:
    """Each change as (kind, rule, code, pattern, (old severity, count, worst), (new ...))."""

    def state(change: FindingChange, which: str) -> tuple[Any, ...] | None:
        found = getattr(change, which)
        return None if found is None else (found.severity, found.count, found.worst)

    return [
        (
            c.change,
            c.rule_id,
            c.code,
            None if c.pattern is None else c.pattern.data,
            state(c, "old"),
            state(c, "new"),
        )
        for c in diff.changes
    ]


def test_key_lists_diff_lists_exactly_the_seeded_changes(lists: tuple[Path, Path]) -> None:
    old, new = lists
    result = diff_files(str(old), str(new))
    diff = result.report
    assert diff is not None and result.fleet is None
    assert _rows(diff) == [
        ("new", "KEY006", "uppercase", b"AID:*:player", None, (WARNING, 3, 1)),
        ("worsened", "KEY007", "camel-case", b"UserName:*", (WARNING, 2, 1), (WARNING, 5, 1)),
        ("fixed", "KEY001", "whitespace", b"foo bar:*", (ERROR, 1, 1), None),
    ]
    assert diff.unchanged == 2  # KEY005 and KEY015 on the long key
    assert (diff.keys, diff.pattern_count, diff.score) == (Delta(29, 64), Delta(5, 5), Delta(86, 86))
    assert diff.memory is None  # key lists measure no memory
    assert [(s.label, d.old, d.new) for s, d in diff.by_severity] == [
        ("error", 2, 1),
        ("warning", 1, 2),
        ("note", 1, 1),
    ]
    assert diff.patterns is not None
    assert (diff.patterns.added, diff.patterns.removed) == (1, 1)
    assert [(g.pattern.data, g.keys.old, g.keys.new) for g in diff.patterns.keys_grew] == [
        (b"user:profile:*", 20, 50),
        (b"AID:*:player", 0, 3),
        (b"UserName:*", 2, 5),
    ]
    assert diff.patterns.memory_grew is None
    assert diff.shards is None  # neither report is a cluster's
    assert diff.notes == ()
    assert sorted(diff.rules) == ["KEY001", "KEY006", "KEY007"]
    assert diff.rules["KEY006"].slug == "uppercase"
    assert result.regressions(WARNING) == 2
    assert result.regressions(ERROR) == 0


def test_the_same_report_twice_has_no_change(lists: tuple[Path, Path]) -> None:
    old, _new = lists
    diff = diff_files(str(old), str(old)).report
    assert diff is not None
    assert (diff.changes, diff.unchanged) == ((), 4)
    assert diff.patterns is not None and diff.patterns.keys_grew == ()


def test_reversed_the_changes_are_fixed_improved_and_new(lists: tuple[Path, Path]) -> None:
    old, new = lists
    diff = diff_files(str(new), str(old)).report
    assert diff is not None
    assert _rows(diff) == [
        ("new", "KEY001", "whitespace", b"foo bar:*", None, (ERROR, 1, 1)),
        ("fixed", "KEY006", "uppercase", b"AID:*:player", (WARNING, 3, 1), None),
        ("improved", "KEY007", "camel-case", b"UserName:*", (WARNING, 5, 1), (WARNING, 2, 1)),
    ]


def test_a_higher_severity_is_worse_and_fails_at_its_new_severity(tmp_path: Path) -> None:
    """The same keys, the camelCase rule raised to error by a convention file: one finding worsened to error."""
    old = keys_report(tmp_path, "old.json", OLD_KEYS)
    (tmp_path / "strict.toml").write_text('[rules.camel-case]\nseverity = "error"\n')
    new = keys_report(tmp_path, "new.json", OLD_KEYS, "--config", "strict.toml")
    result = diff_files(str(old), str(new))
    assert result.report is not None
    assert _rows(result.report) == [
        ("worsened", "KEY007", "camel-case", b"UserName:*", (WARNING, 2, 1), (ERROR, 2, 1)),
    ]
    assert result.regressions(ERROR) == 1


def _digest_key(seed: int, length: int) -> str:
    """`doc:hash:` and `length` hex digits: the digits are one variable segment, `doc:hash:*`."""
    return "doc:hash:" + (hashlib.sha256(str(seed).encode()).hexdigest() * 4)[:length]


def test_a_worse_worst_value_is_worse(tmp_path: Path) -> None:
    """Three keys above 128 bytes, then one of them longer still: the same KEY005 finding, a higher `worst`."""
    old = keys_report(tmp_path, "old.json", [_digest_key(i, 130) for i in range(3)])
    new = keys_report(tmp_path, "new.json", [_digest_key(0, 130), _digest_key(1, 130), _digest_key(2, 170)])
    diff = diff_files(str(old), str(new)).report
    assert diff is not None
    assert _rows(diff) == [("worsened", "KEY005", "longer-than-128", b"doc:hash:*", (ERROR, 3, 139), (ERROR, 3, 179))]


def test_names_that_are_not_utf8_or_were_cut_keep_their_identity(tmp_path: Path) -> None:
    """A pattern written with `pattern_b64` is matched by its bytes; a cut one by its display text and length."""
    binary = [b"bin:\xff\xfe:" + str(i).encode() for i in range(3)]
    cut = ["report:" + "y" * 300 + f":{i}" for i in range(2)]
    old = keys_report(tmp_path, "old.json", binary[:1] + cut)
    new = keys_report(tmp_path, "new.json", binary + cut)
    assert any("pattern_b64" in f for f in read(new)["findings"])
    assert any("pattern_length" in f for f in read(new)["findings"])
    diff = diff_files(str(old), str(new)).report
    assert diff is not None
    worse = diff.of("worsened")
    assert [(c.rule_id, c.pattern.data if c.pattern else None) for c in worse] == [("KEY002", b"bin:\xff\xfe:*")]
    assert diff.of("new") == () and diff.of("fixed") == ()
    cut_rows = [c for c in read(new)["findings"] if "pattern_length" in c]
    assert diff.unchanged == len(cut_rows)  # the cut pattern's findings matched across the two reports


def test_pattern_growth_is_bounded_by_top(lists: tuple[Path, Path]) -> None:
    old, new = lists
    diff = diff_files(str(old), str(new), top=1).report
    assert diff is not None and diff.patterns is not None
    assert [g.pattern.data for g in diff.patterns.keys_grew] == [b"user:profile:*"]


def test_cluster_reports_are_compared_per_shard(lists: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = (read(path) for path in lists)
    shard = {"address": "10.0.0.1:7000", "status": "complete"}
    old_doc = with_shards(
        old,
        [
            {**shard, "shard_id": "a", "keys": 10, "memory": 1000},
            {**shard, "shard_id": "b", "address": "10.0.0.2:7000", "keys": 19, "memory": 900},
        ],
    )
    new_doc = with_shards(
        new,
        [
            {**shard, "shard_id": "a", "keys": 40, "memory": 5000, "status": "partial"},
            {**shard, "shard_id": "c", "address": "10.0.0.3:7000", "keys": 24, "memory": None},
        ],
    )
    diff = diff_files(str(write(tmp_path / "o.json", old_doc)), str(write(tmp_path / "n.json", new_doc))).report
    assert diff is not None and diff.shards is not None
    assert [(s.shard_id, s.address, s.keys, s.memory, s.old_status, s.new_status) for s in diff.shards] == [
        ("a", "10.0.0.1:7000", Delta(10, 40), Delta(1000, 5000), "complete", "partial"),
        ("c", "10.0.0.3:7000", Delta(None, 24), Delta(None, None), None, "complete"),
        ("b", "10.0.0.2:7000", Delta(19, None), Delta(900, None), "complete", None),
    ]
    assert len(diff.changes) == 3  # the findings are compared as for single reports
    # a cluster report against a single one: the shards are simply absent from the diff
    single = diff_files(str(lists[0]), str(tmp_path / "n.json")).report
    assert single is not None and single.shards is None and len(single.changes) == 3


def test_fleets_pair_targets_by_name(lists: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = (read(path) for path in lists)
    old_fleet = fleet(
        target("cache-a", old, team="shop", env="prod"),
        target("cache-b", old),
        target("cache-c", None, "connection refused"),
        target("cache-d", old),
        target("cache-e", new),
        target("cache-g", None, "timeout"),
    )
    new_fleet = fleet(
        target("cache-a", new, team="shop", env="prod"),
        target("cache-b", old),
        target("cache-c", new),
        target("cache-e", None, "NOAUTH Authentication required."),
        target("cache-f", new),
        target("cache-g", None, "timeout again"),
    )
    result = diff_files(str(write(tmp_path / "o.json", old_fleet)), str(write(tmp_path / "n.json", new_fleet)))
    assert result.report is None and result.fleet is not None
    fleet_diff = result.fleet
    assert (fleet_diff.old_targets, fleet_diff.new_targets) == (6, 6)
    assert [(t.name, t.status) for t in fleet_diff.targets] == [
        ("cache-e", TARGET_NEWLY_FAILING),
        ("cache-a", TARGET_COMPARED),
        ("cache-b", TARGET_COMPARED),
        ("cache-f", TARGET_ADDED),
        ("cache-c", TARGET_RECOVERED),
        ("cache-d", TARGET_REMOVED),
        ("cache-g", TARGET_STILL_FAILING),
    ]
    by_name = {t.name: t for t in fleet_diff.targets}
    single = diff_files(str(lists[0]), str(lists[1])).report
    assert by_name["cache-a"].diff == single
    assert by_name["cache-a"].tags == (("team", "shop"), ("env", "prod"))
    assert by_name["cache-b"].diff is not None and by_name["cache-b"].diff.changes == ()
    assert by_name["cache-e"].new_error == "NOAUTH Authentication required."
    assert by_name["cache-g"].old_error == "timeout" and by_name["cache-g"].new_error == "timeout again"
    side = by_name["cache-f"].side
    assert side is not None and (side.score, side.keys, side.findings, side.max_severity) == (86, 64, 4, ERROR)
    assert result.regressions(WARNING) == 2  # cache-a's; an added or recovered target has no baseline


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([1, 2], "{old} is not a rediscipline report: it holds a list, not an object"),
        ({"schema": "sarif"}, "{old} is not a rediscipline report: its schema is 'sarif'"),
        ({"schema": "rediscipline.report"}, "{old} is not a rediscipline report: it has no integer `schema_version`"),
        (
            {"schema": "rediscipline.report", "schema_version": 1, "findings": []},
            "{old} is not a rediscipline report: `summary` is missing (it must be an object)",
        ),
    ],
)
def test_documents_that_are_not_reports(tmp_path: Path, document: Any, message: str, lists: tuple[Path, Path]) -> None:
    old = write(tmp_path / "old.json", document)
    with pytest.raises(ReportFileError) as caught:
        diff_files(str(old), str(lists[1]))
    assert str(caught.value) == message.format(old=old)


def test_a_field_of_the_wrong_type_is_named(tmp_path: Path, lists: tuple[Path, Path]) -> None:
    document = read(lists[1])
    document["findings"][1]["count"] = "5"
    bad = write(tmp_path / "bad.json", document)
    with pytest.raises(ReportFileError) as caught:
        diff_files(str(lists[0]), str(bad))
    assert str(caught.value) == f"{bad} is not a rediscipline report: `findings[1].count` is a string, not an integer"


def test_a_fleet_target_with_a_broken_report_is_named(tmp_path: Path, lists: tuple[Path, Path]) -> None:
    broken = read(lists[1])
    broken["findings"][0]["pattern_b64"] = "not base64!"
    old = write(tmp_path / "o.json", fleet(target("a", read(lists[0]))))
    new = write(tmp_path / "n.json", fleet(target("a", broken)))
    with pytest.raises(ReportFileError) as caught:
        diff_files(str(old), str(new))
    assert str(caught.value) == (
        f"{new} is not a rediscipline fleet report: `targets[0].report.findings[0].pattern_b64` is not base64"
    )


def test_a_fleet_with_two_targets_of_one_name_is_refused(tmp_path: Path, lists: tuple[Path, Path]) -> None:
    report = read(lists[0])
    old = write(tmp_path / "o.json", fleet(target("a", report), target("a", report)))
    with pytest.raises(ReportFileError) as caught:
        diff_files(str(old), str(old))
    assert str(caught.value) == f"{old} is not a rediscipline fleet report: `targets[1].name` repeats the name 'a'"


def test_pattern_b64_round_trips(lists: tuple[Path, Path], tmp_path: Path) -> None:
    """A report edited to carry a pattern as base64 (as for bytes that are not UTF-8) is read by its bytes."""
    document = read(lists[1])
    finding = next(f for f in document["findings"] if f["rule"] == "KEY006")
    finding["pattern_b64"] = base64.b64encode(b"AID:*:player").decode()
    diff = diff_files(str(lists[0]), str(write(tmp_path / "n.json", document))).report
    assert diff is not None
    assert [c.pattern.data for c in diff.of("new") if c.pattern] == [b"AID:*:player"]


SAMPLE_PROJECT = Path(__file__).resolve().parents[2] / "examples" / "sample-project"


def test_code_findings_are_compared_by_place(tmp_path: Path) -> None:
    """`check` on the sample project, then on a copy where KEYS became SCAN and a function writing
    `OrderTotal:{id}` without a TTL was added: one fixed call, two new findings at the new place."""
    project = tmp_path / "project"
    shutil.copytree(SAMPLE_PROJECT, project)
    assert (
        rediscipline(
            "check", "shop", "--isolated", "--format", "json", "--output", "../old.json", cwd=project
        ).returncode
        == 1
    )
    cache = project / "shop" / "cache.py"
    source = cache.read_text()
    assert 'for key in r.keys("product:*"):' in source
    source = source.replace('for key in r.keys("product:*"):', 'for key in r.scan_iter(match="product:*", count=500):')
    cache.write_text(
        source + '\n\ndef save_order(order_id: int, total: int) -> None:\n    r.set(f"OrderTotal:{order_id}", total)\n'
    )
    line = len(cache.read_text().splitlines())
    assert (
        rediscipline(
            "check", "shop", "--isolated", "--format", "json", "--output", "../new.json", cwd=project
        ).returncode
        == 1
    )
    diff = diff_files(str(tmp_path / "old.json"), str(tmp_path / "new.json")).report
    assert diff is not None
    assert [(c.change, c.rule_id, c.subject, c.pattern and c.pattern.data, c.place) for c in diff.changes] == [
        ("new", "KEY007", None, b"OrderTotal:*", Place("shop/cache.py", line)),
        ("new", "TTL006", "set", b"OrderTotal:*", Place("shop/cache.py", line)),
        ("fixed", "CMD001", "keys", None, Place("shop/cache.py", 25)),
    ]
    assert diff.unchanged == 3  # the cart's findings: the KEY006, TTL006 and CMD005 above the edits
    assert diff.score == Delta(None, None)  # code has no score


def test_notes_say_what_the_comparison_cannot_see(lists: tuple[Path, Path], tmp_path: Path) -> None:
    """Reports of different commands, a partial report, a capped one: each is a note of the diff."""
    new = read(lists[1])
    new["run"]["command"] = "scan"
    new["server"] = {"partial": ["connection-lost", "unreadable-keys"]}
    new["patterns"]["capped"] = True
    diff = diff_files(str(lists[0]), str(write(tmp_path / "n.json", new))).report
    assert diff is not None
    assert [(n.code, dict(n.params)) for n in diff.notes] == [
        ("commands", {"old": "keys", "new": "scan"}),
        ("partial", {"side": "new", "reasons": ("connection-lost", "unreadable-keys")}),
        ("capped", {"side": "new"}),
    ]
    text = rediscipline("diff", str(lists[0]), "n.json", "--lang", "zh", cwd=tmp_path).stdout.decode()
    assert "说明\n" in text
    assert "  新报告不完整（connection-lost, unreadable-keys）：其中缺少的问题可能在未读取的 Key 中\n" in text
