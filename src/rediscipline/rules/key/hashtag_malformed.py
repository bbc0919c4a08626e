"""KEY011 hashtag-malformed."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, Braces, scan_braces, show
from rediscipline.rules.options import RuleOptions


def _message(code: str, shown: str, braces: Braces) -> Text:
    tag = braces.shown_tag
    if code == "stray-close":
        return Text(
            f"`{shown}` has a `}}` that no `{{` opened: Redis Cluster ignores it (a mistyped hashtag?)",
            f"`{shown}` 中有一个没有对应 `{{` 的 `}}`：Redis 集群会忽略它（hashtag 写错了？）",
        )
    if code == "unclosed":
        return Text(
            f"`{shown}` has a `{{` with no `}}` after it: there is no hashtag and the whole key is hashed; "
            "close the tag (`user:{123}:cart`) or remove the brace",
            f"`{shown}` 中的 `{{` 后面没有 `}}`：没有 hashtag，整个 Key 参与哈希；"
            "补全（`user:{123}:cart`）或删除该括号",
        )
    if code == "empty":
        return Text(
            f"`{shown}` has an empty hashtag `{{}}`: Redis Cluster then hashes the whole key and the tag does "
            "nothing; put the shared id inside the braces or remove them",
            f"`{shown}` 中的 hashtag `{{}}` 为空：Redis 集群会对整个 Key 哈希，括号不起作用；"
            "在括号内写入共享的 ID，或去掉括号",
        )
    if code == "nested":
        return Text(
            f"`{shown}` has nested braces: Redis Cluster routes by the bytes between the first `{{` and the "
            f"first `}}`, here {tag}, not by the outer braces (000: `a{{aa{{xxx}}bb}}b` routes by `aa{{xxx`)",
            f"`{shown}` 中的括号嵌套：Redis 集群按第一个 `{{` 与其后第一个 `}}` 之间的内容路由，此处为 {tag}，"
            "而不是外层括号（000：`a{aa{xxx}bb}b` 按 `aa{xxx` 路由）",
        )
    return Text(
        f"`{shown}` has more than one `{{…}}`: only the first, {tag}, decides the cluster slot; the later "
        "braces are plain characters",
        f"`{shown}` 中有多个 `{{…}}`：只有第一个 {tag} 决定集群槽位，后面的括号只是普通字符",
    )


@rule(
    "KEY011",
    "hashtag-malformed",
    title=("Malformed hashtag", "hashtag 格式错误"),
    severity=Severity.ERROR,
    where=NAMING_CHECKS,
    sources=("000 §Key 名字如何设计 — 命名",),
    overlaps=NAME_OVERLAPS,
)
class HashtagMalformed(NameRule[RuleOptions]):
    """Checks that braces in a key name form one valid Redis Cluster hashtag.

    ## What it does
    Reads the braces of a key name the way Redis Cluster does: the slot is computed from the bytes between
    the FIRST `{` and the first `}` after it; if there is no such pair, or it is empty, the whole name is
    hashed. Reports `unclosed` (a `{` with no later `}`), `stray-close` (a `}` that no `{` opened),
    `empty` (`{}`), `nested` (a `{` inside the tag) and `multiple` (another `{…}` after the tag). The tag
    may hold a variable part (`user:{12345}:cart` is valid); braces are only looked for in the literal
    text of a name.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    A hashtag is written to put related keys in one slot, so that multi-key commands, transactions and
    Lua scripts work on a cluster. A malformed tag silently does something else: with `{}` or a missing
    `}` every key is hashed whole and the related keys scatter (multi-key commands fail with CROSSSLOT);
    with nested or repeated braces the key routes by a different substring than the author intended.

    ## Example
    ```
    user:{12345:cart
    order:{}:items
    a{aa{xxx}bb}b
    user:{12345}:cart:{2}
    ```

    ## Use instead
    ```
    user:{12345}:cart
    order:{98765}:items
    ```

    ## Options
    None.

    ## Source
    - 000 §Key 名字如何设计 — 命名: use the hashtag correctly; the cluster routes by the content between
      the first `{` and the first `}` (`a{aa{xxx}bb}b` routes by `aa{xxx`).
    """

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        braces = scan_braces(key)
        if not braces.problems:
            return
        shown = show(key.pattern)
        for code, spans in zip(braces.problems, braces.problem_spans, strict=True):
            yield Violation(code, _message(code, shown, braces), spans=spans)
