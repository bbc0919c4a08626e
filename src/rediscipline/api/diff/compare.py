"""Comparing two reports read by `load`: findings by fingerprint, patterns by name, shards by id, fleet
targets by name (the rules of the comparison are in `model.report_diff`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from rediscipline.api.diff.load import FindingRow, PatternRow, ReportSnapshot, ShardRow, TargetRow
from rediscipline.model.report_diff import (
    CHANGE_FIXED,
    CHANGE_IMPROVED,
    CHANGE_NEW,
    CHANGE_WORSENED,
    CHANGES,
    NOTE_CAPPED,
    NOTE_COMMANDS,
    NOTE_PARTIAL,
    TARGET_ADDED,
    TARGET_COMPARED,
    TARGET_NEWLY_FAILING,
    TARGET_RECOVERED,
    TARGET_REMOVED,
    TARGET_STATUSES,
    TARGET_STILL_FAILING,
    Delta,
    DiffNote,
    FindingChange,
    FindingState,
    FleetDiff,
    PatternGrowth,
    PatternsDiff,
    ReportDiff,
    RuleTitle,
    ShardChange,
    ShownName,
    TargetDiff,
    TargetSide,
)
from rediscipline.model.severity import Severity

#: How many patterns each growth list keeps unless told (`--top`).
TOP_PATTERNS = 10


def _by_fingerprint(rows: Iterable[FindingRow]) -> dict[str, FindingRow]:
    """Findings by fingerprint. Engines write each fingerprint once; a document that repeats one is read as one
    finding with the counts added and the highest severity and worst value."""
    found: dict[str, FindingRow] = {}
    for row in rows:
        seen = found.get(row.fingerprint)
        if seen is None:
            found[row.fingerprint] = row
            continue
        a, b = seen.state, row.state
        worsts = [w for w in (a.worst, b.worst) if w is not None]
        state = FindingState(max(a.severity, b.severity), a.count + b.count, max(worsts) if worsts else None)
        found[row.fingerprint] = replace(seen, state=state)
    return found


def _higher(new: float | None, old: float | None) -> bool:
    return new is not None and old is not None and new > old


def _kind(old: FindingState, new: FindingState) -> str | None:
    """worsened, improved, or None (unchanged): a finding worse in any measure is worsened."""
    if new.severity > old.severity or new.count > old.count or _higher(new.worst, old.worst):
        return CHANGE_WORSENED
    if new.severity < old.severity or new.count < old.count or _higher(old.worst, new.worst):
        return CHANGE_IMPROVED
    return None


def _change(kind: str, old: FindingRow | None, new: FindingRow | None) -> FindingChange:
    shown = new or old
    assert shown is not None
    return FindingChange(
        change=kind,
        fingerprint=shown.fingerprint,
        rule_id=shown.rule_id,
        code=shown.code,
        message=shown.message,
        old=None if old is None else old.state,
        new=None if new is None else new.state,
        pattern=shown.pattern,
        subject=shown.subject,
        place=shown.place,
    )


def _order(change: FindingChange) -> tuple[object, ...]:
    """Kind of change, most severe, rule, most keys or places, then what it is about."""
    state = change.new or change.old
    assert state is not None
    place = change.place
    return (
        CHANGES.index(change.change),
        -change.severity,
        change.rule_id,
        -state.count,
        b"" if change.pattern is None else change.pattern.data,
        change.subject or "",
        "" if place is None else place.path,
        0 if place is None or place.line is None else place.line,
        change.fingerprint,
    )


def finding_changes(old: Iterable[FindingRow], new: Iterable[FindingRow]) -> tuple[tuple[FindingChange, ...], int]:
    """(the findings new, worsened, fixed or improved, in report order; how many are unchanged)."""
    before, after = _by_fingerprint(old), _by_fingerprint(new)
    changes: list[FindingChange] = []
    unchanged = 0
    for fingerprint, row in after.items():
        previous = before.get(fingerprint)
        if previous is None:
            changes.append(_change(CHANGE_NEW, None, row))
            continue
        kind = _kind(previous.state, row.state)
        if kind is None:
            unchanged += 1
        else:
            changes.append(_change(kind, previous, row))
    changes.extend(_change(CHANGE_FIXED, row, None) for fingerprint, row in before.items() if fingerprint not in after)
    return tuple(sorted(changes, key=_order)), unchanged


def _grew(
    old: Mapping[ShownName, PatternRow], new: Mapping[ShownName, PatternRow], top: int, memory: bool
) -> tuple[PatternGrowth, ...]:
    """The `top` patterns whose keys (memory) grew most; a pattern missing from a report has 0 there."""
    rows = []
    for name, row in new.items():
        previous = old.get(name)
        keys = Delta(0 if previous is None else previous.keys, row.keys)
        size = Delta(previous.memory if previous is not None else 0 if row.memory is not None else None, row.memory)
        growth = (size if memory else keys).change
        if growth is not None and growth > 0:
            rows.append((-growth, name.data, PatternGrowth(name, keys, size)))
    rows.sort(key=lambda item: item[:2])
    return tuple(item[2] for item in rows[:top])


def _measures_memory(rows: Iterable[PatternRow]) -> bool:
    return any(row.memory is not None for row in rows)


def patterns_diff(
    old: tuple[PatternRow, ...] | None, new: tuple[PatternRow, ...] | None, top: int
) -> PatternsDiff | None:
    if old is None or new is None:
        return None
    before = {row.name: row for row in old}
    after = {row.name: row for row in new}
    memory = _measures_memory(old) and _measures_memory(new)
    return PatternsDiff(
        added=sum(1 for name in after if name not in before),
        removed=sum(1 for name in before if name not in after),
        keys_grew=_grew(before, after, top, memory=False),
        memory_grew=_grew(before, after, top, memory=True) if memory else None,
    )


def shard_changes(old: tuple[ShardRow, ...] | None, new: tuple[ShardRow, ...] | None) -> tuple[ShardChange, ...] | None:
    """Every shard of either report by `shard_id`, in the new report's order, then the shards gone."""
    if old is None or new is None:
        return None
    before = {row.shard_id: row for row in old}
    after = {row.shard_id: row for row in new}
    order = [*after, *(shard for shard in before if shard not in after)]
    changes = []
    for shard in order:
        a, b = before.get(shard), after.get(shard)
        changes.append(
            ShardChange(
                shard_id=shard,
                address=(b.address if b is not None else None) or (a.address if a is not None else None),
                keys=Delta(None if a is None else a.keys, None if b is None else b.keys),
                memory=Delta(None if a is None else a.memory, None if b is None else b.memory),
                old_status=None if a is None else a.status,
                new_status=None if b is None else b.status,
            )
        )
    return tuple(changes)


def _severities(rows: Iterable[FindingRow]) -> dict[Severity, int]:
    counts = dict.fromkeys(Severity, 0)
    for row in rows:
        counts[row.state.severity] += 1
    return counts


def _notes(old: ReportSnapshot, new: ReportSnapshot) -> tuple[DiffNote, ...]:
    notes = []
    if old.command and new.command and old.command != new.command:
        notes.append(DiffNote(NOTE_COMMANDS, {"old": old.command, "new": new.command}))
    for side, report in (("old", old), ("new", new)):
        if report.partial:
            notes.append(DiffNote(NOTE_PARTIAL, {"side": side, "reasons": report.partial}))
    for side, report in (("old", old), ("new", new)):
        if report.capped:
            notes.append(DiffNote(NOTE_CAPPED, {"side": side}))
    return tuple(notes)


def _delta(old: int | None, new: int | None) -> Delta:
    return Delta(old, new)


def compare_reports(old: ReportSnapshot, new: ReportSnapshot, top: int = TOP_PATTERNS) -> ReportDiff:
    """Two `rediscipline.report` documents (single or cluster) compared."""
    changes, unchanged = finding_changes(old.findings, new.findings)
    before, after = _severities(old.findings), _severities(new.findings)
    rules: dict[str, RuleTitle] = {**old.rules, **new.rules}
    return ReportDiff(
        old_command=old.command,
        new_command=new.command,
        score=_delta(old.score, new.score),
        keys=_delta(old.keys, new.keys),
        memory=None if old.memory is None and new.memory is None else _delta(old.memory, new.memory),
        pattern_count=_delta(old.pattern_count, new.pattern_count),
        by_severity=tuple((s, Delta(before[s], after[s])) for s in sorted(Severity, reverse=True)),
        changes=changes,
        unchanged=unchanged,
        patterns=patterns_diff(old.patterns, new.patterns, top),
        shards=shard_changes(old.shards, new.shards),
        rules={rule_id: rules[rule_id] for rule_id in sorted({c.rule_id for c in changes} & rules.keys())},
        notes=_notes(old, new),
    )


def _side(report: ReportSnapshot | None) -> TargetSide | None:
    if report is None:
        return None
    severities = [row.state.severity for row in report.findings]
    return TargetSide(report.score, report.keys, len(severities), max(severities) if severities else None)


def _target(old: TargetRow | None, new: TargetRow | None, top: int) -> TargetDiff:
    shown = new or old
    assert shown is not None

    def made(status: str, **fields: Any) -> TargetDiff:
        return TargetDiff(shown.name, shown.tags, status, **fields)

    old_error = None if old is None or old.report is not None else old.error or ""
    new_error = None if new is None or new.report is not None else new.error or ""
    if old is None:
        return made(TARGET_ADDED, side=_side(shown.report), new_error=new_error)
    if new is None:
        return made(TARGET_REMOVED, side=_side(old.report), old_error=old_error)
    if old.report is not None and new.report is not None:
        return made(TARGET_COMPARED, diff=compare_reports(old.report, new.report, top))
    if old.report is not None:
        return made(TARGET_NEWLY_FAILING, side=_side(old.report), new_error=new_error)
    if new.report is not None:
        return made(TARGET_RECOVERED, side=_side(new.report), old_error=old_error)
    return made(TARGET_STILL_FAILING, old_error=old_error, new_error=new_error)


def _target_order(target: TargetDiff) -> tuple[object, ...]:
    """By status (`TARGET_STATUSES`), compared targets with the most new and worsened findings first, by name."""
    worse = 0
    if target.diff is not None:
        worse = len(target.diff.of(CHANGE_NEW)) + len(target.diff.of(CHANGE_WORSENED))
    return (TARGET_STATUSES.index(target.status), -worse, target.name)


def compare_fleets(old: tuple[TargetRow, ...], new: tuple[TargetRow, ...], top: int = TOP_PATTERNS) -> FleetDiff:
    """Two fleet reports compared, their targets paired by name."""
    before = {row.name: row for row in old}
    after = {row.name: row for row in new}
    names = [*after, *(name for name in before if name not in after)]
    targets = sorted((_target(before.get(name), after.get(name), top) for name in names), key=_target_order)
    return FleetDiff(old_targets=len(old), new_targets=len(new), targets=tuple(targets))


__all__ = ["TOP_PATTERNS", "compare_fleets", "compare_reports", "finding_changes"]
