"""A rule's documentation as page markup: the whole of it behind one click, and its fix on show.

The documentation is the rule's own (its docstring, `RuleMeta.doc`; Chinese where the rule has it), written
in Markdown. It is rendered by markdown-it-py's CommonMark parser with raw HTML off, so nothing in it can be
markup the renderer did not write, and links are only those markdown-it validates (no `javascript:`).
Each rule's page markup is rendered once per process.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from markupsafe import Markup

from rediscipline.model.report import RuleMeta

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

#: The heading of the section that says what to write instead (English and Chinese documentation).
FIX_HEADINGS = ("Use instead", "正确做法")
_HEADING = re.compile(r"^## (.+)$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class RuleDoc:
    summary: str
    fix: Markup
    body: Markup


_NO_DOC = RuleDoc("", Markup(""), Markup(""))


@functools.lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False})


@functools.lru_cache(maxsize=256)
def _render(text: str) -> Markup:
    """Markdown to markup, the document's `##` headings shown one level under the rule's own."""
    return Markup(_parser().render(text.replace("\n## ", "\n#### ")))


def _sections(doc: str) -> tuple[str, dict[str, str]]:
    """(the first paragraph, {heading: body}) of a rule's documentation."""
    parts = _HEADING.split(doc)
    summary = parts[0].strip().split("\n\n", 1)[0]
    return summary, {parts[i].strip(): parts[i + 1].strip() for i in range(1, len(parts) - 1, 2)}


def rule_doc(meta: RuleMeta | None, lang: str) -> RuleDoc:
    if meta is None or not meta.doc:
        return _NO_DOC
    text = meta.doc_in(lang)
    summary, sections = _sections(text)
    fix = next((sections[heading] for heading in FIX_HEADINGS if heading in sections), "")
    return RuleDoc(summary=summary, fix=_render(fix) if fix else Markup(""), body=_render(text))
