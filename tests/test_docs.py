"""docs/rules/ holds one page per rule, generated from the rule docstrings, and one in Chinese in docs/rules/zh/,
generated from their translations; each is current (`make docs`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "rules"


def test_rule_docs_are_current() -> None:
    spec = importlib.util.spec_from_file_location("gen_rule_docs", ROOT / "scripts" / "gen_rule_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    expected = module.expected_files()
    assert module.generated_files() == set(expected), "docs/rules is out of date: run `make docs`"
    for name, text in expected.items():
        assert (FOLDER / name).read_text(encoding="utf-8") == text, f"docs/rules/{name} is out of date: run `make docs`"


def test_the_index_names_every_family_and_no_rule() -> None:
    """The hand-written index stays true when a rule is added: it names the families, never a rule id."""
    from rediscipline.rules import default_registry
    from rediscipline.rules.base import FAMILIES

    index = (FOLDER / "README.md").read_text(encoding="utf-8")
    registry = default_registry()
    for family in registry.families():
        assert f"| `{family}` | {FAMILIES[family].en} |" in index, family
    assert not [rule_id for rule_id in registry.ids() if rule_id in index]
