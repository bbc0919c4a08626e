"""The ProbePlan: which facts and which KeyFact fields the enabled rules need.

A live scan sends `MEMORY USAGE` only if an enabled rule needs memory; a key list needs nothing but names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rediscipline.model.facts import KEY_FIELDS
from rediscipline.rules.base import Rule


@dataclass(frozen=True, slots=True)
class ProbePlan:
    key_fields: frozenset[str]
    rule_ids: frozenset[str]

    def needs(self, field: str) -> bool:
        return field in self.key_fields


def plan_for(rules: Iterable[Rule[Any]]) -> ProbePlan:
    fields: set[str] = set()
    ids: set[str] = set()
    for rule in rules:
        unknown = set(rule.needs) - set(KEY_FIELDS)
        if unknown:
            raise ValueError(f"{rule.meta.id} needs unknown fields {sorted(unknown)}")
        fields |= rule.needs
        ids.add(rule.meta.id)
    return ProbePlan(frozenset(fields), frozenset(ids))
