"""The sentences a rule cites, as its page, the SARIF rule help and the JSON outputs show them.

In Chinese a citation is the document's own words; in English it is the translation followed by the Chinese
original, so that the reader can check the translation against what the convention says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rediscipline.model.report import Citation
from rediscipline.model.text import Text

#: The heading of the section that follows a rule doc's `Source` section.
CITATIONS_SECTION = Text("Cited sentences", "引用的原文")
ORIGINAL = Text("original", "原文")
#: A rule doc's `Source` section, in its English and its Chinese documentation.
_SOURCE_HEADINGS = ("## Source", "## 依据")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>~|])")


def citation_fields(citations: Sequence[Citation]) -> list[dict[str, Any]]:
    """`[{"source", "sentence": {"en", "zh"}}]`, in the order of the rule's sources."""
    return [{"source": c.source, "sentence": {"en": c.text.en, "zh": c.text.zh}} for c in citations]


def quoted(text: str) -> str:
    return f"“{text}”"


def citations_section(citations: Sequence[Citation], lang: str, markdown: bool = True) -> str:
    """The `Cited sentences` section: each source, then its sentence in `lang` (English adds the Chinese
    original). With `markdown`, the quotes are escaped so that no character of a quote is read as markup
    (`<description>`, `user_session_token`)."""
    escape = _escape if markdown else _plain
    lines = [f"## {CITATIONS_SECTION.in_(lang)}"]
    for citation in citations:
        lines.append(f"- {escape(citation.source)}")
        lines.append(f"  - {quoted(escape(citation.text.in_(lang)))}")
        if lang != "zh":
            lines.append(f"  - {ORIGINAL.en}: {quoted(escape(citation.text.zh))}")
    return "\n".join(lines)


def with_citations(doc: str, citations: Sequence[Citation], lang: str, markdown: bool = True) -> str:
    """A rule doc with its `Cited sentences` section right after its `Source` section (at the end when the
    doc has none); the doc unchanged when the rule cites nothing."""
    if not citations:
        return doc
    section = citations_section(citations, lang, markdown)
    start = max(doc.find(heading) for heading in _SOURCE_HEADINGS)
    end = doc.find("\n## ", start + 1) if start >= 0 else -1
    if end < 0:
        return f"{doc.rstrip()}\n\n{section}"
    return f"{doc[:end].rstrip()}\n\n{section}\n\n{doc[end:].lstrip()}"


def _escape(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def _plain(text: str) -> str:
    return text
