"""KEY001 forbidden-character."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
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
from rediscipline.rules.options import RuleOptions

_WHITESPACE = frozenset(b" \t\n\r\x0b\x0c")
_QUOTES = frozenset(b"'\"`")
_BACKSLASH = 0x5C
_FORBIDDEN = byte_class(bytes(range(0x20)) + b"\x7f'\"`\\ ")

#: (code, English, Chinese) in reporting order; the message then lists the characters and offsets.
_KINDS = (
    ("whitespace", "whitespace in the key name", "键名包含空白字符"),
    ("control", "control bytes in the key name", "键名包含控制字符"),
    ("quote", "quote characters in the key name", "键名包含引号"),
    ("backslash", "backslash (escape character) in the key name", "键名包含反斜杠（转义字符）"),
)


def _kind(byte: int) -> str:
    if byte in _WHITESPACE:
        return "whitespace"
    if byte in _QUOTES:
        return "quote"
    if byte == _BACKSLASH:
        return "backslash"
    return "control"


@rule(
    "KEY001",
    "forbidden-character",
    title=("Whitespace, control, quote or escape character in a key name", "键名包含空白、控制、引号或转义字符"),
    severity=Severity.ERROR,
    where=NAMING_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 命名",
        "001 §1.1 命名规范",
        "003 §Key设计原则 — 4. 避免特殊字符",
    ),
    overlaps=NAME_OVERLAPS,
)
class ForbiddenCharacter(NameRule[RuleOptions]):
    """Reports whitespace, control bytes, quotes and backslashes in key names.

    ## What it does
    Looks at the literal text of every key name and reports, by kind:
    - `whitespace`: space, tab, newline, carriage return, vertical tab, form feed;
    - `control`: the other control bytes `\\x00`–`\\x1f` and `\\x7f` (DEL);
    - `quote`: single quote `'`, double quote `"` and backtick;
    - `backslash`: `\\`, the escape character.

    The message names each character and its byte offset in the key. Variable parts (ids, dates, hashes)
    are not searched: pattern inference only makes placeholders of letters, digits and dashes.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    These characters change meaning as soon as a key leaves the program. `redis-cli`, shell scripts, the
    inline protocol and most admin consoles split on whitespace and interpret quotes and backslashes, so a
    key like `user:a b` cannot be typed, copied from a log or deleted by an operator without quoting it
    exactly right; a trailing newline or `\\r` produces a second key that looks identical to the first.
    Control bytes are usually a bug (a binary value or a C string terminator ending up in the name) and
    make keys invisible or misleading in terminals. 000, 001 and 003 forbid them, and so does every cloud
    vendor's key naming guide.

    ## Example
    ```
    user:profile:john smith
    user:1001\\n
    cache:'product':10001
    file:dir\\name
    ```

    ## Use instead
    ```
    user:profile:john_smith
    user:1001
    cache:product:10001
    file:dir:name
    ```

    ## Options
    None.

    ## Source
    - 000 §Key 名字如何设计 — 命名: 不使用特殊字符，比如空格、单引号、转义字符.
    - 001 §1.1 命名规范: 不能使用的字符：空格、换行、单双引号以及其他转义字符.
    - 003 §Key设计原则 — 4. 避免特殊字符: 避免使用空格.
    """

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        hits = find_literal_bytes(key, _FORBIDDEN)
        if not hits:
            return
        by_kind: dict[str, list[LiteralHit]] = {}
        for hit in hits:
            by_kind.setdefault(_kind(hit.byte), []).append(hit)
        for code, en, zh in _KINDS:
            found = by_kind.get(code)
            if found:
                listed = describe_hits(found)
                yield Violation(
                    code,
                    Text(f"{en}: {listed.en}; remove it or use `_`", f"{zh}：{listed.zh}；请删除或改用 `_`"),
                    value=len(found),
                    spans=tuple(hit.span for hit in found),
                )
