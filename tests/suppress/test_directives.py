"""Reading `# rediscipline: ...` comments: every syntax form, malformed ones, and what is not a directive."""

from __future__ import annotations

import pytest

from rediscipline.model.code import Directive, FileDirectives
from rediscipline.sources.code.directives import read_directives


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('r.keys("*")  # rediscipline: ignore', Directive(1, 14, ())),
        ('r.keys("*")  # rediscipline: ignore[CMD001]', Directive(1, 14, ("CMD001",))),
        ("x  # rediscipline: ignore[CMD001, key-length]", Directive(1, 4, ("CMD001", "key-length"))),
        ("x  # rediscipline: ignore[ cmd001 ,KEY005 , ]", Directive(1, 4, ("cmd001", "KEY005"))),
        ("x  # rediscipline: ignore[CMD001 KEY005]", Directive(1, 4, ("CMD001", "KEY005"))),
        ("x  #rediscipline:ignore[CMD001]", Directive(1, 4, ("CMD001",))),
        ("x  # Rediscipline : IGNORE[CMD001]", Directive(1, 4, ("CMD001",))),
        ("x  # REDISCIPLINE: File-Ignore", Directive(1, 4, (), whole_file=True)),
        ("x  # rediscipline: ignore[CMD001] legacy job, see #123", Directive(1, 4, ("CMD001",))),
        ("x  # rediscipline: ignore -- legacy job", Directive(1, 4, ())),
        ("x  # rediscipline: ignore  # noqa: E501", Directive(1, 4, ())),
        ("x  # noqa: E501  # rediscipline: ignore[CMD001]", Directive(1, 18, ("CMD001",))),
        ("# rediscipline: file-ignore", Directive(1, 1, (), whole_file=True)),
        ("# rediscipline: file-ignore[CMD, key-length]", Directive(1, 1, ("CMD", "key-length"), whole_file=True)),
        ("    # rediscipline: FILE-IGNORE[SUP001]", Directive(1, 5, ("SUP001",), whole_file=True)),
        ('s = "é"  # rediscipline: ignore', Directive(1, 10, ())),  # columns count characters, 1-based
    ],
)
def test_syntax_forms(line: str, expected: Directive) -> None:
    assert read_directives(line + "\n", "app.py") == FileDirectives("app.py", (expected,))


@pytest.mark.parametrize(
    ("comment", "code", "whole_file"),
    [
        ("# rediscipline: ignore[", "rediscipline: ignore[", False),
        ("# rediscipline: ignore[]", "rediscipline: ignore[]", False),
        ("# rediscipline: ignore[ , ]", "rediscipline: ignore[ , ]", False),
        ("# rediscipline: ignore CMD001", "rediscipline: ignore CMD001", False),
        ("# rediscipline: ignore: CMD001", "rediscipline: ignore: CMD001", False),
        ("# rediscipline: ignores", "rediscipline: ignores", False),
        ("# rediscipline: skip[CMD001]", "rediscipline: skip[CMD001]", False),
        ("# rediscipline:", "rediscipline:", False),
        ("# rediscipline:   ignore[CMD001    # trailing", "rediscipline: ignore[CMD001", False),
        ("# rediscipline: file-ignore[", "rediscipline: file-ignore[", True),
    ],
)
def test_malformed_directives_are_kept_with_their_text(comment: str, code: str, whole_file: bool) -> None:
    """A malformed directive suppresses nothing: its one code is its text, which contains `:`, never a rule."""
    found = read_directives(f"x = 1  {comment}\n", "app.py").directives
    assert found == (Directive(1, 8, (code,), whole_file),)


@pytest.mark.parametrize(
    "source",
    [
        's = "# rediscipline: ignore[CMD001]"\n',
        'def f():\n    """Write `# rediscipline: ignore` after the call."""\n',
        "x = 1  # rediscipline is how we check Redis usage\n",
        "x = 1  # see rediscipline: ignore\n",
        "x = 1  # rediscipline-ignore[CMD001]\n",
        "x = 1  # ReDiscipline: ignore\n",  # a spelling the fast pre-check does not look for
        "x = 1\n",
    ],
)
def test_not_directives(source: str) -> None:
    assert read_directives(source, "app.py") == FileDirectives("app.py", ())


def test_file_order_and_lines_of_a_multi_line_call() -> None:
    """Each directive records its comment's own line; which call it covers is decided when matching."""
    source = (
        "import redis\n"
        "# rediscipline: file-ignore[KEY005]\n"
        "r = redis.Redis()\n"
        "r.set(  # rediscipline: ignore[CMD002]\n"
        '    "session:1",\n'
        "    payload,  # rediscipline: ignore[key-length]\n"
        ")  # rediscipline: ignore\n"
    )
    assert read_directives(source, "svc/cache.py") == FileDirectives(
        "svc/cache.py",
        (
            Directive(2, 1, ("KEY005",), whole_file=True),
            Directive(4, 9, ("CMD002",)),
            Directive(6, 15, ("key-length",)),
            Directive(7, 4, ()),
        ),
    )


def test_tokenizer_error_keeps_what_was_read() -> None:
    """A file the tokenizer gives up on (here an unclosed bracket at the end) never raises."""
    source = "x = 1  # rediscipline: ignore[CMD001]\ny = (\n"
    assert read_directives(source, "broken.py").directives == (Directive(1, 8, ("CMD001",)),)


def test_invalid_indentation_does_not_raise() -> None:
    source = "if x:\n        a = 1  # rediscipline: ignore\n    b = 2\n"
    assert read_directives(source, "bad.py").directives == (Directive(2, 16, ()),)
