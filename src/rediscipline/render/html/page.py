"""Write one self-contained page: the markup from the templates, the shipped CSS and script inline, no network.

Everything shown passes one escaping path: outside text is made displayable and bounded by `model.display`
when the view is built, and the templates' autoescaping (Jinja2 with `autoescape=True`, MarkupSafe) makes it
text in the page. Nothing from a report is marked safe; the only markup inserted as is, is ours: the CSS and
script files of this package, the SVG the chart templates draw from numbers, and rule documentation rendered
with raw HTML off (`rule_docs`). The Content-Security-Policy names the hashes of our one style and one
script, so a script or style that came from data could not run even if it reached the page.
"""

from __future__ import annotations

import base64
import datetime
import functools
import hashlib
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

if TYPE_CHECKING:
    import jinja2

_PACKAGE = "rediscipline.render.html"


@dataclass(frozen=True, slots=True)
class Assets:
    css: Markup
    script: Markup
    policy: str


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


@functools.lru_cache(maxsize=1)
def assets() -> Assets:
    """The page's CSS and script, and the policy that allows exactly them."""
    folder = resources.files(_PACKAGE).joinpath("assets")
    css = folder.joinpath("report.css").read_text(encoding="utf-8")
    script = folder.joinpath("report.js").read_text(encoding="utf-8")
    policy = (
        f"default-src 'none'; script-src {_digest(script)}; style-src {_digest(css)}; img-src data:; "
        "base-uri 'none'; form-action 'none'"
    )
    return Assets(Markup(css), Markup(script), policy)


@functools.lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The template environment, made on first use (importing Jinja2 costs the other formats' startup)."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader(_PACKAGE, "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def written_at() -> str:
    """When the page is written, as its header shows it (UTC, to the minute)."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def render_page(template: str, **context: Any) -> str:
    return environment().get_template(template).render(assets=assets(), **context)
