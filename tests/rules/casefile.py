"""Load per-rule case files (`tests/rules/cases/KEY005.toml`) and run one case through the real engine.

A case lists keys (UTF-8 `keys`, or `keys-escaped` with Python `\\xNN` escapes for arbitrary bytes),
optional `options` for the rule, `namespaces`, a `key-type`, and the expected findings of that rule:
`{code, pattern, count?, severity?}`. `expect = []` is a passing case.
"""

from __future__ import annotations

import codecs
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from rediscipline.engine.runner import Engine
from rediscipline.model.finding import Finding
from rediscipline.model.location import Location
from rediscipline.rules import default_registry
from rediscipline.rules.base import ConfiguredRule
from rediscipline.rules.options import build
from rediscipline.settings.namespaces import parse_namespace

CASES_DIR = Path(__file__).parent / "cases"


@dataclass
class Case:
    rule_id: str
    name: str
    keys: list[bytes]
    expect: list[dict[str, Any]]
    options: dict[str, Any] = field(default_factory=dict)
    namespaces: dict[str, dict[str, Any]] = field(default_factory=dict)
    key_type: str | None = None

    @property
    def passing(self) -> bool:
        return not self.expect


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(CASES_DIR.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        rule_id = data["rule"]
        assert path.stem == rule_id, f"{path.name} must be named after its rule"
        for index, raw in enumerate(data.get("case", [])):
            keys = [k.encode("utf-8") for k in raw.get("keys", [])]
            keys += [codecs.escape_decode(k.encode("utf-8"))[0] for k in raw.get("keys-escaped", [])]
            cases.append(
                Case(
                    rule_id=rule_id,
                    name=raw.get("name", f"case {index}"),
                    keys=keys,
                    expect=list(raw["expect"]),
                    options=dict(raw.get("options", {})),
                    namespaces=dict(raw.get("namespaces", {})),
                    key_type=raw.get("key-type"),
                )
            )
    return cases


def run_case(case: Case) -> list[Finding]:
    cls = default_registry().get(case.rule_id)
    configured = ConfiguredRule(cls(), build(cls.Options, case.options), cls.meta.severity)
    namespaces = [parse_namespace(p, t, f"case {case.name}") for p, t in case.namespaces.items()]
    engine = Engine([configured], namespaces)
    engine.begin_input(Location("keys", "case"))
    for line, key in enumerate(case.keys, 1):
        engine.feed_name(key, line, case.key_type)
    return [f for f in engine.finish("keys").findings if f.rule_id == case.rule_id]


def matches(finding: Finding, expected: dict[str, Any]) -> bool:
    if finding.code != expected["code"]:
        return False
    if "pattern" in expected and finding.pattern != expected["pattern"].encode("utf-8"):
        return False
    if "count" in expected and finding.count != expected["count"]:
        return False
    return "severity" not in expected or finding.severity.label == expected["severity"]
