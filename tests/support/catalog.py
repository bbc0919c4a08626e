"""The rules the output snapshots were recorded with, so that adding a rule changes no snapshot.

A snapshot pins everything a report says (the header's rule count, the notes listing the rules that could not
run, the findings); a new rule would change all of it without any rule's behaviour changing. Snapshot tests
therefore run with the rules below and ignore any rule registered after them: what one of these rules reports
is still pinned byte for byte, and adding a rule touches no snapshot.
"""

from __future__ import annotations

from rediscipline.rules.registry import Registry

#: Rules per family when the snapshots were recorded: ids 001 to the count.
RECORDED = {"KEY": 18, "VAL": 8, "TTL": 8, "CMD": 10, "BAT": 3, "PUB": 2, "CFG": 7, "SEC": 2, "SUP": 1}
SNAPSHOT_RULES = frozenset(
    f"{family}{number:03d}" for family, count in RECORDED.items() for number in range(1, count + 1)
)


def later_rules(registry: Registry) -> tuple[str, ...]:
    """The ids of the registered rules the snapshots were not recorded with (to pass as `ignore`)."""
    return tuple(rule_id for rule_id in registry.ids() if rule_id not in SNAPSHOT_RULES)
