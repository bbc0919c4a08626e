"""`rediscipline diff`: the text and JSON output of two real reports, exit codes, and bad input (one line, exit 2)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli.conftest import Run
from tests.support.diff_reports import NEW_KEYS, OLD_KEYS, fleet, keys_report, read, target, write
from tests.test_readme import matches

SEEDED_TEXT = """\
rediscipline diff · old.json → new.json
score 86 → 86 · keys 29 → 64 (+35) · patterns 5 → 5
error 2 → 1 · warning 1 → 2 · note 1 → 1
Findings: 1 new · 1 worsened · 1 fixed · 0 improved · 2 unchanged

New findings (1)
  KEY006 uppercase  Upper-case letters in a key name
    ▲ AID:*:player  3 keys  upper-case letters in the key name: `AID` (→ `aid`); use lower case

Worsened findings (1)
  KEY007 camel-case  camelCase word in a key name
    ▲ UserName:*  2 → 5 keys  camelCase in the key name: `UserName` (→ `user_name`); use lower case with `_` \
between words and `:` between levels

Fixed findings (1)
  KEY001 forbidden-character  Whitespace, control, quote or escape character in a key name
    ✔ foo bar:*  1 key  was error  whitespace in the key name: space at offset 3; remove it or use `_`

Key patterns that grew most in keys (top 10)
pattern         before  after  change
user:profile:*      20     50     +30
AID:*:player         0      3      +3
UserName:*           2      5      +3
key patterns: 1 new, 1 gone

2 new or worsened findings at or above warning
"""


@pytest.fixture
def seeded(tmp_path: Path) -> tuple[Path, Path]:
    return keys_report(tmp_path, "old.json", OLD_KEYS), keys_report(tmp_path, "new.json", NEW_KEYS)


def _one_error_line(stderr: bytes) -> str:
    text = stderr.decode()
    assert "Traceback" not in text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got: {text!r}"
    return lines[0]


def test_text_output_of_the_seeded_changes(run: Run, seeded: tuple[Path, Path]) -> None:
    done = run("diff", "old.json", "new.json")
    assert (done.returncode, done.stderr.decode()) == (1, "")
    assert done.stdout.decode() == SEEDED_TEXT


def test_the_readme_shows_this_output() -> None:
    """README.md's sample of `diff` is this output, with `...` for the lines it leaves out."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    start = readme.index("```text\nrediscipline diff · old.json → new.json\n") + len("```text\n")
    shown = tuple(readme[start : readme.index("```", start)].rstrip("\n").splitlines())
    assert matches(shown, SEEDED_TEXT.splitlines())


def test_text_output_in_chinese(run: Run, seeded: tuple[Path, Path]) -> None:
    out = run("diff", "old.json", "new.json", "--lang", "zh").stdout.decode()
    assert "问题：1 新增 · 1 恶化 · 1 已修复 · 0 好转 · 2 未变" in out
    assert "新增问题（1 个）\n  KEY006 uppercase  键名包含大写字母\n    ▲ AID:*:player  3 个 Key" in out
    assert "    ✔ foo bar:*  1 个 Key  原为错误  " in out
    assert out.endswith("2 个新增或恶化的问题达到或超过警告级别\n")


def test_exit_code_follows_fail_on(run: Run, seeded: tuple[Path, Path]) -> None:
    assert run("diff", "old.json", "new.json", "--fail-on", "warning").returncode == 1
    quiet = run("diff", "old.json", "new.json", "--fail-on", "error")  # the new and worsened findings are warnings
    assert quiet.returncode == 0
    assert quiet.stdout.decode().endswith("No new or worsened finding at or above error.\n")
    assert run("diff", "old.json", "new.json", "--exit-zero").returncode == 0
    # only fixed findings (and a new note-level one below fail-on): no regression
    assert run("diff", "new.json", "old.json", "--fail-on", "error").returncode == 1  # KEY001 is new, an error
    assert run("diff", "old.json", "old.json").returncode == 0


def test_fail_on_comes_from_the_convention_file(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    (tmp_path / "rediscipline.toml").write_text('fail-on = "error"\nlang = "zh"\n')
    done = run("diff", "old.json", "new.json")
    assert done.returncode == 0
    assert "没有达到或超过错误级别的新增或恶化问题。" in done.stdout.decode()
    assert run("diff", "old.json", "new.json", "--isolated").returncode == 1


def test_json_output(run: Run, seeded: tuple[Path, Path]) -> None:
    done = run("diff", "old.json", "new.json", "--format", "json", "--top", "2")
    assert done.returncode == 1
    document = json.loads(done.stdout)
    assert {k: document[k] for k in ("schema", "schema_version", "old", "new", "fail_on", "top", "regressions")} == {
        "schema": "rediscipline.diff",
        "schema_version": 1,
        "old": "old.json",
        "new": "new.json",
        "fail_on": "warning",
        "top": 2,
        "regressions": 2,
    }
    assert document["compared"] == {"schema": "rediscipline.report", "schema_version": 1}
    report = document["report"]
    assert report["findings"] == {"new": 1, "worsened": 1, "fixed": 1, "improved": 0, "unchanged": 2}
    assert [(c["change"], c["rule"], c["pattern"], c["old"], c["new"]) for c in report["changes"]] == [
        ("new", "KEY006", "AID:*:player", None, {"severity": "warning", "count": 3, "worst": 1}),
        (
            "worsened",
            "KEY007",
            "UserName:*",
            {"severity": "warning", "count": 2, "worst": 1},
            {"severity": "warning", "count": 5, "worst": 1},
        ),
        ("fixed", "KEY001", "foo bar:*", {"severity": "error", "count": 1, "worst": 1}, None),
    ]
    fingerprints = {f["fingerprint"] for f in read(seeded[1])["findings"]}
    assert report["changes"][0]["fingerprint"] in fingerprints
    assert report["by_rule"]["KEY007"] == {
        "new": 0, "worsened": 1, "fixed": 0, "improved": 0,
        "slug": "camel-case", "title": "camelCase word in a key name",
    }  # fmt: skip
    assert report["summary"]["score"] == {"old": 86, "new": 86, "change": 0}
    assert report["summary"]["keys"] == {"old": 29, "new": 64, "change": 35}
    assert "memory" not in report["summary"]  # key lists measure none
    assert report["patterns"] == {
        "added": 1,
        "removed": 1,
        "keys_grew": [
            {
                "pattern": "user:profile:*",
                "keys": {"old": 20, "new": 50, "change": 30},
                "memory": {"old": None, "new": None, "change": None},
            },
            {
                "pattern": "AID:*:player",
                "keys": {"old": 0, "new": 3, "change": 3},
                "memory": {"old": None, "new": None, "change": None},
            },
        ],
    }
    assert "shards" not in report and report["notes"] == []


def test_standard_input_and_output_file(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    done = run("diff", "old.json", "-", "--output", "diff.txt", stdin=seeded[1].read_bytes())
    assert (done.returncode, done.stdout) == (1, b"")
    assert (tmp_path / "diff.txt").read_text(encoding="utf-8") == SEEDED_TEXT.replace(
        "old.json → new.json", "old.json → standard input"
    )


def test_keys_that_are_not_text_are_shown_escaped(run: Run, tmp_path: Path) -> None:
    keys_report(tmp_path, "old.json", [b"ok:1"])
    evil = [b"evil:\x1b[31mred:1", b"evil:\x1b[31mred:2", b"user:\xff:1", b"blob:" + b"\xe2\x80\xae" * 400 + b":1"]
    keys_report(tmp_path, "new.json", [b"ok:1", *evil])
    plain = run("diff", "old.json", "new.json", "--color", "never").stdout.decode()
    assert "\x1b" not in plain and "\u202e" not in plain
    out = run("diff", "old.json", "new.json", "--color", "always").stdout.decode()
    assert "\x1b[1;31m" in out  # rich's colours, and never the key's own `ESC [31m` (no style here is plain red)
    assert "\x1b[31m" not in out and "\u202e" not in out
    for shown in (plain, out):
        assert "evil:\\x1b\\\\[31mred:*" in shown and "user:\\xff:*" in shown
        assert "blob:\\u202e" in shown and "…(1,207 bytes)" in shown
    assert max(len(line) for line in out.splitlines()) < 700
    document = json.loads(run("diff", "old.json", "new.json", "--format", "json").stdout)
    grown = {row["pattern"]: row for row in document["report"]["patterns"]["keys_grew"]}
    assert grown["user:\\xff:*"]["pattern_b64"] == "dXNlcjr/Oio="
    cut = next(row for row in grown.values() if "pattern_length" in row)
    assert cut["pattern_length"] == 1207 and len(cut["pattern"]) <= 240


def test_fleet_text_output(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    old, new = (read(path) for path in seeded)
    write(
        tmp_path / "fleet-old.json",
        fleet(target("cache-a", old, team="shop"), target("cache-b", old), target("cache-c", old)),
    )
    write(
        tmp_path / "fleet-new.json",
        fleet(
            target("cache-a", new, team="shop"),
            target("cache-b", old),
            target("cache-c", None, "connection refused\x1b[2J"),
            target("cache-d", new),
        ),
    )
    done = run("diff", "fleet-old.json", "fleet-new.json")
    assert done.returncode == 1
    lines = done.stdout.decode().splitlines()
    assert lines[:5] == [
        "rediscipline diff · fleet · fleet-old.json → fleet-new.json",
        "targets 3 → 4 · added 1 · removed 0 · newly failing 1 · recovered 0",
        "  ✖ cache-c (newly failing): score 86 · 29 keys · 4 findings: connection refused\\x1b[2J",
        "  + cache-d (added): score 86 · 64 keys · 4 findings",
        "",
    ]
    assert lines[5] == "── cache-a  team=shop ──"
    assert lines[6:9] == [
        "  score 86 → 86 · keys 29 → 64 (+35) · patterns 5 → 5",
        "  error 2 → 1 · warning 1 → 2 · note 1 → 1",
        "  Findings: 1 new · 1 worsened · 1 fixed · 0 improved · 2 unchanged",
    ]
    assert lines[-3:] == ["1 target without changes: cache-b", "", "2 new or worsened findings at or above warning"]
    document = json.loads(run("diff", "fleet-old.json", "fleet-new.json", "--format", "json").stdout)
    assert document["compared"] == {"schema": "rediscipline.fleet", "schema_version": 1}
    assert document["fleet"]["statuses"] == {
        "newly-failing": 1, "compared": 2, "added": 1, "recovered": 0, "removed": 0, "still-failing": 0,
    }  # fmt: skip
    items = document["fleet"]["items"]
    assert [(t["name"], t["status"]) for t in items] == [
        ("cache-c", "newly-failing"),
        ("cache-a", "compared"),
        ("cache-b", "compared"),
        ("cache-d", "added"),
    ]
    assert items[0]["new_error"] == "connection refused\x1b[2J"  # exact in the value, escaped in the file
    assert "\x1b" not in run("diff", "fleet-old.json", "fleet-new.json", "--format", "json").stdout.decode()
    assert items[1]["diff"]["regressions"] == 2 and items[2]["diff"]["changes"] == []


# ---- bad input: one line, exit 2 ------------------------------------------------------------------------------


def _fails(run: Run, *args: str, stdin: bytes | None = None) -> str:
    done = run("diff", *args, stdin=stdin)
    assert done.returncode == 2, done.stdout.decode()
    assert done.stdout == b""
    return _one_error_line(done.stderr)


def test_a_file_that_does_not_exist(run: Run, seeded: tuple[Path, Path]) -> None:
    assert (
        _fails(run, "old.json", "nope.json") == "rediscipline: error: cannot read nope.json: No such file or directory"
    )


def test_a_folder(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    assert _fails(run, "folder", "new.json") == "rediscipline: error: cannot read folder: Is a directory"


def test_a_file_that_is_not_json(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    (tmp_path / "text.json").write_text("rediscipline 0.1.0 · scan\n")
    assert _fails(run, "text.json", "new.json") == (
        "rediscipline: error: text.json is not JSON: Expecting value at line 1, column 1"
    )
    (tmp_path / "latin1.json").write_bytes(b'{"schema": "\xe9"}')
    assert (
        _fails(run, "old.json", "latin1.json") == "rediscipline: error: latin1.json is not JSON: it is not UTF-8 text"
    )
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    assert _fails(run, "old.json", "deep.json") == (
        "rediscipline: error: deep.json is not JSON a report could be: it is nested too deeply"
    )


def test_json_that_is_not_a_report(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    write(tmp_path / "other.json", {"version": "2.1.0", "runs": []})
    assert _fails(run, "old.json", "other.json") == (
        "rediscipline: error: other.json is not a rediscipline report: it has no `schema`"
    )
    sarif = run("keys", "new.json.txt", "--isolated", "--format", "sarif", "--output", "new.sarif")
    assert sarif.returncode == 1
    assert _fails(run, "old.json", "new.sarif") == (
        "rediscipline: error: new.sarif is not a rediscipline report: it has no `schema`"
    )
    diff = run("diff", "old.json", "new.json", "--format", "json", "--output", "diff.json")
    assert diff.returncode == 1
    assert _fails(run, "diff.json", "diff.json") == (
        "rediscipline: error: diff.json is not a rediscipline report: its schema is 'rediscipline.diff'"
    )


def test_reports_of_different_schema_versions(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    document = read(seeded[1])
    document["schema_version"] = 2
    write(tmp_path / "v2.json", document)
    assert _fails(run, "old.json", "v2.json") == (
        "rediscipline: error: cannot compare rediscipline.report version 1 (old.json) with version 2 (v2.json): "
        "write both with the same rediscipline"
    )
    assert _fails(run, "v2.json", "v2.json") == (
        "rediscipline: error: v2.json: rediscipline.report version 2 is not one this rediscipline reads (1)"
    )


def test_a_single_report_against_a_fleet_report(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    write(tmp_path / "fleet.json", fleet(target("a", read(seeded[1]))))
    assert _fails(run, "old.json", "fleet.json") == (
        "rediscipline: error: cannot compare a rediscipline.report (old.json) with a rediscipline.fleet "
        "(fleet.json): give two reports of the same kind"
    )


def test_a_report_with_a_broken_field(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    document = read(seeded[1])
    document["findings"][0]["severity"] = "fatal\x1b[2J"
    write(tmp_path / "broken.json", document)
    assert _fails(run, "old.json", "broken.json") == (
        "rediscipline: error: broken.json is not a rediscipline report: `findings[0].severity` is "
        "'fatal\\\\x1b[2J', not note, warning or error"
    )
    del document["findings"][0]["fingerprint"]
    document["findings"][0]["severity"] = "error"
    write(tmp_path / "broken.json", document)
    assert _fails(run, "old.json", "broken.json") == (
        "rediscipline: error: broken.json is not a rediscipline report: `findings[0].fingerprint` is missing "
        "(it must be a string)"
    )


def test_usage_errors(run: Run, seeded: tuple[Path, Path]) -> None:
    assert _fails(run, "-", "-", stdin=b"{}") == (
        "rediscipline: error: only one of the two reports can be read from standard input"
    )
    assert _fails(run, "old.json") == "rediscipline: error: missing argument NEW.json"
    assert _fails(run, "old.json", "new.json", "--top", "-1").startswith("rediscipline: error: --top: ")


def test_every_field_written_is_documented(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    """Each key of a `rediscipline.diff` document (single, cluster and fleet) is named in docs/json-report.md."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "json-report.md").read_text(encoding="utf-8")
    documented = docs[docs.index("## Diff documents") :]
    old, new = (read(path) for path in seeded)
    shard = {"shard_id": "a", "address": "10.0.0.1:7000", "keys": 1, "memory": 2, "status": "complete"}
    for name, report in (("c-old.json", old), ("c-new.json", new)):  # as a scan: memory measured
        items = [{**item, "memory": 100 * item["keys"]} for item in report["patterns"]["items"]]
        patterns = {**report["patterns"], "items": items}
        memory = {"memory": sum(item["memory"] for item in items)}
        write(tmp_path / name, {**report, "shards": [shard], "patterns": patterns, "keyspace": memory})
    write(tmp_path / "f-old.json", fleet(target("a", old), target("b", old)))
    write(tmp_path / "f-new.json", fleet(target("a", new), target("c", new)))
    keys: set[str] = set()

    def collect(value: object, depth: int = 0) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if depth < 6 and key not in ("by_rule", "messages", "tags"):  # rule ids, languages, tag names
                    keys.add(key)
                    collect(inner, depth + 1)
        elif isinstance(value, list):
            for inner in value:
                collect(inner, depth)

    for pair in (("c-old.json", "c-new.json"), ("f-old.json", "f-new.json")):
        collect(json.loads(run("diff", *pair, "--format", "json").stdout))
    statuses = {"newly-failing", "compared", "added", "recovered", "removed", "still-failing"}
    words = set(re.findall(r"[a-z_]+", documented))
    missing = sorted(key for key in keys - statuses - {"error", "warning", "note"} if key not in words)
    assert not missing, f"fields written but not documented: {missing}"
    assert {"shard_id", "memory_grew", "keys_grew", "statuses", "old_error"} <= keys


def test_cluster_text_output(run: Run, seeded: tuple[Path, Path], tmp_path: Path) -> None:
    """Two cluster-shaped reports: the findings as for single reports, then a table of the shards."""
    old, new = (read(path) for path in seeded)
    a, b = {"shard_id": "3f2a9c", "address": "10.0.0.1:7000"}, {"shard_id": "b71e00", "address": "10.0.0.2:7000"}
    write(
        tmp_path / "c-old.json",
        {**old, "shards": [{**a, "keys": 10, "memory": 1_000, "status": "complete"}, {**b, "keys": 19, "memory": 900}]},
    )
    write(
        tmp_path / "c-new.json",
        {
            **new,
            "shards": [
                {**a, "keys": 40, "memory": 5_000, "status": "complete"},
                {**b, "keys": 24, "status": "partial"},
            ],
        },
    )
    done = run("diff", "c-old.json", "c-new.json")
    assert done.returncode == 1
    out = done.stdout.decode()
    assert "Findings: 1 new · 1 worsened · 1 fixed · 0 improved · 2 unchanged\n" in out
    table = out[out.index("Shards\n") :].splitlines()
    assert table == [
        "Shards",
        "shard         address     keys  change           memory   change       status",
        "3f2a9c  10.0.0.1:7000  10 → 40     +30  1000 B → 4.9 KB  +3.9 KB     complete",
        "b71e00  10.0.0.2:7000  19 → 24      +5        900 B → ?        ?  - → partial",
        "",
        "2 new or worsened findings at or above warning",
    ]
