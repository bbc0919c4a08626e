"""Inline suppression comments: `# rediscipline: ignore[CMD001]`, `ignore`, `file-ignore[...]`, `file-ignore`.

Syntax, like ruff's `noqa`:

* `# rediscipline: ignore` — every rule, on the lines it applies to;
* `# rediscipline: ignore[CMD001, key-length]` — those rules only: ids (any case) or slugs, separated by
  commas and/or spaces;
* `# rediscipline: file-ignore` / `file-ignore[...]` — anywhere in the file, for the whole file.

The words are case-insensitive, but the marker is recognised written `rediscipline`, `REDISCIPLINE` or
`Rediscipline` (files that spell it no other way are skipped without tokenizing).

After `]` any text may follow (a reason). A bare `ignore` may be followed only by another comment (`#`) or a
reason after ` -- `, so `# rediscipline: ignore CMD001` is not silently read as "ignore everything".

Which lines a line directive covers is decided when findings are matched (`rediscipline.suppress`): the
comment's own line, and every line of a finding's span (`Location.line` … `end_line`), so a comment on any
line of a multi-line call — typically after its closing parenthesis — covers that call.

Only real comments count: the file is tokenized, so the same text inside a string or docstring is not a
directive. Text that starts like a directive but is not one (`# rediscipline: ignore[`, `ignores`) is kept,
never an error: it becomes a Directive whose only code is `rediscipline: ` plus the text that followed
(`"rediscipline: ignore["`). A code containing `:` can never name a rule, so the directive suppresses
nothing, and `rediscipline.suppress` reports it as a malformed suppression comment.
"""

from __future__ import annotations

import io
import re
import tokenize

from rediscipline.model.code import Directive, FileDirectives

#: Spellings of the marker tested on every file first (plain substring tests: a case-insensitive regex
#: costs eight times as much, and almost no file mentions the tool at all).
_SPELLINGS = ("rediscipline", "REDISCIPLINE", "Rediscipline")
_MENTION = re.compile(r"rediscipline", re.IGNORECASE)
#: The start of a directive inside a comment token (which may hold several `#` pragmas).
_START = re.compile(r"#[ \t]*rediscipline[ \t]*:[ \t]*", re.IGNORECASE)
_VERB = re.compile(r"(file-ignore|ignore)(?![\w-])", re.IGNORECASE)
_CODE_SEPARATORS = re.compile(r"[\s,]+")
#: What may follow a bare `ignore`: nothing, or a reason introduced by ` -- `.
_BARE_TAIL = re.compile(r"\s*(?:--.*)?", re.DOTALL)
#: Prefix of the single "code" a malformed directive carries (see the module docstring).
MALFORMED_PREFIX = "rediscipline:"


def read_directives(text: str, path: str) -> FileDirectives:
    """Every suppression directive in the comments of `text` (the source of `path`), in file order.

    Never raises on odd input: if tokenizing stops early (a file `ast.parse` rejected, or a tokenizer
    quirk), the directives found up to that point are returned.
    """
    if not any(spelling in text for spelling in _SPELLINGS):
        return FileDirectives(path)
    found: list[Directive] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT and _MENTION.search(token.string) is not None:
                line, offset = token.start
                found.extend(parse_comment(token.string, line, offset + 1))
    except (tokenize.TokenError, SyntaxError):
        pass
    return FileDirectives(path, tuple(found))


def parse_comment(comment: str, line: int, column: int) -> list[Directive]:
    """The directives in one comment token that starts at (`line`, 1-based `column`).

    A comment can hold other pragmas too (`# type: ignore  # rediscipline: ignore[CMD001]`); each
    directive's column is that of its own `#`.
    """
    directives: list[Directive] = []
    for match in _START.finditer(comment):
        end = comment.find("#", match.end())
        body = comment[match.end() : end if end != -1 else len(comment)]
        at = column + match.start()
        directives.append(_parse_body(body, line, at))
    return directives


def _parse_body(body: str, line: int, column: int) -> Directive:
    verb = _VERB.match(body)
    whole_file = verb is not None and verb.group(1).lower() == "file-ignore"
    if verb is not None:
        rest = body[verb.end() :]
        if rest.startswith("["):
            close = rest.find("]")
            if close != -1:
                codes = tuple(c for c in _CODE_SEPARATORS.split(rest[1:close]) if c)
                if codes:
                    return Directive(line, column, codes, whole_file)
        elif _BARE_TAIL.fullmatch(rest):
            return Directive(line, column, (), whole_file)
    return Directive(line, column, (malformed_code(body),), whole_file)


def malformed_code(body: str) -> str:
    """The stand-in code of a malformed directive: `rediscipline: ` and what followed, spaces collapsed."""
    return f"{MALFORMED_PREFIX} {' '.join(body.split())}".rstrip()


__all__ = ["MALFORMED_PREFIX", "parse_comment", "read_directives"]
