"""KEY007 camel-case."""

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
    describe_words,
    is_camel_word,
    snake_case,
    spans_of,
    word_spans,
)
from rediscipline.rules.options import RuleOptions


@rule(
    "KEY007",
    "camel-case",
    title=("camelCase word in a key name", "键名使用驼峰命名"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "004 §2.3 标识符命名",
        "004 §5.2 避免的问题",
    ),
    overlaps=NAME_OVERLAPS,
)
class CamelCase(NameRule[RuleOptions]):
    """Reports camelCase and PascalCase words in key names and suggests their snake_case form.

    ## What it does
    Splits the literal text of a key name into words (runs of ASCII letters and digits) and reports every
    word in which a lower-case letter, optionally followed by digits, is directly followed by an upper-case
    letter: `userId`, `orderStatusOrderId`, `UserProfile`, `md5Hash`. The message gives the snake_case
    spelling (`order_status_order_id`). Other words with upper-case letters (`AID`, `User`) are KEY006's.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    camelCase hides word boundaries from everything that is not a human reading carefully: `orderId`,
    `orderID` and `orderid` are three different keys, and a team that writes snake_case in one service and
    camelCase in another splits its data without noticing. Key names are read in `redis-cli`, logs and
    dashboards, where lower case with `_` between words and `:` between levels reads best and sorts
    together. camelCase in a key is also a sign that a level was glued into one word:
    `orderStatusOrderId98765` is really `order:status:order_id:98765`.

    ## Example
    ```
    orderStatusOrderId98765
    user:userId:1001
    UserProfile:1001
    ```

    ## Use instead
    ```
    order:status:order_id:98765
    user:user_id:1001
    user_profile:1001
    ```

    ## Options
    None.

    ## Source
    - 004 §2.3 标识符命名: 使用下划线(_)分隔复合单词，而非驼峰命名(camelCase).
    - 004 §5.2 避免的问题: 避免使用驼峰命名 — 不推荐 `orderStatusOrderId98765`，推荐 `order:status:order_id:98765`.
    """

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        found = word_spans(key)
        words = [w for w in dict.fromkeys(word for word, _span in found) if is_camel_word(w)]
        if not words:
            return
        listed = describe_words(words, snake_case)
        yield Violation(
            "camel-case",
            Text(
                f"camelCase in the key name: {listed.en}; use lower case with `_` between words and `:` between levels",
                f"键名使用了驼峰命名：{listed.zh}；请使用小写，单词之间用 `_`，层级之间用 `:`",
            ),
            value=len(words),
            spans=spans_of(words, found),
        )
