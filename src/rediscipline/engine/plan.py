"""The ProbePlan of a run: which facts, KeyFact fields and server parts the enabled rules need.

A live scan sends `MEMORY USAGE` only if an enabled rule needs memory, or the full keyspace summary was asked
for; a key list needs nothing but names. The keyspace summary declares its needs (`SUMMARY_FIELDS`) like a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rediscipline.model.plan import KEY_FIELDS, SERVER_PARTS, SUMMARY_FIELDS, ProbePlan
from rediscipline.rules.base import CommandRule, Rule


def plan_for(rules: Iterable[Rule[Any]], *, summary: bool = False) -> ProbePlan:
    """The plan of `rules`; `summary` adds the fields of the full keyspace summary."""
    fields: set[str] = set(SUMMARY_FIELDS) if summary else set()
    server: set[str] = set()
    commands = False
    for rule in rules:
        commands = commands or isinstance(rule, CommandRule)
        unknown = set(rule.needs) - set(KEY_FIELDS)
        if unknown:
            raise ValueError(f"{rule.meta.id} needs unknown fields {sorted(unknown)}")
        parts = set(rule.reads_server) - set(SERVER_PARTS)
        if parts:
            raise ValueError(f"{rule.meta.id} reads unknown server parts {sorted(parts)}")
        fields |= rule.needs
        server |= rule.reads_server
    return ProbePlan(frozenset(fields), frozenset(server), commands, summary)
