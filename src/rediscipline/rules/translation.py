"""The rules' documentation in Chinese: one Markdown file per rule in `docs_zh/`, read when it is first shown.

A file translates its rule's docstring (`Rule.doc()`) section by section, under the headings `HEADINGS_ZH`
gives, with the same code blocks and option names. Its first line records which English text it translates
(`<!-- en: … -->`, `english_stamp` of the docstring), so tests/rules/test_docs_zh.py fails when the English
changes and the translation does not follow.

Nothing here reads a file at import: `@rule` gives `RuleMeta.doc_zh` a `ChineseDoc`, which reads its file
the first time `RuleMeta.doc_in("zh")` asks for it, so only a run that shows the Chinese documentation
reads it (the catalog, `--version` and every check in English read none).
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

#: The section headings of a translation, one fixed word for each English heading (and the generated
#: `Overlaps` section of naming rules).
HEADINGS_ZH = {
    "What it does": "检查什么",
    "Why is this bad?": "为什么有问题",
    "Example": "示例",
    "Use instead": "正确做法",
    "Options": "选项",
    "Source": "依据",
    "Overlaps": "重叠规则",
}
#: The folder of the translations, beside this module; `<rule id>.md` each.
FOLDER = "docs_zh"
#: The first line of a translation: the stamp of the English text it translates.
STAMP = "<!-- en: {} -->"


def english_stamp(doc: str) -> str:
    """The first 12 hex digits of the SHA-256 of an English docstring: what a translation records (the tests
    and the rule scaffold compute it; a run never does, so hashlib is imported here)."""
    import hashlib

    return hashlib.sha256(doc.encode("utf-8")).hexdigest()[:12]


@functools.cache
def read_translation(rule_id: str) -> tuple[str, str] | None:
    """The translation of a rule's docstring as (the stamp its first line records, "" when it has none; the text
    after it), None when the rule has none. A plain tuple: a class more would cost every import of the rules
    half a millisecond, for what only this module and the tests read. The file is read beside this module
    (the wheel installs the folder with the package) through `os.path`, which every run has imported already:
    `importlib.resources` or `pathlib` are not imported by the rules, and would cost 10–30 ms for one path."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), FOLDER, f"{rule_id}.md")
    try:
        with open(path, encoding="utf-8") as file:
            content = file.read()
    except FileNotFoundError:
        return None
    first, _, rest = content.partition("\n")
    prefix, suffix = STAMP.split("{}")
    if first.startswith(prefix) and first.endswith(suffix):
        return first[len(prefix) : -len(suffix)], rest.strip("\n")
    return "", content.strip("\n")


@dataclass(frozen=True, slots=True)
class ChineseDoc:
    """A rule's documentation in Chinese, read when called: its translation, then `overlaps` (the generated
    `Overlaps` section, in Chinese) when the rule has one. "" when the rule has no translation."""

    rule_id: str
    overlaps: str = ""

    def __call__(self) -> str:
        found = read_translation(self.rule_id)
        if found is None:
            return ""
        return found[1] + ("\n\n" + self.overlaps if self.overlaps else "")
