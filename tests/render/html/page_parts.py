"""Read a written HTML page back into its parts, with the standard library's parser (what tests assert on)."""

from __future__ import annotations

import base64
import hashlib
import io
from dataclasses import dataclass, field
from html.parser import HTMLParser

from rediscipline.model.report import Report
from rediscipline.render.html import render_html


@dataclass
class Element:
    tag: str
    attrs: dict[str, str | None]
    text: list[str] = field(default_factory=list)


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, dict(attrs))
        self.elements.append(element)
        if tag not in {"meta", "br", "input", "line", "img", "link"}:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                break

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1].text.append(data)
        self.text.append(data)


@dataclass
class Page:
    source: str
    elements: list[Element]
    text: str

    def all(self, tag: str, **attrs: str) -> list[Element]:
        return [
            e
            for e in self.elements
            if e.tag == tag and all(e.attrs.get(name.replace("_", "-")) == value for name, value in attrs.items())
        ]

    def with_class(self, name: str) -> list[Element]:
        return [e for e in self.elements if name in (e.attrs.get("class") or "").split()]

    def visible_text(self) -> str:
        """The page's text without its style and scripts (and with the English of rule docs, which follow)."""
        text = self.text
        for element in self.all("style") + self.all("script"):
            text = text.replace("".join(element.text), "")
        return text

    def script_bodies(self) -> list[str]:
        return ["".join(e.text) for e in self.all("script")]


def parse(source: str) -> Page:
    collector = _Collector()
    collector.feed(source)
    collector.close()
    return Page(source, collector.elements, "".join(collector.text))


def render(report: Report, lang: str = "en") -> Page:
    stream = io.StringIO()
    render_html(report, stream, lang)
    return parse(stream.getvalue())


def csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"
