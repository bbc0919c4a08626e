"""The one way text enters a Markdown report: `md`, for GitHub-flavoured Markdown as GitHub renders it.

Everything the Markdown renderer writes that it did not write itself (key names, patterns, paths, server
replies, config values, and every message and note as a whole) has first been shown as every renderer
shows it (`model.display`: control, bidi and format characters as visible escapes, bounded lengths), and
then passes `md`, which makes it inert as Markdown. `md` runs `inert` again itself, so a line break can
never reach the document raw, even from a caller that forgot.

Two forms:

* Code (`code=True`), for names: a code span, whose content Markdown never parses, and which GitHub's own
  filters (@mentions, #123 issue and commit references, :emoji:, bare URLs) leave alone. Its fence is one
  backtick longer than the longest run of backticks inside, with a space either side when the content
  starts or ends with a backtick or a space (CommonMark strips one space from each side).
* Prose (the default), for messages, notes and titles, as the rules and the notes catalogue write them:
  a part quoted in backticks (`` `Profile` ``) becomes a code span as above, and the rest is escaped: the
  ASCII punctuation that can start anything gets a backslash (so no link, image, autolink, HTML, entity,
  emphasis, strikethrough, math, heading, list, quote, table or fence can start); `@` and `#` are followed
  by a zero-width space written `&#8203;` (the email autolink of cmark-gfm and GitHub's @mention and #123
  reference filters see through backslashes, not through that); and a leading space is written `&#32;` (so
  a list item cannot become an indented code block). GitHub's `:emoji:` shortcodes are left to render: a
  name is quoted, so in a code span.

`cell=True` for text inside a table cell: a `|` is then written `\\|` also inside code spans, which GFM
splits rows on before it parses a cell (and shows as `|`); outside a table it would show its backslash.
"""

from __future__ import annotations

import re

from rediscipline.model.display import inert

#: ASCII punctuation that prose escapes: all of it but `,;?%/'"`, which start nothing in GFM (links, titles
#: and autolinks need `[`, `<`, `:` or `.` first, and those are escaped).
_ESCAPED = frozenset("!#$&()*+-.:<=>@[\\]^_`{|}~")
#: After these characters prose gets a zero-width space (see the module docstring).
_BREAK = frozenset("@#")
_ZERO_WIDTH = "&#8203;"
#: A quoted part of prose: backticks around text that neither starts nor ends with a space (so a lone
#: backtick a message quotes, `反引号 ` (偏移 4)`, stays text).
_QUOTED = re.compile(r"`([^`\s]|[^`\s][^`]*[^`\s])`")
_BACKTICKS = re.compile(r"`+")


def _code_span(text: str, cell: bool) -> str:
    if cell:
        text = text.replace("|", "\\|")
    if not text:
        return "` `"
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(text)), default=0) + 1)
    pad = text[0] == "`" or text[-1] == "`" or (text[0] == " " and text[-1] == " " and text.strip(" ") != "")
    return f"{fence} {text} {fence}" if pad else f"{fence}{text}{fence}"


def _prose(text: str, leading: bool) -> str:
    out: list[str] = []
    for index, ch in enumerate(text):
        if ch in _ESCAPED:
            out.append("\\" + ch)
            if ch in _BREAK:
                out.append(_ZERO_WIDTH)
        elif ch == " " and leading and index == 0:
            out.append("&#32;")
        else:
            out.append(ch)
    return "".join(out)


def md(text: str, *, code: bool = False, cell: bool = False) -> str:
    """`text` (already shown by `model.display`) as inert Markdown: a code span, or escaped prose in which
    backtick-quoted parts are code spans. See the module docstring."""
    text = inert(text, None)
    if code:
        return _code_span(text, cell)
    out: list[str] = []
    start = 0
    for match in _QUOTED.finditer(text):
        out.append(_prose(text[start : match.start()], leading=start == 0))
        out.append(_code_span(match.group(1), cell))
        start = match.end()
    out.append(_prose(text[start:], leading=start == 0))
    return "".join(out)


__all__ = ["md"]
