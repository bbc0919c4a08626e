"""docs/rules/ is generated from the rule docstrings and must be current (run `make docs`)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_rule_docs_are_current() -> None:
    spec = importlib.util.spec_from_file_location("gen_rule_docs", ROOT / "scripts" / "gen_rule_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    expected = module.expected_files()
    folder = ROOT / "docs" / "rules"
    actual = {p.name for p in folder.glob("*.md")}
    assert actual == set(expected), "docs/rules is out of date: run `make docs`"
    for name, text in expected.items():
        assert (folder / name).read_text(encoding="utf-8") == text, f"docs/rules/{name} is out of date: run `make docs`"
