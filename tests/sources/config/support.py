"""Run the config rules (those checked on `config`) on a ServerFact read from files, as `check` will."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

from rediscipline.engine.runner import Engine
from rediscipline.model.server import ServerFact
from rediscipline.rules import default_registry
from rediscipline.rules.base import ConfiguredRule, InstanceRule, RuleContext
from rediscipline.rules.options import build

CASES = Path(__file__).parent / "cases"


def config_rules() -> list[ConfiguredRule]:
    """Every rule that can be checked on a configuration file, with its default options and severity."""
    return [
        ConfiguredRule(cls(), build(cls.Options, {}), cls.meta.severity)
        for cls in default_registry()
        if "config" in cls.meta.where
    ]


def findings(server: ServerFact) -> list[tuple[str, str, str]]:
    """(rule, code, severity) of every finding the engine makes, sorted."""
    engine = Engine(config_rules())
    engine.set_server(server)
    return sorted((f.rule_id, f.code, f.severity.label) for f in engine.finish("config").findings)


def settings(server: ServerFact) -> list[tuple[str, str, str | None, str | None, int | None]]:
    """(rule, code, setting, path, line) of every violation: where `check` will place each finding."""
    found = []
    for configured in config_rules():
        rule = cast(InstanceRule[Any], configured.rule)
        ctx = RuleContext(configured.options, configured.severity, server=server)
        for violation in rule.check(server, None, ctx):
            where = server.settings_origin.get(violation.setting) if violation.setting else None
            path = where.path if where else None
            found.append((configured.id, violation.code, violation.setting, path, where.line if where else None))
    return sorted(found, key=lambda row: (row[0], row[1]))
