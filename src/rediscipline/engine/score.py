"""The report's 0–100 score: how much of the keyspace, and of the server itself, follows the conventions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from rediscipline.model.finding import Finding
from rediscipline.model.severity import Severity


@dataclass(frozen=True, slots=True)
class ScorePolicy:
    """How the score weighs keys against the server, and what a rule firing on the server costs.

    * `key_weight` and `server_weight`: the shares of the key part and the server part when a run has both;
    * `instance_penalty`: points the server part loses per rule that fired on the server or its commands,
      by that rule's worst severity.
    """

    key_weight: float = 0.7
    server_weight: float = 0.3
    instance_penalty: Mapping[Severity, int] = field(
        default_factory=lambda: MappingProxyType({Severity.ERROR: 25, Severity.WARNING: 10, Severity.NOTE: 3})
    )


#: The policy every report is scored with.
SCORE_POLICY = ScorePolicy()


def score(
    keys: int, flagged: int, findings: Sequence[Finding], *, has_server: bool, policy: ScorePolicy = SCORE_POLICY
) -> int:
    """0–100: `policy.key_weight` from the share of keys without a warning or error, `server_weight` from the server.

    Key findings weigh by how many keys they cover, so one bad pattern among millions of clean keys barely
    moves the score. The server part loses a fixed amount per rule that fired on the server or its commands
    (`policy.instance_penalty` by the rule's worst severity), whatever the keyspace size. Without keys, the
    score is the server part alone; without a server (a key list, code), the key part alone.
    """
    key_part = 100.0 * (1 - flagged / keys) if keys else 100.0
    if not has_server:
        return max(0, min(100, round(key_part)))
    worst: dict[str, Severity] = {}
    for finding in findings:
        if finding.pattern is None:
            worst[finding.rule_id] = max(worst.get(finding.rule_id, finding.severity), finding.severity)
    server = max(0.0, 100.0 - sum(policy.instance_penalty[severity] for severity in worst.values()))
    if not keys:
        return round(server)
    return max(0, min(100, round(policy.key_weight * key_part + policy.server_weight * server)))
