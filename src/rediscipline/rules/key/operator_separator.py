"""KEY010 operator-separator."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate, Placeholder
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import (
    NAMING_CHECKS,
    LiteralHit,
    byte_class,
    describe_hits,
    find_literal_bytes,
)
from rediscipline.rules.options import RuleOptions, option

_WORDISH = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_DOT = ord(".")


@dataclass(frozen=True)
class OperatorSeparatorOptions(RuleOptions):
    operators: str = option("-.+=", "Characters that must not join words in a key name (operator-like symbols).")


def _joins_words(hit: LiteralHit) -> bool:
    """True when the character touches literal text on at least one side (`user-1`, `reply.to`).

    Between two variable parts of a stored key it is part of a value (`10.0.0.1`, `1.5`, a `-` in a
    range), and next to a placeholder and a separator it is a sign (`temp:-5`), so it is left alone. In
    code, a `-`, `+` or `=` written between two expressions (`f"{base}-{quote}"`) was put there to
    separate them; a `.` there joins the parts of one value (a host name `f"{domain}.{suffix}"`, a version
    `f"{major}.{minor}"`, an address, a decimal), as it does in a stored key. Inside `{…}` it belongs to
    a hashtag (judged by the hashtag rules) or to a placeholder in document notation (`{p.id}`).
    """
    if hit.braced:
        return False
    if _code_expression(hit.before) and _code_expression(hit.after):
        return hit.byte != _DOT
    return (isinstance(hit.before, int) and hit.before in _WORDISH) or (
        isinstance(hit.after, int) and hit.after in _WORDISH
    )


def _code_expression(neighbour: int | Placeholder | None) -> bool:
    """A placeholder for an expression written in code (`{uid}`), not a value inferred from a stored key."""
    return isinstance(neighbour, Placeholder) and not neighbour.known


@rule(
    "KEY010",
    "operator-separator",
    title=("Operator symbol used as a separator in a key name", "键名使用运算符号作分隔符"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=("000 §该如何设计数据结构以避开大Key和热Key — 各种ID",),
    overlaps=NAME_OVERLAPS,
)
class OperatorSeparator(NameRule[OperatorSeparatorOptions]):
    """Reports `-`, `.`, `+` and `=` used to join words in key names.

    ## What it does
    Finds the characters of `operators` in the literal text of a key name where they join words: next to
    a literal letter, digit or underscore on at least one side (`user-profile:1`, `reply.to`, `a+b`, `k=v`,
    or `user-123`, whose pattern is `user-*`). In code, a `-`, `+` or `=` written between two expressions
    is a separator too (`f"order:line:{uid}-{sku}"`). It does not report a `.` between two variable parts,
    in code or in a stored key: it joins the parts of one value (a host name `f"{domain}.{suffix}"`, a
    version `1.2`, an IP address `*.*.*.*`, a decimal number). Nor does it report any of them between two
    values inferred from a stored key (`10-20`), or inside a variable part: dashed dates (`2020-08-29`) and
    uuids are recognised as values, so `video_info#olympic#2020-08-29#1` passes. Text between `{` and `}`
    is left to the hashtag rules (it is also how documents write a variable: `product:cache:{p.id}`).

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    These symbols read as arithmetic or assignment: `user-1` looks like a subtraction, `a=b` like a
    query string, and tools that evaluate, split or escape key names (shell arithmetic, URL query
    strings, metric names, spreadsheet exports) mangle them. They also hide the key's structure: a
    separator other than `:` is invisible to every tool that groups keys by `:` levels. 000 asks for
    `#`, `:` or `_` instead.

    Not every document agrees: 003 allows `-` and `.`, and the Redis documentation uses `reply.to` and
    `reply-to`, so the `redis-oss` preset sets `operators = "+="`.

    ## Example
    ```
    user-profile:1001
    comment:4321:reply.to
    user-123
    order:status=paid
    ```

    ## Use instead
    ```
    user_profile:1001
    comment:4321:reply_to
    user:123
    order:status:paid
    ```

    ## Options
    - `operators`: the characters reported when they join words (default `-.+=`).

    ## Source
    - 000 §该如何设计数据结构以避开大Key和热Key — 各种ID: Key 名字使用的分隔符号不建议使用空格和可能引起运算的符号
      （“-”，“.”，“+”，“=”），建议用“#”，“:”，“_”.
    """

    Options = OperatorSeparatorOptions

    def check(
        self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[OperatorSeparatorOptions]
    ) -> Iterator[Violation]:
        operators = ctx.options.operators.encode("utf-8")
        hits = [hit for hit in find_literal_bytes(key, byte_class(operators)) if _joins_words(hit)]
        if hits:
            listed = describe_hits(hits)
            yield Violation(
                "operator",
                Text(
                    f"operator symbols used as separators in the key name: {listed.en}; use `:` between levels "
                    "and `_` between words (`#` before a shard suffix)",
                    f"键名使用可能引起运算的符号作分隔符：{listed.zh}；"
                    "层级之间请用 `:`，单词之间用 `_`（拆分 Key 的后缀前用 `#`）",
                ),
                value=len(hits),
                spans=tuple(hit.span for hit in hits),
            )
