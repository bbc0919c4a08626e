"""Renderers turn a finished Report into text for people or machines; a table of names, no plugins."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from rediscipline.model.report import Report
from rediscipline.render.github import render_github
from rediscipline.render.html import render_html
from rediscipline.render.json_output import render_json
from rediscipline.render.markdown import render_markdown
from rediscipline.render.sarif import render_sarif
from rediscipline.render.text import render_text

Renderer = Callable[[Report, TextIO, str, bool], None]

RENDERERS: dict[str, Renderer] = {
    "text": render_text,
    "json": render_json,
    "sarif": render_sarif,
    "github": render_github,
    "html": render_html,
    "markdown": render_markdown,
}
