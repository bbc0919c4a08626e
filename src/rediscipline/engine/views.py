"""Rules on a whole view of the run, judged once at the end: a cluster (`ClusterRule` on a `ClusterView`),
a server's traffic window (`TrafficRule` on a `TrafficView`) and a simulation (`SimulationRule` on an
`EvictionSimulation`, `ExpiryRule` on an `ExpirySimulation`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rediscipline.engine.groups import Groups, resolve
from rediscipline.model.location import Location
from rediscipline.rules.base import ConfiguredRule, RuleContext, SubjectViolation


def judge_view(
    view: object,
    origin: Location,
    rules: Sequence[tuple[ConfiguredRule, RuleContext[Any]]],
    groups: Groups,
    rank: int,
) -> None:
    """Run `rules` (cluster, traffic or simulation rules, whose `check` takes the view) on `view`: each violation is a
    finding about the view, one per (rule, code, subject), with the violation's subject as the finding's
    (`shard 10.0.0.5:7001`, `slot 866`, `client 10.0.0.7:51022`), at `origin` (the address observed)."""
    for configured, ctx in rules:
        found: SubjectViolation
        for found in configured.rule.check(view, ctx):  # type: ignore[attr-defined]
            resolved = resolve(configured, ctx, found.violation)
            groups.add_subject(resolved, (found.subject, ""), origin, found.example, 1, rank=rank)


__all__ = ["judge_view"]
