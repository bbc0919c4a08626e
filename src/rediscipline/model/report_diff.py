"""What changed between two reports (`rediscipline diff OLD.json NEW.json`): findings, patterns, shards, targets.

Findings are matched by fingerprint, the identity a finding keeps across runs (rule, sub-code, kind of
source, key pattern or place; see `engine.fingerprint`). A fingerprint only in the new report is `new`, only
in the old one `fixed`; in both, it is `worsened` when its severity, count or worst value went up (any of
them), `improved` when one went down and none up, and otherwise unchanged (counted, not listed).

A regression is a new finding, or a worsened one, whose severity (in the new report) is at or above the
`--fail-on` severity: the exit code of a nightly job that fails on regressions only.

Names and texts here are as the reports wrote them (display text, bounded); renderers escape them again.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rediscipline.model.fleet import FLEET_SCHEMA
from rediscipline.model.report import REPORT_SCHEMA
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text

SCHEMA_REPORT = REPORT_SCHEMA
SCHEMA_FLEET = FLEET_SCHEMA

CHANGE_NEW = "new"
CHANGE_WORSENED = "worsened"
CHANGE_FIXED = "fixed"
CHANGE_IMPROVED = "improved"
#: The kinds of change, in the order reports list them.
CHANGES = (CHANGE_NEW, CHANGE_WORSENED, CHANGE_FIXED, CHANGE_IMPROVED)

#: How a fleet target fared between the two reports.
TARGET_COMPARED = "compared"  # scanned both times: its reports are diffed
TARGET_ADDED = "added"  # only in the new fleet
TARGET_REMOVED = "removed"  # only in the old fleet
TARGET_NEWLY_FAILING = "newly-failing"  # scanned before, an error now
TARGET_RECOVERED = "recovered"  # an error before, scanned now
TARGET_STILL_FAILING = "still-failing"  # an error both times
#: The order fleet diffs list targets in: what needs attention first.
TARGET_STATUSES = (
    TARGET_NEWLY_FAILING,
    TARGET_COMPARED,
    TARGET_ADDED,
    TARGET_RECOVERED,
    TARGET_REMOVED,
    TARGET_STILL_FAILING,
)


@dataclass(frozen=True, slots=True)
class ShownName:
    """A key pattern as a report wrote it: its exact bytes, or, when the report cut it (`pattern_length`),
    the UTF-8 of the display text the report kept (escapes included) and the name's full length in bytes."""

    data: bytes
    cut_length: int | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """Where a finding in a file (code, config) is: its path as the report wrote it, and its line."""

    path: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class FindingState:
    """A finding's measures in one report."""

    severity: Severity
    count: int
    worst: float | None = None


@dataclass(frozen=True, slots=True)
class FindingChange:
    """One finding that is new, fixed, worse or better. `old` is None for a new finding, `new` for a fixed one.

    `message` is the newest report's message for it; `pattern`, `subject` and `place` say what it is about.
    """

    change: str
    fingerprint: str
    rule_id: str
    code: str
    message: Text
    old: FindingState | None
    new: FindingState | None
    pattern: ShownName | None = None
    subject: str | None = None
    place: Place | None = None

    @property
    def severity(self) -> Severity:
        """The severity it has now (the old one for a fixed finding)."""
        state = self.new or self.old
        assert state is not None
        return state.severity


@dataclass(frozen=True, slots=True)
class Delta:
    """A number before and after; None where a report did not have it."""

    old: float | None
    new: float | None

    @property
    def change(self) -> float | None:
        return None if self.old is None or self.new is None else self.new - self.old


@dataclass(frozen=True, slots=True)
class PatternGrowth:
    """A key pattern's keys and memory in both reports (0 in a report that did not have the pattern)."""

    pattern: ShownName
    keys: Delta
    memory: Delta


@dataclass(frozen=True, slots=True)
class PatternsDiff:
    """The key patterns of two reports: how many appeared and vanished, and the `top` that grew most in keys
    and in memory (most growth first; `memory_grew` is None when a report did not measure memory)."""

    added: int
    removed: int
    keys_grew: tuple[PatternGrowth, ...]
    memory_grew: tuple[PatternGrowth, ...] | None


@dataclass(frozen=True, slots=True)
class ShardChange:
    """One shard of a cluster report in both reports (by `shard_id`); a side is None when it lacks the shard."""

    shard_id: str
    address: str | None
    keys: Delta
    memory: Delta
    old_status: str | None
    new_status: str | None


@dataclass(frozen=True, slots=True)
class RuleTitle:
    """What a report says of a rule that fired: its slug and title."""

    slug: str
    title: Text


#: The remarks a comparison makes, for the renderers to word (`render.diff_labels.NOTES`).
NOTE_COMMANDS = "commands"  # the reports come from different commands: {old, new}
NOTE_PARTIAL = "partial"  # a report covers less than its source held: {side, reasons}
NOTE_CAPPED = "capped"  # a report reached its pattern cap: {side}
DIFF_NOTES = (NOTE_COMMANDS, NOTE_PARTIAL, NOTE_CAPPED)


@dataclass(frozen=True, slots=True)
class DiffNote:
    """A remark about a comparison, as a code (`DIFF_NOTES`) and its parameters, never as finished prose.
    `side` is `old` or `new`; `reasons` the report's `server.partial` codes."""

    code: str
    params: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReportDiff:
    """Two single (or cluster) reports compared.

    `memory` is None when neither report measured memory, `patterns` when one of them has no `patterns`
    section, `shards` when one of them has no `shards` section (a report that is not a cluster's). `rules`
    has the slug and title of every rule of `changes`; `notes` are codes for the renderers (`commands`,
    `partial`, `capped`).
    """

    old_command: str | None
    new_command: str | None
    score: Delta
    keys: Delta
    memory: Delta | None
    pattern_count: Delta
    by_severity: tuple[tuple[Severity, Delta], ...]
    changes: tuple[FindingChange, ...]
    unchanged: int
    patterns: PatternsDiff | None
    shards: tuple[ShardChange, ...] | None
    rules: Mapping[str, RuleTitle] = field(default_factory=dict)
    notes: tuple[DiffNote, ...] = ()

    def of(self, change: str) -> tuple[FindingChange, ...]:
        return tuple(item for item in self.changes if item.change == change)

    def regressions(self, fail_on: Severity) -> tuple[FindingChange, ...]:
        """New and worsened findings whose severity now is at or above `fail_on`."""
        return tuple(
            item for item in self.changes if item.change in (CHANGE_NEW, CHANGE_WORSENED) and item.severity >= fail_on
        )


@dataclass(frozen=True, slots=True)
class TargetSide:
    """One fleet target's report in brief, for a target that is in one report only (or scanned in one only)."""

    score: int | None
    keys: int | None
    findings: int
    max_severity: Severity | None


@dataclass(frozen=True, slots=True)
class TargetDiff:
    """One fleet target, paired by name. `diff` is set for a target compared; `side` summarises the one report
    of an added, removed, newly failing or recovered target; the errors are the targets' own."""

    name: str
    tags: tuple[tuple[str, str], ...]
    status: str
    diff: ReportDiff | None = None
    side: TargetSide | None = None
    old_error: str | None = None
    new_error: str | None = None


@dataclass(frozen=True, slots=True)
class FleetDiff:
    """Two fleet reports compared, target by target (in `TARGET_STATUSES` order, then by name)."""

    old_targets: int
    new_targets: int
    targets: tuple[TargetDiff, ...]

    def with_status(self, status: str) -> tuple[TargetDiff, ...]:
        return tuple(target for target in self.targets if target.status == status)


@dataclass(frozen=True, slots=True)
class DiffResult:
    """The comparison of two report files: of two reports (`report`) or of two fleets (`fleet`)."""

    old_path: str
    new_path: str
    schema: str
    schema_version: int
    top: int
    report: ReportDiff | None = None
    fleet: FleetDiff | None = None

    def report_diffs(self) -> tuple[ReportDiff, ...]:
        """Every pair of reports compared: the one, or one per fleet target scanned both times."""
        if self.report is not None:
            return (self.report,)
        if self.fleet is None:
            return ()
        return tuple(target.diff for target in self.fleet.targets if target.diff is not None)

    def regressions(self, fail_on: Severity) -> int:
        return sum(len(diff.regressions(fail_on)) for diff in self.report_diffs())


__all__ = [
    "CHANGES",
    "CHANGE_FIXED",
    "CHANGE_IMPROVED",
    "CHANGE_NEW",
    "CHANGE_WORSENED",
    "DIFF_NOTES",
    "NOTE_CAPPED",
    "NOTE_COMMANDS",
    "NOTE_PARTIAL",
    "SCHEMA_FLEET",
    "SCHEMA_REPORT",
    "TARGET_ADDED",
    "TARGET_COMPARED",
    "TARGET_NEWLY_FAILING",
    "TARGET_RECOVERED",
    "TARGET_REMOVED",
    "TARGET_STATUSES",
    "TARGET_STILL_FAILING",
    "Delta",
    "DiffNote",
    "DiffResult",
    "FindingChange",
    "FindingState",
    "FleetDiff",
    "PatternGrowth",
    "PatternsDiff",
    "Place",
    "ReportDiff",
    "RuleTitle",
    "ShardChange",
    "ShownName",
    "TargetDiff",
    "TargetSide",
]
