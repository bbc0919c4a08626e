"""Renderers turn a finished Report into text for people or machines; a table of names, no plugins.

`RENDERERS` maps each format to its renderer and imports a renderer's module when its format is first asked
for: a run writing JSON never loads the HTML page's templates, charts and markupsafe, nor rich. Its keys are
known without importing anything, so `--format` offers every format at no cost.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, TextIO, cast

if TYPE_CHECKING:
    from rediscipline.model.report import Report

Renderer = Callable[["Report", TextIO, str, bool], None]


class RendererTable(Mapping[str, Renderer]):
    """Format name → renderer, each named by its module and function and imported on first use."""

    def __init__(self, places: Mapping[str, tuple[str, str]]) -> None:
        self._places = dict(places)

    def __getitem__(self, name: str) -> Renderer:
        module, function = self._places[name]
        return cast(Renderer, getattr(importlib.import_module(module), function))

    def __iter__(self) -> Iterator[str]:
        return iter(self._places)

    def __len__(self) -> int:
        return len(self._places)


RENDERERS: Mapping[str, Renderer] = RendererTable(
    {
        "text": ("rediscipline.render.text", "render_text"),
        "json": ("rediscipline.render.json_output", "render_json"),
        "sarif": ("rediscipline.render.sarif", "render_sarif"),
        "github": ("rediscipline.render.github", "render_github"),
        "html": ("rediscipline.render.html", "render_html"),
        "markdown": ("rediscipline.render.markdown", "render_markdown"),
    }
)
