"""`fold_key_sites`: the places of one key-name fact of a file become one finding; nothing else is touched."""

from __future__ import annotations

from rediscipline.engine.fingerprint import file_pattern_fingerprint
from rediscipline.engine.folding import RELATED_LIMIT, fold_key_sites
from rediscipline.model.finding import Finding
from rediscipline.model.location import SOURCE_CODE, SOURCE_KEYS, Location
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text

MESSAGE = Text("m", "m")


def _key(rule: str, path: str, line: int, pattern: bytes = b"User:*", column: int = 5) -> Finding:
    return Finding(
        rule, "c", Severity.WARNING, MESSAGE, Location(SOURCE_CODE, path, line, column), f"fp{line}", pattern=pattern
    )


def test_places_of_one_fact_fold_at_the_first_place_in_file_order() -> None:
    findings = [_key("KEY006", "a.py", 30), _key("KEY006", "a.py", 10), _key("KEY006", "a.py", 20, column=9)]
    [folded] = fold_key_sites(findings)
    assert (folded.location.line, folded.count) == (10, 3)
    assert [(r.line, r.column) for r in folded.related] == [(20, 9), (30, 5)]
    assert folded.fingerprint == file_pattern_fingerprint("KEY006", "c", SOURCE_CODE, "a.py", b"User:*")


def test_files_patterns_rules_and_codes_are_separate_facts() -> None:
    findings = [
        _key("KEY006", "a.py", 1),
        _key("KEY006", "b.py", 1),
        _key("KEY006", "a.py", 2, pattern=b"Order:*"),
        _key("KEY008", "a.py", 3),
    ]
    assert [(f.rule_id, f.location.path, f.count) for f in fold_key_sites(findings)] == [
        ("KEY006", "a.py", 1),
        ("KEY006", "b.py", 1),
        ("KEY006", "a.py", 1),
        ("KEY008", "a.py", 1),
    ]


def test_call_findings_and_key_patterns_of_data_are_left_alone() -> None:
    call = Finding(
        "TTL006", "set", Severity.WARNING, MESSAGE, Location(SOURCE_CODE, "a.py", 4), "t", b"User:*", subject="set"
    )
    listed = Finding("KEY006", "c", Severity.WARNING, MESSAGE, Location(SOURCE_KEYS, "keys.txt", 4), "k", b"User:*", 9)
    findings = [call, call, listed, _key("KEY006", "a.py", 9)]
    assert fold_key_sites(findings)[:3] == [call, call, listed]


def test_related_places_are_bounded_and_counted() -> None:
    findings = [_key("KEY006", "a.py", line) for line in range(1, RELATED_LIMIT + 12)]
    [folded] = fold_key_sites(findings)
    assert folded.count == RELATED_LIMIT + 11
    assert [r.line for r in folded.related] == list(range(2, RELATED_LIMIT + 2))
