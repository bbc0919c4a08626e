"""Settle what overlapping name rules say about one template: the more specific rule reports shared bytes.

A name rule that defers to others (`NameRule.defers_to`, from its overlap rows) keeps silent about the bytes
they report: its violations whose spans those rules cover are dropped, and one with some spans covered is
narrowed by the rule itself (`NameRule.narrow`). Only the rules enabled in the scope count, so with the
winner disabled the loser reports everything it sees. The engine settles once per template, on a memo miss.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.rules.base import ConfiguredRule, NameRule, RuleContext, covered_by, merge_spans

#: What each name rule of a scope said about one template: the rule, its context, its violations.
Checked = tuple[ConfiguredRule, RuleContext[Any], list[Violation]]


def settle(checked: Sequence[Checked], key: KeyTemplate, key_type: str | None) -> Sequence[Checked]:
    """`checked` with the violations about bytes a winning rule reports dropped or narrowed (same order)."""
    fired = {configured.id: violations for configured, _ctx, violations in checked if violations}
    if not any(_rule(configured).defers_to & fired.keys() for configured, _ctx, violations in checked if violations):
        return checked
    settled: list[Checked] = []
    for configured, ctx, violations in checked:
        rule = _rule(configured)
        winners = rule.defers_to & fired.keys()
        kept = violations
        if violations and winners:
            covered = merge_spans(span for winner in sorted(winners) for v in fired[winner] for span in v.spans)
            kept = []
            for violation in violations:
                if any(covered_by(span, covered) for span in violation.spans):
                    narrowed = rule.narrow(violation, covered, key, key_type, ctx)
                    if narrowed is not None:
                        kept.append(narrowed)
                else:
                    kept.append(violation)
        settled.append((configured, ctx, kept))
    return settled


def _rule(configured: ConfiguredRule) -> NameRule[Any]:
    return cast(NameRule[Any], configured.rule)
