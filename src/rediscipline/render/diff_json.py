"""JSON output of `rediscipline diff`, schema `rediscipline.diff` version 1 (documented in docs/json-report.md).

Names are written as the report writes them (`render.names`): exact text, or display text with
`pattern_b64` (not UTF-8) or `pattern_length` (a name the report had cut). Other strings from the report
files are bounded by `cut_text`, and the document passes `json_safe`, so no control or bidi character is
written raw.
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from rediscipline import __version__
from rediscipline.model.display import MESSAGE_LIMIT, NAME_LIMIT, PATH_LIMIT, TEXT_LIMIT, cut_text, inert, json_safe
from rediscipline.model.report_diff import (
    CHANGES,
    TARGET_STATUSES,
    Delta,
    DiffResult,
    FindingChange,
    FindingState,
    FleetDiff,
    PatternGrowth,
    ReportDiff,
    ShownName,
    TargetDiff,
)
from rediscipline.model.severity import Severity
from rediscipline.render.diff_labels import note_line
from rediscipline.render.names import name_fields

SCHEMA = "rediscipline.diff"
SCHEMA_VERSION = 1


def _name(prefix: str, name: ShownName) -> dict[str, Any]:
    if name.cut_length is None:
        return name_fields(prefix, name.data)
    return {
        prefix: cut_text(name.data.decode("utf-8", "replace"), NAME_LIMIT + 40),
        f"{prefix}_length": name.cut_length,
    }


def _delta(delta: Delta) -> dict[str, Any]:
    return {"old": delta.old, "new": delta.new, "change": delta.change}


def _state(state: FindingState | None) -> dict[str, Any] | None:
    if state is None:
        return None
    return {"severity": state.severity.label, "count": state.count, "worst": state.worst}


def _change(change: FindingChange, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {"change": change.change, "rule": change.rule_id, "code": change.code}
    if change.pattern is not None:
        out.update(_name("pattern", change.pattern))
    if change.subject is not None:
        out["subject"] = cut_text(change.subject, NAME_LIMIT)
    if change.place is not None:
        out["place"] = {"path": cut_text(change.place.path, PATH_LIMIT), "line": change.place.line}
    out.update(
        {
            "severity": change.severity.label,
            "old": _state(change.old),
            "new": _state(change.new),
            "message": inert(change.message.in_(lang), MESSAGE_LIMIT),
            "messages": {"en": inert(change.message.en, MESSAGE_LIMIT), "zh": inert(change.message.zh, MESSAGE_LIMIT)},
            "fingerprint": change.fingerprint,
        }
    )
    return out


def _growth(row: PatternGrowth) -> dict[str, Any]:
    return {**_name("pattern", row.pattern), "keys": _delta(row.keys), "memory": _delta(row.memory)}


def report_diff_dict(diff: ReportDiff, fail_on: Severity, lang: str) -> dict[str, Any]:
    by_rule: dict[str, dict[str, int]] = {}
    for change in diff.changes:
        counts = by_rule.setdefault(change.rule_id, dict.fromkeys(CHANGES, 0))
        counts[change.change] += 1
    out: dict[str, Any] = {
        "commands": {"old": diff.old_command, "new": diff.new_command},
        "summary": {
            "score": _delta(diff.score),
            "keys": _delta(diff.keys),
            "patterns": _delta(diff.pattern_count),
            "by_severity": {severity.label: _delta(delta) for severity, delta in diff.by_severity},
        },
        "findings": {**{kind: len(diff.of(kind)) for kind in CHANGES}, "unchanged": diff.unchanged},
        "regressions": len(diff.regressions(fail_on)),
        "by_rule": {
            rule_id: {**counts, "slug": meta.slug if meta else None, "title": meta.title.in_(lang) if meta else None}
            for rule_id, counts in sorted(by_rule.items())
            for meta in (diff.rules.get(rule_id),)
        },
        "changes": [_change(change, lang) for change in diff.changes],
    }
    if diff.memory is not None:
        out["summary"]["memory"] = _delta(diff.memory)
    if diff.patterns is not None:
        out["patterns"] = {
            "added": diff.patterns.added,
            "removed": diff.patterns.removed,
            "keys_grew": [_growth(row) for row in diff.patterns.keys_grew],
        }
        if diff.patterns.memory_grew is not None:
            out["patterns"]["memory_grew"] = [_growth(row) for row in diff.patterns.memory_grew]
    if diff.shards is not None:
        out["shards"] = [
            {
                "shard_id": cut_text(shard.shard_id, NAME_LIMIT),
                "address": None if shard.address is None else cut_text(shard.address, NAME_LIMIT),
                "keys": _delta(shard.keys),
                "memory": _delta(shard.memory),
                "status": {
                    "old": None if shard.old_status is None else cut_text(shard.old_status, NAME_LIMIT),
                    "new": None if shard.new_status is None else cut_text(shard.new_status, NAME_LIMIT),
                },
            }
            for shard in diff.shards
        ]
    out["notes"] = [note_line(item, lang) for item in diff.notes]
    return out


def _target(target: TargetDiff, fail_on: Severity, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": cut_text(target.name, NAME_LIMIT),
        "tags": {cut_text(key, NAME_LIMIT): cut_text(value, TEXT_LIMIT) for key, value in target.tags},
        "status": target.status,
        "old_error": None if target.old_error is None else cut_text(target.old_error),
        "new_error": None if target.new_error is None else cut_text(target.new_error),
    }
    if target.side is not None:
        side = target.side
        out["report"] = {
            "score": side.score,
            "keys": side.keys,
            "findings": side.findings,
            "max_severity": None if side.max_severity is None else side.max_severity.label,
        }
    if target.diff is not None:
        out["diff"] = report_diff_dict(target.diff, fail_on, lang)
    return out


def _fleet(fleet: FleetDiff, fail_on: Severity, lang: str) -> dict[str, Any]:
    return {
        "targets": {"old": fleet.old_targets, "new": fleet.new_targets},
        "statuses": {status: len(fleet.with_status(status)) for status in TARGET_STATUSES},
        "items": [_target(target, fail_on, lang) for target in fleet.targets],
    }


def diff_to_dict(result: DiffResult, fail_on: Severity, lang: str = "en") -> dict[str, Any]:
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "tool": {"name": "rediscipline", "version": __version__},
        "old": cut_text(result.old_path, PATH_LIMIT),
        "new": cut_text(result.new_path, PATH_LIMIT),
        "compared": {"schema": result.schema, "schema_version": result.schema_version},
        "lang": lang,
        "fail_on": fail_on.label,
        "top": result.top,
        "regressions": result.regressions(fail_on),
    }
    if result.report is not None:
        out["report"] = report_diff_dict(result.report, fail_on, lang)
    if result.fleet is not None:
        out["fleet"] = _fleet(result.fleet, fail_on, lang)
    return out


def render_diff_json(result: DiffResult, stream: TextIO, lang: str, color: bool, fail_on: Severity) -> None:
    stream.write(json_safe(json.dumps(diff_to_dict(result, fail_on, lang), ensure_ascii=False, indent=2)))
    stream.write("\n")


__all__ = ["SCHEMA", "SCHEMA_VERSION", "diff_to_dict", "render_diff_json"]
