"""A fleet: many targets (servers, clusters, dumps) audited in one run, each with its own report.

The fleet report ranks its targets worst first: a target that could not be read (its error is its row), then
by the most severe finding, the lowest score and the most findings.
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.report import Report
from rediscipline.model.severity import Severity

#: The fleet document's schema name and version (`render.fleet` writes it, `diff` reads it).
FLEET_SCHEMA = "rediscipline.fleet"
FLEET_SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class TargetResult:
    """One target of a fleet: its name and tags as the inventory gives them, what it read (addresses without
    credentials, dump paths), and its report, or the one line that stopped it from being read."""

    name: str
    tags: tuple[tuple[str, str], ...]
    inputs: tuple[str, ...]
    report: Report | None = None
    error: str | None = None

    @property
    def failed(self) -> bool:
        return self.report is None

    def count_by_severity(self) -> dict[Severity, int]:
        """Its report's findings by severity (empty when it could not be read)."""
        return self.report.count_by_severity() if self.report is not None else {}

    @property
    def memory(self) -> int | None:
        """The memory its keys hold, when the run measured it."""
        keyspace = self.report.stats.keyspace if self.report is not None else None
        return keyspace.memory if keyspace is not None and "memory" in keyspace.measured else None


def worst_first(targets: list[TargetResult]) -> tuple[TargetResult, ...]:
    """Targets that could not be read first, then by most severe finding, lowest score, most findings, name."""
    return tuple(sorted(targets, key=_rank))


def _rank(target: TargetResult) -> tuple[bool, int, int, int, str]:
    report = target.report
    if report is None:
        return (False, 0, 0, 0, target.name)
    worst = report.max_severity()
    score = report.stats.score if report.stats.score is not None else 100
    return (True, -(worst or 0), score, -len(report.findings), target.name)


@dataclass(frozen=True, slots=True)
class FleetReport:
    """Every target's result, worst first; `elapsed_seconds` the wall time of the whole run."""

    targets: tuple[TargetResult, ...]
    tool_version: str
    command: str
    preset: str
    elapsed_seconds: float = 0.0
    schema_version: int = FLEET_SCHEMA_VERSION

    def count_by_severity(self) -> dict[Severity, int]:
        """Every target's findings by severity, summed (empty when no target could be read)."""
        totals: dict[Severity, int] = {}
        for target in self.targets:
            for severity, count in target.count_by_severity().items():
                totals[severity] = totals.get(severity, 0) + count
        return totals

    def max_severity(self) -> Severity | None:
        """The most severe finding of any target."""
        worst = [t.report.max_severity() for t in self.targets if t.report is not None]
        return max((severity for severity in worst if severity is not None), default=None)

    @property
    def failed(self) -> tuple[TargetResult, ...]:
        return tuple(target for target in self.targets if target.failed)


__all__ = ["FLEET_SCHEMA", "FLEET_SCHEMA_VERSION", "FleetReport", "TargetResult", "worst_first"]
