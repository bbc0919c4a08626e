"""The catalog contract: every rule is documented, its options are the documented ones, and it has cases.

Fails on a missing docstring section, an option the doc does not list (or lists but does not exist), a
missing source citation, a rule without at least one passing and one failing case, or a command rule that
does not declare which commands it judges (or names one Redis does not have).

Tool rules (SUP001 unused-suppression) judge no Redis fact: no engine kind runs them, so they have no case
files (their behaviour is tested with the step that reports them, tests/suppress) and cite no convention
document (their Source section says where the behaviour comes from instead).
"""

from __future__ import annotations

from typing import Any

import pytest

from rediscipline.redis_meta.commands import command_info
from rediscipline.rules import ALL_RULES, default_registry
from rediscipline.rules.base import (
    ANY_COMMAND,
    DOC_SECTIONS,
    OVERLAPS_SECTION,
    AggregateRule,
    CallRule,
    ClusterRule,
    CommandRule,
    ExpiryRule,
    FactRule,
    InstanceRule,
    NameRule,
    Rule,
    SimulationRule,
    TrafficRule,
    doc_sections,
    documented_options,
)
from rediscipline.rules.options import specs
from tests.rules.casefile import load_cases

RULES = list(default_registry())
CASES = load_cases()
#: The kinds of rule the engine runs on facts; a rule of none of them is a tool rule.
JUDGING_KINDS = (
    NameRule,
    FactRule,
    AggregateRule,
    CommandRule,
    CallRule,
    InstanceRule,
    ClusterRule,
    TrafficRule,
    SimulationRule,
    ExpiryRule,
)
JUDGING = [cls for cls in RULES if issubclass(cls, JUDGING_KINDS)]
TOOL_RULES = {cls.meta.id for cls in RULES if not issubclass(cls, JUDGING_KINDS)}
COMMAND_RULES = [cls for cls in RULES if issubclass(cls, CommandRule)]


def test_tool_rules_are_known() -> None:
    """Only the suppression family may judge nothing: a new rule of no kind is a mistake, not a tool rule."""
    assert {"SUP001"} == TOOL_RULES


def test_registry_is_consistent() -> None:
    registry = default_registry()
    assert len(registry) == len(ALL_RULES)
    for cls in registry:
        assert registry.get(cls.meta.id) is cls
        assert registry.get(cls.meta.slug) is cls


@pytest.mark.parametrize("cls", RULES, ids=[c.meta.id for c in RULES])
def test_doc_sections_in_order(cls: type[Rule[Any]]) -> None:
    """The written sections, then the `Overlaps` section exactly when the rule is in an overlap table."""
    sections = doc_sections(cls.meta.doc)
    expected = [*DOC_SECTIONS, OVERLAPS_SECTION] if cls.overlaps else list(DOC_SECTIONS)
    assert list(sections) == expected, f"{cls.meta.id} sections: {list(sections)}"
    for name, body in sections.items():
        assert body.strip(), f"{cls.meta.id}: section {name!r} is empty"


@pytest.mark.parametrize("cls", RULES, ids=[c.meta.id for c in RULES])
def test_options_documented_exactly(cls: type[Rule[Any]]) -> None:
    real = [spec.name for spec in specs(cls.Options)]
    documented = list(documented_options(cls.meta.doc))
    assert sorted(documented) == sorted(real), f"{cls.meta.id}: doc lists {documented}, options are {real}"
    for spec in specs(cls.Options):
        assert spec.doc, f"{cls.meta.id}: option {spec.name} has no one-line doc"


@pytest.mark.parametrize("cls", JUDGING, ids=[c.meta.id for c in JUDGING])
def test_sources_cited(cls: type[Rule[Any]]) -> None:
    assert cls.meta.sources, f"{cls.meta.id} cites no convention"
    source_section = doc_sections(cls.meta.doc)["Source"]
    for citation in cls.meta.sources:
        assert citation[:3].isdigit(), f"{cls.meta.id}: citation {citation!r} must start with the document number"
        assert citation.split(" ")[0] in source_section, f"{cls.meta.id}: {citation!r} not in the Source section"
    assert cls.meta.title.en and cls.meta.title.zh


@pytest.mark.parametrize("cls", JUDGING, ids=[c.meta.id for c in JUDGING])
def test_has_passing_and_failing_cases(cls: type[Rule[Any]]) -> None:
    mine = [c for c in CASES if c.rule_id == cls.meta.id]
    assert any(c.passing for c in mine), f"{cls.meta.id} has no passing case"
    assert any(not c.passing for c in mine), f"{cls.meta.id} has no failing case"


@pytest.mark.parametrize("cls", COMMAND_RULES, ids=[c.meta.id for c in COMMAND_RULES])
def test_command_rules_declare_the_commands_they_judge(cls: type[CommandRule[Any]]) -> None:
    """The engine offers a command rule only its declared commands: none declared, none judged."""
    judged = cls().judged(cls.Options())
    assert judged, f"{cls.meta.id} declares no commands (`commands`, `judged` or ANY_COMMAND)"
    if judged == ANY_COMMAND:
        return
    for name in judged:
        assert command_info(name) is not None, f"{cls.meta.id} judges {name!r}, which no Redis server has"


@pytest.mark.parametrize("rule_id", sorted(TOOL_RULES))
def test_tool_rules_have_no_cases_and_a_title(rule_id: str) -> None:
    cls = default_registry().get(rule_id)
    assert not [c for c in CASES if c.rule_id == rule_id], f"{rule_id} judges no facts: its cases would never run"
    assert cls.meta.title.en and cls.meta.title.zh
    assert "No convention document" in doc_sections(cls.meta.doc)["Source"]
