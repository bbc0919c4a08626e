"""Markdown as GitHub renders it: cmark-gfm (the `cmarkgfm` bindings) with GitHub's extensions, and the parts
of the HTML a test asserts on (tables, elements, text), read with the standard library's HTML parser.

Raw HTML is let through (`CMARK_OPT_UNSAFE`), as GitHub lets it through to its sanitiser: a tag that data
managed to inject shows up here as an element. GitHub's own filters, which run on the HTML after cmark-gfm
(@mentions, #123 references), are checked the way they match: on each text node outside `code`, `pre` and `a`.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser

import cmarkgfm
from cmarkgfm.cmark import Options

#: Elements the Markdown renderer writes itself; anything else came from data.
OWN_ELEMENTS = frozenset(
    {"h3", "h4", "p", "ul", "li", "strong", "code", "blockquote", "table", "thead", "tbody", "tr", "th", "td"}
)
#: What GitHub's mention and issue-reference filters match in a text node.
MENTION = re.compile(r"(?:^|\W)@[a-z0-9]", re.IGNORECASE)
REFERENCE = re.compile(r"(?:^|\W)#\d")
ZERO_WIDTH = "\u200b"
_SKIPPED = frozenset({"code", "pre", "a"})


def to_html(markdown: str) -> str:
    return str(cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE))


@dataclass
class Cell:
    text: str = ""  # all of the cell's text, entities decoded
    codes: list[str] = field(default_factory=list)  # the text of each code span in it


@dataclass
class Page:
    html: str
    elements: Counter[str] = field(default_factory=Counter)
    tables: list[list[list[Cell]]] = field(default_factory=list)  # tables → rows (header first) → cells
    text_nodes: list[str] = field(default_factory=list)  # text outside code, pre and a
    codes: list[str] = field(default_factory=list)  # every code span's text

    @property
    def foreign(self) -> set[str]:
        """Elements the renderer never writes (`<a>`, `<img>`, `<script>`…): they came from data."""
        return set(self.elements) - OWN_ELEMENTS

    @property
    def github_links(self) -> list[str]:
        """Text nodes that GitHub would turn into a mention or an issue link."""
        return [text for text in self.text_nodes if MENTION.search(text) or REFERENCE.search(text)]

    def text(self) -> str:
        """The page as a reader sees it: its text without the elements, entities decoded."""
        return html.unescape(re.sub(r"<[^>]*>", "", self.html))


class _Reader(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.skipped = 0
        self.cell: Cell | None = None
        self.code: list[str] | None = None

    def handle_starttag(self, tag: str, _attrs: list[tuple[str, str | None]]) -> None:
        self.page.elements[tag] += 1
        if tag in _SKIPPED:
            self.skipped += 1
        if tag == "table":
            self.page.tables.append([])
        elif tag == "tr":
            self.page.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = Cell()
            self.page.tables[-1][-1].append(self.cell)
        if tag == "code":
            self.code = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipped -= 1
        if tag in ("td", "th"):
            self.cell = None
        if tag == "code" and self.code is not None:
            text = "".join(self.code)
            self.page.codes.append(text)
            if self.cell is not None:
                self.cell.codes.append(text)
            self.code = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.text += data
        if self.code is not None:
            self.code.append(data)
        if not self.skipped:
            self.page.text_nodes.append(data)


def render(markdown: str) -> Page:
    """`markdown` rendered by cmark-gfm and read back."""
    page = Page(to_html(markdown))
    reader = _Reader(page)
    reader.feed(page.html)
    reader.close()
    return page
