"""A source made of facts given in memory, for tests that build a report from synthetic facts."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from rediscipline.model.plan import ProbePlan
from rediscipline.model.source import Fact, SourceOutcome


@dataclass
class FactSource:
    """Yields `facts` whatever the plan (recorded in `plans`), then reports `result` as its outcome."""

    place: str
    facts_given: Sequence[Fact]
    result: SourceOutcome = field(default_factory=SourceOutcome)
    inputs: tuple[str, ...] = ("<facts>",)
    counts_keys: bool = True
    plans: list[ProbePlan] = field(default_factory=list)

    def facts(self, plan: ProbePlan) -> Iterator[Fact]:
        self.plans.append(plan)
        yield from self.facts_given

    def outcome(self) -> SourceOutcome:
        return self.result
