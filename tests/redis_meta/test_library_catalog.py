"""The library key-family catalog, checked as data: ids, shapes under the shape syntax, both languages, examples.

`parse_shape` below is this test's own reading of the syntax in `rediscipline.redis_meta.libraries` (fields
`{var}` `{name}` `{rest}` `{int}` `{uuid}` `{hex}` `{token}` `{date}`, `{{` and `}}` for literal braces).
`loose_regex` turns a parsed shape into a regular expression over a concrete key: a deliberately simple stand-in
for the matcher (a `{var}` is any run without `:` holding a digit or `@`), strict enough to catch an example
that its own row cannot match or that an earlier row would claim.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from rediscipline.redis_meta.libraries import FAMILIES, KeyFamily

FIELDS = frozenset({"var", "name", "rest", "int", "uuid", "hex", "token", "date", "prefix"})
TYPES = frozenset({"string", "list", "set", "zset", "hash", "stream", "ReJSON-RL"})
ECOSYSTEMS = frozenset({"python", "ruby", "node", "java", "php", "dotnet"})
CJK = re.compile(r"[\u4e00-\u9fff]")
SPECIFIER = re.compile(r"(~=|==|!=|<=|>=|<|>)\d+(\.\d+)*(\.\*)?")

LOOSE = {
    "var": r"[^:]*[0-9@][^:]*",
    "name": r"[^:]+",
    "rest": r".+",
    "prefix": r".+",
    "int": r"[0-9]+",
    "uuid": r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}",
    "hex": r"(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{8,}",  # inference reads shorter runs as numbers or words
    "token": r"[A-Za-z0-9+/=_-]*[0-9][A-Za-z0-9+/=_-]*",
    "date": r"[0-9]{4}-?[0-9]{2}-?[0-9]{2}(?:[T ][0-9:.]+Z?)?",
}


def parse_shape(shape: str) -> list[tuple[str, str]]:
    """The parts of a shape: ("literal", text) and ("field", name); ValueError when the shape breaks the syntax."""
    parts: list[tuple[str, str]] = []
    literal: list[str] = []
    i = 0
    while i < len(shape):
        char = shape[i]
        if shape.startswith("{{", i) or shape.startswith("}}", i):
            literal.append(char)
            i += 2
        elif char == "{":
            end = shape.find("}", i)
            if end == -1:
                raise ValueError(f"unclosed field at {i}")
            field = shape[i + 1 : end]
            if field not in FIELDS:
                raise ValueError(f"unknown field {{{field}}}")
            if literal:
                parts.append(("literal", "".join(literal)))
                literal = []
            elif parts and parts[-1] != ("field", "prefix"):  # a prefix ends where the library's key begins
                raise ValueError(f"two fields side by side at {i}")
            parts.append(("field", field))
            i = end + 1
        elif char == "}":
            raise ValueError(f"unmatched }} at {i}")
        else:
            literal.append(char)
            i += 1
    if literal:
        parts.append(("literal", "".join(literal)))
    if not parts:
        raise ValueError("empty shape")
    return parts


def loose_regex(shape: str) -> re.Pattern[str]:
    body = "".join(re.escape(text) if kind == "literal" else f"(?:{LOOSE[text]})" for kind, text in parse_shape(shape))
    return re.compile(body, re.DOTALL)


#: Rows that claim keys only under a prefix another key of their library proved in the same run.
WAITING = frozenset(
    family.id
    for family in FAMILIES
    if not family.proves_prefix and any(s.startswith("{prefix}") for s in family.shapes)
)


def first_claim(key: str) -> KeyFamily | None:
    """The first row (in attribution order) with a shape that matches `key` under the loose reading (the rows
    that wait for a proved prefix claim nothing on their own)."""
    for family in FAMILIES:
        if family.id in WAITING:
            continue
        if any(loose_regex(shape).fullmatch(key) for shape in family.shapes):
            return family
    return None


def test_the_parser_reads_fields_literals_and_escaped_braces() -> None:
    assert parse_shape("rq:job:{name}:dependents") == [
        ("literal", "rq:job:"),
        ("field", "name"),
        ("literal", ":dependents"),
    ]
    assert parse_shape("LIMITS:{{LIMITER/{rest}}}") == [
        ("literal", "LIMITS:{LIMITER/"),
        ("field", "rest"),
        ("literal", "}"),
    ]
    assert parse_shape("celery\x06\x16{int}") == [("literal", "celery\x06\x16"), ("field", "int")]


@pytest.mark.parametrize(
    ("shape", "message"),
    [
        ("rq:job:{name", "unclosed field"),
        ("rq:job:name}", "unmatched }"),
        ("rq:job:{id}", "unknown field {id}"),
        ("rq:{name}{var}", "two fields side by side"),
        ("", "empty shape"),
    ],
)
def test_the_parser_rejects_broken_shapes(shape: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_shape(shape)


def test_ids_are_unique_and_name_library_and_family_in_lower_case() -> None:
    counts = Counter(family.id for family in FAMILIES)
    assert [family_id for family_id, count in counts.items() if count > 1] == []
    for family in FAMILIES:
        library, _, name = family.id.partition(".")
        assert family.id == family.id.lower(), family.id
        assert library and name and " " not in family.id, family.id


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.id)
def test_every_row_is_complete(family: KeyFamily) -> None:
    assert family.library and family.ecosystem in ECOSYSTEMS
    assert all(SPECIFIER.fullmatch(clause) for clause in family.versions.split(",")), family.versions
    assert family.shapes and family.examples
    for shape in family.shapes:
        parse_shape(shape)
    assert family.types and family.types <= TYPES, family.types
    for english, chinese in (family.purpose, family.advice):
        assert english.strip() and not CJK.search(english), english
        assert CJK.search(chinese), chinese
    assert family.docs.startswith("https://"), family.docs


def test_no_two_rows_share_a_shape() -> None:
    """Rows that wait for a proved prefix may share one: the library whose prefix is proved tells them apart."""
    counts = Counter(shape for family in FAMILIES if family.id not in WAITING for shape in family.shapes)
    assert [shape for shape, count in counts.items() if count > 1] == []


@pytest.mark.parametrize("family", FAMILIES, ids=lambda family: family.id)
def test_each_example_is_its_own_rows_first_claim(family: KeyFamily) -> None:
    if family.id in WAITING or family.id == "bullmq.job_named":
        return  # a proved prefix, or a job id that is a word where the loose `{var}` takes one: the engine's test
    for example in family.examples:
        claimed = first_claim(example)
        assert claimed is not None, f"no shape of any row matches {example!r}"
        assert claimed.id == family.id, f"{example!r} is claimed first by {claimed.id}"


@pytest.mark.parametrize(
    "key",
    [
        "session:6f1c0e5b2d8a4f7e9b3c1d2e4f5a6b7c",  # Flask-Session's default prefix: left out on purpose
        "lock:reports",  # python-redis-lock's lock key: only its lock-signal companion is claimed
        "queue:default",  # Sidekiq's queue list: as plain as an application's
        "user:42",
        "cache:home",
        "orders:2024-05-01",
    ],
)
def test_plain_application_keys_are_not_claimed(key: str) -> None:
    assert first_claim(key) is None
