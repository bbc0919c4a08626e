"""Findings and settings built by hand for the suppression tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rediscipline.engine.runner import Engine
from rediscipline.model.code import UnusedSuppression
from rediscipline.model.finding import Finding
from rediscipline.model.location import SOURCE_CODE, Location
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules import default_registry
from rediscipline.rules.base import ConfiguredRule
from rediscipline.rules.options import build
from rediscipline.rules.registry import Registry

REGISTRY = default_registry()


def finding(
    rule_id: str,
    path: str | None = "app.py",
    line: int | None = 1,
    end_line: int | None = None,
    *,
    source: str = SOURCE_CODE,
    fingerprint: str | None = None,
    message: str = "message",
) -> Finding:
    return Finding(
        rule_id=rule_id,
        code="code",
        severity=Severity.WARNING,
        message=Text(message, message),
        location=Location(source, path, line=line, column=1, end_line=end_line),
        fingerprint=fingerprint or f"{rule_id}@{path}:{line}",
    )


def configured(*selectors: str, severity: Severity | None = None) -> list[ConfiguredRule]:
    """The rules `selectors` enable (ids, slugs or `ALL`), as Settings.rules would hold them."""
    ids = set(REGISTRY.ids()) if "ALL" in selectors else {REGISTRY.get(s).meta.id for s in selectors}
    return [
        ConfiguredRule(
            cls(), build(cls.Options, {}), severity if severity and cls.meta.id == "SUP001" else cls.meta.severity
        )
        for cls in REGISTRY
        if cls.meta.id in ids
    ]


def unused_findings(
    unused: Iterable[UnusedSuppression], rules: Sequence[ConfiguredRule], registry: Registry
) -> list[Finding]:
    """SUP001's findings on what the suppression step left unused, judged by the engine as a run would:
    `rules` are the rules enabled in the run (SUP001 among them, or nothing is reported)."""
    catalog = {cls.meta.id: cls.meta for cls in registry}
    engine = Engine(rules, catalog=catalog, enabled=frozenset(r.id for r in rules))
    return list(engine.judge_suppressions(unused))
