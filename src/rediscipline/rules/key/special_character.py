"""KEY004 special-character."""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, byte_class, describe_hits, find_literal_bytes
from rediscipline.rules.options import RuleOptions, option

#: Punctuation judged by other rules, never by this one: `:` (the level separator), `-.+=` (KEY010),
#: `#` (split keys), `{}` (hashtags), `*?[]` (KEY003), quotes and backslash (KEY001). One character, one rule.
OWNED_ELSEWHERE = frozenset(b":-.+=#{}*?[]'\"`\\")
_PUNCTUATION = frozenset(string.punctuation.encode("ascii"))


@functools.lru_cache(maxsize=16)
def _reported(allowed: str) -> re.Pattern[bytes]:
    """The characters this rule reports for one value of `allowed`."""
    return byte_class(bytes(sorted(_PUNCTUATION - OWNED_ELSEWHERE - set(allowed.encode("utf-8")))))


@dataclass(frozen=True)
class SpecialCharacterOptions(RuleOptions):
    allowed: str = option(
        ":_-.#{}+=",
        "ASCII punctuation allowed in key names; characters judged by other rules are never reported here.",
    )


@rule(
    "KEY004",
    "special-character",
    title=("Special punctuation in a key name", "键名包含特殊符号"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "003 §Key设计原则 — 4. 避免特殊字符",
        "001 §1.1 命名规范",
    ),
    overlaps=NAME_OVERLAPS,
)
class SpecialCharacter(NameRule[SpecialCharacterOptions]):
    """Reports ASCII punctuation outside the allowed set, such as `@ $ % & /`.

    ## What it does
    Finds ASCII punctuation in the literal text of a key name that is not in `allowed`, for example
    `@ $ % & ! ~ ^ | , ; < > / ( )`, and names each one with its byte offset.

    Some punctuation belongs to a more specific rule and is never reported here, whatever `allowed` says:
    `:` (the level separator), `- . + =` (KEY010 operator-separator), `#` (split keys), `{ }` (hashtags),
    `* ? [ ]` (KEY003 glob-character), quotes and backslash (KEY001 forbidden-character). So `allowed` only
    decides about `_` and the characters listed above.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    A key name is typed in shells and `redis-cli`, embedded in URLs, log lines, metrics labels and config
    files, and parsed by tooling that splits on `:`. Characters like `$ & | ; < > ( )` are special in
    shells, `% / ? @` in URLs, `,` and `;` in CSV exports and lists, so each one is a quoting bug waiting
    for the first copy and paste. A small character set (letters, digits, `:` and `_`) is easy to read,
    to validate and to match.

    ## Example
    ```
    user@example.com:profile
    price:$100
    page:/home/index
    ```

    ## Use instead
    ```
    user:10086:profile
    price:100
    page:home:index
    ```

    ## Options
    - `allowed`: the ASCII punctuation accepted in names (default `:_-.#{}+=`). Remove `_` to forbid it
      (some teams only allow `.` and `:`); add `|` for Tencent Cloud's character set.

    ## Source
    - 003 §Key设计原则 — 4. 避免特殊字符: 避免使用特殊符号(@#$%等).
    - 001 §1.1 命名规范: 可以使用的字符：小写英文字母、冒号(:)、数字、下划线.
    """

    Options = SpecialCharacterOptions

    def check(
        self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[SpecialCharacterOptions]
    ) -> Iterator[Violation]:
        hits = find_literal_bytes(key, _reported(ctx.options.allowed))
        if hits:
            listed = describe_hits(hits)
            yield Violation(
                "special",
                Text(
                    f"special characters in the key name: {listed.en}; use only letters, digits, `:` and `_`",
                    f"键名包含特殊符号：{listed.zh}；请只使用字母、数字、`:` 和 `_`",
                ),
                value=len(hits),
                spans=tuple(hit.span for hit in hits),
            )
