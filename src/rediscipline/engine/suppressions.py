"""SUP001 and its kind: findings on the suppression comments that suppressed nothing.

The suppression step (`rediscipline.suppress`) runs on finished findings and hands back what each directive
left unused; the suppression rules judge that like facts, and the findings are built here like every other:
each sits on its comment, with a fingerprint from the file and the directive's normalised text (numbered in
file order when the same directive repeats), so baselines survive line moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, cast

from rediscipline.engine.groups import Groups, resolve
from rediscipline.engine.scopes import Scopes
from rediscipline.model.code import Directive, UnusedSuppression
from rediscipline.model.finding import Finding
from rediscipline.model.location import SOURCE_CODE, Location
from rediscipline.rules.base import ConfiguredRule, SuppressionRule


def suppression_findings(
    rules: Sequence[ConfiguredRule], scopes: Scopes, unused: Iterable[UnusedSuppression], examples: int
) -> tuple[Finding, ...]:
    """The findings of the suppression `rules` on `unused`, in file order; none without such a rule."""
    if not rules:
        return ()
    by_directive: dict[tuple[str, Directive], list[UnusedSuppression]] = {}
    for item in unused:
        by_directive.setdefault((item.path, item.directive), []).append(item)
    groups = Groups(examples)
    for configured in rules:
        ctx = scopes.context(configured, None)
        rule = cast(SuppressionRule[Any], configured.rule)
        for (path, directive), items in by_directive.items():
            location = Location(
                SOURCE_CODE,
                path,
                line=directive.line,
                column=directive.column,
                end_line=directive.line,
                context=directive.text(),
            )
            for violation in rule.check(items, ctx):
                groups.add_site(resolve(configured, ctx, violation), location, None, None, rank=0)
    return tuple(groups.findings(SOURCE_CODE))
