"""The ProbePlan: which facts and which KeyFact fields the enabled rules need.

A live scan sends `MEMORY USAGE` only if an enabled rule needs memory; a key list needs nothing but names.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rediscipline.model.facts import KEY_FIELDS
from rediscipline.rules.base import CommandRule, Rule


@dataclass(frozen=True, slots=True)
class ProbePlan:
    """`server`: some rule reads the ServerFact; `commands`: some rule judges CommandFacts (commandstats, slow log)."""

    key_fields: frozenset[str]
    rule_ids: frozenset[str]
    server: bool = False
    commands: bool = False

    def needs(self, field: str) -> bool:
        return field in self.key_fields


def plan_for(rules: Iterable[Rule[Any]]) -> ProbePlan:
    fields: set[str] = set()
    ids: set[str] = set()
    server = commands = False
    for rule in rules:
        server = server or rule.uses_server
        commands = commands or isinstance(rule, CommandRule)
        unknown = set(rule.needs) - set(KEY_FIELDS)
        if unknown:
            raise ValueError(f"{rule.meta.id} needs unknown fields {sorted(unknown)}")
        fields |= rule.needs
        ids.add(rule.meta.id)
    return ProbePlan(frozenset(fields), frozenset(ids), server, commands)
