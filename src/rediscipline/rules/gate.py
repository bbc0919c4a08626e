"""Gates: what a fact rule declares about the keys it can find something in, for the compiled core to test.

A fact rule's `check` runs in Python. Most keys break no fact rule, and most fact rules can say in advance,
as a comparison of one field against a number, which keys they could possibly report: a string above the
smallest size limit, a key whose TTL is -1, a collection whose encoding is the non-compact one. A rule states
that necessary condition as a `Gate` (`FactRule.gate`); the compiled core tests it on every key, at C speed,
and calls `check` only for the keys that pass. The gate never decides a finding: `check` still does, so a gate
that lets too much through costs time, never a wrong report. A gate that stopped a key `check` would report
is a defect, which the tests catch: the pure-Python core calls every check and must give the same report.

A gate is a disjunction of clauses, each a conjunction of conditions `(field, op, operand)` on a `KeyFact`
field. A condition on a field the key does not carry (None) fails: every fact rule returns None for a key
missing the field it judges.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any

from rediscipline.model.facts import KeyFact

#: Comparisons a condition can make, by the code the compiled core dispatches on.
OPS = {">": 0, ">=": 1, "==": 2, "in": 3, "prefix": 4, "<=": 5}
#: The fields a condition can read, by the index the compiled core reads them at.
FACT_FIELDS = tuple(field.name for field in fields(KeyFact))

Condition = tuple[str, str, object]
#: A gate as the compiled core reads it: clauses of (index in FACT_FIELDS, op code, operand).
CompiledGate = tuple[tuple[tuple[int, int, object], ...], ...]


@dataclass(frozen=True, slots=True)
class Gate:
    """Keys a fact rule can report: those for which some clause has all its conditions true."""

    clauses: tuple[tuple[Condition, ...], ...]

    def compiled(self) -> CompiledGate:
        """The clauses with each op as its code (`OPS`), as the compiled core reads them."""
        index = FACT_FIELDS.index
        return tuple(tuple((index(name), OPS[op], operand) for name, op, operand in c) for c in self.clauses)

    def passes(self, fact: object) -> bool:
        """Whether a key passes, in Python (the tests' reference for what the compiled core tests)."""
        return any(all(_holds(getattr(fact, field), op, operand) for field, op, operand in c) for c in self.clauses)

    def __or__(self, other: Gate) -> Gate:
        return Gate(self.clauses + other.clauses)


#: A rule that can find nothing with its options (every limit off): no key is checked.
NEVER = Gate(())


def when(field: str, op: str, operand: object, *more: Condition) -> Gate:
    """A gate of one clause: `field op operand`, and every condition of `more`."""
    if op not in OPS or any(extra[1] not in OPS for extra in more):
        raise ValueError(f"unknown gate operator in {(field, op, *more)}")
    if field not in FACT_FIELDS or any(extra[0] not in FACT_FIELDS for extra in more):
        raise ValueError(f"unknown key field in {(field, op, *more)}")
    return Gate((((field, op, operand), *more),))


def above(field: str, limits: Iterable[int | None], *more: Condition) -> Gate:
    """Keys whose `field` exceeds the smallest of the limits that are on (a limit of 0 or None is off);
    NEVER when every limit is off."""
    on = [limit for limit in limits if limit]
    return when(field, ">", min(on), *more) if on else NEVER


def _holds(value: Any, op: str, operand: Any) -> bool:
    if value is None:
        return False
    if op == ">":
        return bool(value > operand)
    if op == ">=":
        return bool(value >= operand)
    if op == "==":
        return bool(value == operand)
    if op == "in":
        return value in operand
    if op == "<=":
        return bool(value <= operand)
    return isinstance(value, bytes) and value.startswith(operand)
