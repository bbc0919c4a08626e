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
    chart: str | None = None  # the `data-chart` of the nearest figure around the element


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.text: list[str] = []
        self.visible: list[str] = []
        self._raw: str | None = None  # inside <style> or <script>: not text a reader sees

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        figure = next((e for e in reversed(self.open) if e.tag == "figure"), None)
        element = Element(tag, dict(attrs), chart=figure.attrs.get("data-chart") if figure is not None else None)
        self.elements.append(element)
        if tag in {"style", "script"}:
            self._raw = tag
        if tag not in {"meta", "br", "input", "line", "img", "link"}:
            self.open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        figure = next((e for e in reversed(self.open) if e.tag == "figure"), None)
        self.elements.append(Element(tag, dict(attrs), chart=figure.attrs.get("data-chart") if figure else None))

    def handle_endtag(self, tag: str) -> None:
        if tag == self._raw:
            self._raw = None
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index].tag == tag:
                del self.open[index:]
                break

    def handle_data(self, data: str) -> None:
        if self.open:
            self.open[-1].text.append(data)
        self.text.append(data)
        if self._raw is None:
            self.visible.append(data)


@dataclass
class Page:
    source: str
    elements: list[Element]
    text: str
    visible: str  # the text outside the style and the scripts

    def all(self, tag: str, **attrs: str) -> list[Element]:
        return [
            e
            for e in self.elements
            if e.tag == tag and all(e.attrs.get(name.replace("_", "-")) == value for name, value in attrs.items())
        ]

    def with_class(self, name: str) -> list[Element]:
        return [e for e in self.elements if name in (e.attrs.get("class") or "").split()]

    def values(self, chart: str) -> list[int]:
        """The `data-value` of every mark drawn in the figure `[data-chart=chart]` itself, in page order."""
        return [int(e.attrs["data-value"] or "0") for e in self.with_class("mark") if e.chart == chart]

    def script_bodies(self) -> list[str]:
        return ["".join(e.text) for e in self.all("script")]


def parse(source: str) -> Page:
    collector = _Collector()
    collector.feed(source)
    collector.close()
    return Page(source, collector.elements, "".join(collector.text), "".join(collector.visible))


def render(report: Report, lang: str = "en") -> Page:
    stream = io.StringIO()
    render_html(report, stream, lang)
    return parse(stream.getvalue())


def csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"
