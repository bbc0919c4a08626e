"""The report's 0–100 score: how much of the keyspace, and of the server itself, follows the conventions."""

from __future__ import annotations

from collections.abc import Sequence

from rediscipline.model.finding import Finding
from rediscipline.model.severity import Severity

#: Share of the score that comes from the keys (the rest from the server) when a run has both.
KEY_WEIGHT = 0.7
SERVER_WEIGHT = 0.3
#: What a rule firing on the server or its commands costs the server part, by its worst severity.
INSTANCE_PENALTY = {Severity.ERROR: 25, Severity.WARNING: 10, Severity.NOTE: 3}


def score(keys: int, flagged: int, findings: Sequence[Finding], *, has_server: bool) -> int:
    """0–100: KEY_WEIGHT from the share of keys without a warning or error, SERVER_WEIGHT from the server.

    Key findings weigh by how many keys they cover, so one bad pattern among millions of clean keys barely
    moves the score. The server part loses a fixed amount per rule that fired on the server or its commands
    (INSTANCE_PENALTY by the rule's worst severity), whatever the keyspace size. Without keys, the score is
    the server part alone; without a server (a key list, code), the key part alone.
    """
    key_part = 100.0 * (1 - flagged / keys) if keys else 100.0
    if not has_server:
        return max(0, min(100, round(key_part)))
    worst: dict[str, Severity] = {}
    for finding in findings:
        if finding.pattern is None:
            worst[finding.rule_id] = max(worst.get(finding.rule_id, finding.severity), finding.severity)
    server = max(0.0, 100.0 - sum(INSTANCE_PENALTY[severity] for severity in worst.values()))
    if not keys:
        return round(server)
    return max(0, min(100, round(KEY_WEIGHT * key_part + SERVER_WEIGHT * server)))
