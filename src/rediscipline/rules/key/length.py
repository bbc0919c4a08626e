"""KEY005 key-length."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class KeyLengthOptions(RuleOptions):
    note_bytes: int = option(50, "Note when a key name is longer than this many bytes (0 = off).", minimum=0)
    warning_bytes: int = option(100, "Warn when a key name is longer than this many bytes (0 = off).", minimum=0)
    error_bytes: int = option(128, "Error when a key name is longer than this many bytes (0 = off).", minimum=0)
    mget_bytes: int = option(
        20,
        "Limit for namespaces declared `read-by-mget = true` (read by MGETs of more than 100 keys).",
        minimum=0,
    )


@rule(
    "KEY005",
    "key-length",
    title=("Key name too long", "键名过长"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 大小",
        "003 §Key设计原则 — 5. 长度控制",
        "004 §7 FAQ — 键名长度如何控制",
        "002 §规范一：key 的命名规范",
    ),
    overlaps=NAME_OVERLAPS,
)
class KeyLength(NameRule[KeyLengthOptions]):
    """Checks the length of a key name in bytes.

    ## What it does
    Measures every key name in bytes (not characters: one Chinese character is three UTF-8 bytes) and
    reports names longer than the configured limits. Keys in a namespace declared `read-by-mget = true`
    are held to `mget-bytes` instead, and a namespace's `max-key-bytes` replaces `error-bytes`.
    For a key template from code, the shortest possible name is measured; at run time (the guard), the
    name of every key the application sends.

    ## Why is this bad?
    Every key name is stored in full in the main dictionary, in every replica, in every RDB and AOF, and
    is compared on every lookup. Since Redis 3.2 a longer name also needs a larger SDS header. With tens of
    millions of keys, 100 extra bytes per name is gigabytes. In large MGETs the names themselves become a
    large part of each request.

    ## Example
    ```
    user_session_authentication_token_for_mobile_app:abc123
    user:profile:personal:information:unique:identifier:12345
    ```

    ## Use instead
    ```
    session:token:abc123
    user:profile:id:12345
    ```

    ## Options
    - `note-bytes`: note above this many bytes (default 50, from 003's "20–50 characters").
    - `warning-bytes`: warn above this many bytes (default 100, 003: "over 100 characters needs optimising").
    - `error-bytes`: error above this many bytes (default 128, 000 and 004: "not over 128").
    - `mget-bytes`: the limit inside namespaces declared `read-by-mget = true` (default 20, from 000).

    ## Source
    - 000 §Key 名字如何设计 — 大小: ≤30 bytes suggested, ≤128 bytes at most, ≤20 bytes when an MGET reads more than 100 keys.
    - 003 §Key设计原则 — 5. 长度控制: 20–50 characters suggested; over 100 needs optimising.
    - 004 §7 FAQ: avoid more than 128 characters.
    - 002 §规范一: long keys cost memory, including SDS metadata.
    """  # noqa: E501 - the Source bullets are one line each in the generated docs

    Options = KeyLengthOptions

    reads_namespace = frozenset({"max-key-bytes", "read-by-mget"})

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[KeyLengthOptions]) -> Iterator[Violation]:
        exact = key.exact_length
        size = exact if exact is not None else key.min_length
        at_least = "" if exact is not None else "at least "
        at_least_zh = "" if exact is not None else "至少 "
        opts = ctx.options
        namespace = ctx.namespace
        if namespace is not None and namespace.read_by_mget and opts.mget_bytes and size > opts.mget_bytes:
            yield Violation(
                "mget-too-long",
                Text(
                    f"key name is {at_least}{size} bytes; keys read by large MGETs should be ≤ {opts.mget_bytes}",
                    f"键名 {at_least_zh}{size} 字节；被大批量 MGET 读取的 Key 应不超过 {opts.mget_bytes} 字节",
                ),
                Severity.WARNING,
                size,
            )
            return
        error_limit = namespace.max_key_bytes if namespace and namespace.max_key_bytes else opts.error_bytes
        levels = (
            (error_limit, Severity.ERROR),
            (opts.warning_bytes, Severity.WARNING),
            (opts.note_bytes, Severity.NOTE),
        )
        for limit, severity in levels:
            if limit and size > limit:
                yield Violation(
                    f"longer-than-{limit}",
                    Text(
                        f"key name is {at_least}{size} bytes, above the {limit}-byte limit",
                        f"键名 {at_least_zh}{size} 字节，超过 {limit} 字节的限制",
                    ),
                    severity,
                    size,
                )
                return
