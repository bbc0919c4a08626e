"""KEY006 uppercase."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate, Placeholder
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, Span, covered_by, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, describe_words, snake_case, spans_of, word_spans
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class UppercaseOptions(RuleOptions):
    check_identifiers: bool = option(
        False, "Also report ids (uuids, hex hashes, tokens) that contain upper-case letters."
    )


@rule(
    "KEY006",
    "uppercase",
    title=("Upper-case letters in a key name", "键名包含大写字母"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "001 §1.1 命名规范",
        "004 §2.1 小写命名",
    ),
    overlaps=NAME_OVERLAPS,
)
class Uppercase(NameRule[UppercaseOptions]):
    """Reports words with upper-case letters in key names.

    ## What it does
    Splits the literal text of a key name into words (runs of ASCII letters and digits) and reports the
    words that contain upper-case letters: `AID`, `User`, `USER_INFO`, `Order`, and camelCase compounds
    such as `lastSeen` or `UserProfile`, which break both conventions 004 writes down (§2.1 lower case and
    §2.3 no camelCase). KEY007 camel-case reports those with the word split in snake_case, so where it is
    enabled this rule leaves camelCase words to it (see Overlaps).

    With `check-identifiers`, variable parts that had upper-case letters (`user:ABCDEF12-…` uuids, upper-case
    hex hashes and tokens) are reported too, with the code `uppercase-id`.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    Redis key names are case-sensitive: `User:1` and `user:1` are two different keys, so one writer using
    another case silently creates a second copy and the reader sees a cache miss. Mixed case also makes
    `SCAN MATCH` patterns and greps miss keys. Lower case everywhere removes the question. The same holds
    for ids: a uuid written once in upper case and once in lower case names two keys.

    Not every document agrees: 003 allows upper-case letters and 000's own example is `AID:15`, so the
    `redis-oss` and `tencent` presets turn this rule off.

    ## Example
    ```
    AID:15:player:ranking
    User:1001:profile
    USER_INFO:1001
    ```

    ## Use instead
    ```
    aid:15:player:ranking
    user:1001:profile
    user_info:1001
    ```

    ## Options
    - `check-identifiers`: also report ids (uuids, hex hashes, tokens) written with upper-case letters
      (default false: such ids usually come from another system as they are).

    ## Source
    - 001 §1.1 命名规范: 可以使用的字符：小写英文字母、冒号(:)、数字、下划线.
    - 004 §2.1 小写命名: Redis 键名必须使用小写字母，避免大小写混淆问题.
    """

    Options = UppercaseOptions

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[UppercaseOptions]) -> Iterator[Violation]:
        found = word_spans(key)
        words = [w for w in dict.fromkeys(word for word, _span in found) if w.lower() != w]
        if words:
            yield _uppercase(words, found)
        if ctx.options.check_identifiers:
            upper = [(p, (at, at + 1)) for at, p in enumerate(_positions(key)) if p is not None and p.upper]
            slots = sorted({p.slot for p, _span in upper})
            if slots:
                kinds = ", ".join(slots)
                yield Violation(
                    "uppercase-id",
                    Text(
                        f"an id in the key name has upper-case letters ({kinds}); normalise ids to lower case so "
                        "one id always names one key",
                        f"键名中的 ID 含大写字母（{kinds}）；请将 ID 统一转为小写，保证同一 ID 只对应一个 Key",
                    ),
                    spans=tuple(span for _p, span in upper),
                )

    def narrow(
        self,
        violation: Violation,
        covered: Sequence[Span],
        key: KeyTemplate,
        key_type: str | None,
        ctx: RuleContext[UppercaseOptions],
    ) -> Violation | None:
        """The `uppercase` violation lists words: it is rebuilt from the words left uncovered."""
        if violation.code != "uppercase":
            return super().narrow(violation, covered, key, key_type, ctx)
        found = [(word, span) for word, span in word_spans(key) if span in violation.spans]
        left = list(dict.fromkeys(w for w, span in found if not covered_by(span, covered)))
        return _uppercase(left, found) if left else None


def _uppercase(words: list[bytes], found: Sequence[tuple[bytes, Span]]) -> Violation:
    """The violation that names `words`, about their every occurrence in `found` (from `word_spans`)."""
    listed = describe_words(words, snake_case)
    return Violation(
        "uppercase",
        Text(
            f"upper-case letters in the key name: {listed.en}; use lower case",
            f"键名包含大写字母：{listed.zh}；请使用小写",
        ),
        value=len(words),
        spans=spans_of(words, found),
    )


def _positions(key: KeyTemplate) -> Iterator[Placeholder | None]:
    """One item per template position: the placeholder there, or None for a literal byte."""
    for part in key.parts:
        if isinstance(part, Placeholder):
            yield part
        else:
            yield from (None for _byte in part)
