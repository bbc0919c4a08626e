"""Write docs/rules/<ID>-<slug>.md from the rule docstrings, and docs/rules/zh/<ID>-<slug>.md from their
translations (src/rediscipline/rules/docs_zh/), one page of each per rule.

    python scripts/gen_rule_docs.py            every rule's pages; pages of rules that no longer exist are deleted
    python scripts/gen_rule_docs.py KEY019     only the pages of these rules (scripts/add_rule.py runs this)

Run `make docs` after changing a rule; tests/test_docs.py fails when a page is out of date. docs/rules/README.md
is written by hand and lists no rule, so adding a rule adds its two pages and changes no other file here.
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
#: The folder of the Chinese pages, inside DOCS.
ZH = "zh"


def expected_files(ids: Sequence[str] = ()) -> dict[str, str]:
    """Path relative to DOCS (`KEY001-….md`, `zh/KEY001-….md`) → content, for every rule (or those `ids` names)."""
    registry = default_registry()
    rules = [registry.get(rule_id) for rule_id in ids] if ids else list(registry)
    pages: dict[str, str] = {}
    for cls in rules:
        name = f"{cls.meta.id}-{cls.meta.slug}.md"
        pages[name] = rule_markdown(cls) + "\n"
        pages[f"{ZH}/{name}"] = rule_markdown(cls, "zh") + "\n"
    return pages


def generated_files() -> set[str]:
    """The pages docs/rules holds now, as `expected_files` names them (the index left out)."""
    pages = {path.name for path in DOCS.glob("*.md")} - {INDEX}
    return pages | {f"{ZH}/{path.name}" for path in (DOCS / ZH).glob("*.md")}


def main(argv: Sequence[str] | None = None) -> int:
    ids = list(sys.argv[1:] if argv is None else argv)
    (DOCS / ZH).mkdir(parents=True, exist_ok=True)
    expected = expected_files(ids)
    if not ids:
        for stale in generated_files() - set(expected):
            (DOCS / stale).unlink()
    for name, text in expected.items():
        (DOCS / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(expected)} files to {DOCS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
