"""KEY003 glob-character."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, byte_class, describe_hits, find_literal_bytes
from rediscipline.rules.options import RuleOptions

_GLOB = byte_class(b"*?[]")


@rule(
    "KEY003",
    "glob-character",
    title=("Glob wildcard character in a key name", "键名包含通配符"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "003 §Key设计原则 — 4. 避免特殊字符",
        "000 §Key 名字如何设计 — 命名",
    ),
    overlaps=NAME_OVERLAPS,
)
class GlobCharacter(NameRule[RuleOptions]):
    """Reports the glob metacharacters `* ? [ ]` in key names.

    ## What it does
    Finds `*`, `?`, `[` and `]` in the literal text of a key name and names each one with its byte offset.
    (The backslash, the glob escape character, is reported by KEY001.)

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    `KEYS`, `SCAN … MATCH`, `PSUBSCRIBE`, ACL key patterns (`~user:*`) and most key-pattern tooling read
    these characters as wildcards. A key containing `*` cannot be matched exactly without escaping every
    metacharacter, so a cleanup script written as `SCAN MATCH report:*:daily` also hits or misses keys it
    was not meant to, and a pattern typed by an operator matches more than the key they meant to delete.
    Tencent Cloud's key design guide forbids `* ? [ ]` for this reason.

    ## Example
    ```
    report:*:daily
    question:what?
    list:items[0]
    ```

    ## Use instead
    ```
    report:all:daily
    question:what
    list:items:0
    ```

    ## Options
    None.

    ## Source
    - 003 §Key设计原则 — 4. 避免特殊字符: 避免使用特殊符号.
    - 000 §Key 名字如何设计 — 命名: 不使用特殊字符.
    """

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        hits = find_literal_bytes(key, _GLOB)
        if hits:
            listed = describe_hits(hits)
            yield Violation(
                "glob",
                Text(
                    f"glob wildcard characters in the key name: {listed.en}; KEYS/SCAN MATCH patterns treat them "
                    "as wildcards, so the key cannot be matched exactly without escaping",
                    f"键名包含通配符：{listed.zh}；KEYS/SCAN MATCH 会把它们当作通配符，不转义就无法精确匹配该 Key",
                ),
                value=len(hits),
                spans=tuple(hit.span for hit in hits),
            )
