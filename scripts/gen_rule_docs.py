"""Write docs/rules/<ID>-<slug>.md from the rule docstrings, one page per rule.

    python scripts/gen_rule_docs.py            every rule's page; pages of rules that no longer exist are deleted
    python scripts/gen_rule_docs.py KEY019     only the pages of these rules (scripts/add_rule.py runs this)

Run `make docs` after changing a rule; tests/test_docs.py fails when a page is out of date. docs/rules/README.md
is written by hand and lists no rule, so adding a rule adds one page and changes no other file here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from rediscipline.cli.rules import rule_markdown
from rediscipline.rules import default_registry

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
#: The hand-written index of the folder, never generated nor deleted.
INDEX = "README.md"


def expected_files(ids: Sequence[str] = ()) -> dict[str, str]:
    """File name → content of the page of every rule (or of the rules `ids` names)."""
    registry = default_registry()
    rules = [registry.get(rule_id) for rule_id in ids] if ids else list(registry)
    return {f"{cls.meta.id}-{cls.meta.slug}.md": rule_markdown(cls) + "\n" for cls in rules}


def main(argv: Sequence[str] | None = None) -> int:
    ids = list(sys.argv[1:] if argv is None else argv)
    DOCS.mkdir(parents=True, exist_ok=True)
    expected = expected_files(ids)
    if not ids:
        for stale in DOCS.glob("*.md"):
            if stale.name != INDEX and stale.name not in expected:
                stale.unlink()
    for name, text in expected.items():
        (DOCS / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(expected)} files to {DOCS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
