"""Character, case and separator rules on code templates (unknown-width placeholders), and their helpers.

Case files only feed concrete keys; templates from code (`f"user:{uid} x"`) have placeholders of unknown
width, so offsets after them are unknown and characters between two of them are values, not separators.
"""

from __future__ import annotations

from typing import Any

import pytest

from rediscipline.model.keyname import SLOT_ANY, SLOT_INT, KeyTemplate, Placeholder
from rediscipline.model.keypattern import infer_parts
from rediscipline.rules import default_registry
from rediscipline.rules.base import RuleContext
from rediscipline.rules.key.template_parts import (
    byte_class,
    find_literal_bytes,
    is_camel_word,
    literal_runs,
    snake_case,
    word_spans,
)
from rediscipline.rules.options import build

ANY = Placeholder(SLOT_ANY, label="uid")


def check(rule_id: str, key: KeyTemplate, **options: Any) -> list[tuple[str, str]]:
    cls = default_registry().get(rule_id)
    ctx: RuleContext[Any] = RuleContext(build(cls.Options, options), cls.meta.severity)
    return [(v.code, v.message.en) for v in cls().check(key, None, ctx)]


def test_offset_unknown_after_a_code_placeholder() -> None:
    key = KeyTemplate((b"user:", ANY, b":a b"))
    [(code, message)] = check("KEY001", key)
    assert code == "whitespace"
    assert "space after a variable part" in message


def test_offset_known_after_a_measured_placeholder() -> None:
    key = KeyTemplate((b"user:", Placeholder(SLOT_INT, 4), b":a b"))
    [(_, message)] = check("KEY001", key)
    assert "space at offset 11" in message


@pytest.mark.parametrize(
    ("parts", "flagged"),
    [
        ((b"user-", ANY), True),  # f"user-{uid}"
        ((ANY, b"-", ANY), True),  # f"{a}-{b}": written in code between two expressions, a separator
        ((ANY, b"=", ANY), True),  # f"{field}={value}"
        ((ANY, b".", ANY), False),  # f"{domain}.{suffix}": a `.` joins the parts of one value
        ((b"queue:", ANY, b".", ANY, b":jobs"), False),  # f"queue:{host}.{zone}:jobs"
        ((b"reply.", ANY, b".", ANY), True),  # the first `.` joins a word to a value
        ((Placeholder(SLOT_INT, 2), b"-", Placeholder(SLOT_INT, 2)), False),  # a stored 10-20: a value
        ((Placeholder(SLOT_INT, 2), b".", Placeholder(SLOT_INT, 1)), False),  # a stored 10.5: a value
        ((b"temp:-", ANY), False),  # a sign
        ((b"product:cache:{p.id}",), False),  # document notation for a variable
    ],
)
def test_operator_separator_on_templates(parts: tuple[Any, ...], flagged: bool) -> None:
    assert bool(check("KEY010", KeyTemplate(parts))) is flagged


def test_each_rule_reports_one_violation_per_code() -> None:
    """The engine counts one key per violation: two violations with one code would double-count a key."""
    key = KeyTemplate(infer_parts(b"a b c:'x' 'y':@@:$*?:Foo:BAR:fooBar:barBaz:a-b.c+d=e:\xe5\xbc\xa0\xff"))
    for rule_id in ("KEY001", "KEY002", "KEY003", "KEY004", "KEY006", "KEY007", "KEY010"):
        codes = [code for code, _ in check(rule_id, key)]
        assert codes, rule_id
        assert len(codes) == len(set(codes)), (rule_id, codes)


def test_literal_runs_merge_adjacent_parts() -> None:
    key = KeyTemplate(infer_parts(b"tok:AbCdEfGh12345"))
    assert key.parts[0] == b"tok:AbCdEfGh"  # inference merges adjacent literal runs
    [run] = literal_runs(key)
    assert run.text == b"tok:AbCdEfGh"
    assert run.offset == 0
    assert run.at == 0
    assert word_spans(key) == [(b"tok", (0, 3)), (b"AbCdEfGh", (4, 12))]


def test_hits_never_look_inside_placeholders() -> None:
    key = KeyTemplate(infer_parts(b"video_info#olympic#2020-08-29#1"))
    assert find_literal_bytes(key, byte_class(b"-")) == []


@pytest.mark.parametrize(
    ("word", "camel"),
    [
        (b"userId", True),
        (b"UserProfile", True),
        (b"orderStatusOrderId", True),
        (b"md5Hash", True),
        (b"XMLHttpRequest", True),
        (b"AID", False),
        (b"User", False),
        (b"USER", False),
        (b"HTTPServer", False),
        (b"2FA", False),
        (b"user_id", False),
    ],
)
def test_camel_words_break_both_case_rules(word: bytes, camel: bool) -> None:
    """004 writes down two rules a camelCase word breaks (§2.1 lower case, §2.3 no camelCase): both report it."""
    assert is_camel_word(word) is camel
    key = KeyTemplate((b"x:" + word,))
    reported_by = {rule_id for rule_id in ("KEY006", "KEY007") if check(rule_id, key)}
    upper = {"KEY006"} if word.lower() != word else set()
    assert reported_by == (upper | {"KEY007"} if camel else upper)


@pytest.mark.parametrize(
    ("word", "snake"),
    [
        (b"orderStatusOrderId", "order_status_order_id"),
        (b"UserProfile", "user_profile"),
        (b"XMLHttpRequest", "xml_http_request"),
        (b"HTTPServer", "http_server"),
        (b"md5Hash", "md5_hash"),
        (b"AID", "aid"),
    ],
)
def test_snake_case(word: bytes, snake: str) -> None:
    assert snake_case(word) == snake
