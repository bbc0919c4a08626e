"""KEY012 hashtag-unneeded."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, scan_braces, show
from rediscipline.rules.options import RuleOptions, option

POLICIES = ("declared", "allowed", "forbidden")


@dataclass(frozen=True)
class HashtagUnneededOptions(RuleOptions):
    policy: str = option(
        "declared",
        "Where hashtags may appear: only in namespaces declaring `hashtag` (declared), anywhere (allowed), "
        "or nowhere (forbidden).",
        choices=POLICIES,
    )


@rule(
    "KEY012",
    "hashtag-unneeded",
    title=("Hashtag where none is needed", "不需要的 hashtag"),
    severity=Severity.NOTE,
    where=NAMING_CHECKS,
    sources=("000 §Key 名字如何设计 — 命名",),
    overlaps=NAME_OVERLAPS,
)
class HashtagUnneeded(NameRule[HashtagUnneededOptions]):
    """Checks that hashtags appear only where the key schema asks for them.

    ## What it does
    With the default `policy = "declared"`, a key with a hashtag (`user:{12345}:cart`) is reported
    (code `unneeded`) unless its declared namespace sets `hashtag = "required"` or `"allowed"`.
    Namespace policies are enforced whatever the option: in a namespace with `hashtag = "required"` a key
    without a usable tag is reported (code `missing`, a warning: multi-key commands on these keys will fail
    with CROSSSLOT on a cluster), and in one with `hashtag = "forbidden"` any brace is (code `forbidden`,
    a warning). `policy = "forbidden"` reports every brace outside a namespace that allows them, and
    `policy = "allowed"` never reports an unneeded tag. Malformed braces are KEY011's.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    A hashtag makes Redis Cluster place keys by the tag instead of the whole name. That is needed only
    when several keys must be in one slot, for multi-key commands, transactions or Lua scripts. Anywhere
    else it only takes the even spread of keys away from the cluster: a tag with few distinct values puts
    whole families of keys on one shard. Some providers treat `{}` as a forbidden character.

    ## Example
    A profile read and written on its own, which needs no tag:
    ```
    user:{12345}:profile
    ```

    ## Use instead
    ```
    user:profile:12345
    ```
    When keys are used together (a cart and its items in one transaction), keep the tag and declare their
    namespace in the convention file: `[namespaces."cart:*"]` with `hashtag = "required"`.

    ## Options
    - `policy`: `declared` (default: tags only in namespaces declaring `hashtag = "required"` or
      `"allowed"`), `allowed` (never report an unneeded tag) or `forbidden` (report every brace outside
      namespaces that allow tags; the `tencent` preset, whose character set excludes `{}`).

    ## Source
    - 000 §Key 名字如何设计 — 命名: where no hashtag is needed, `{}` must not be used; if it must be used
      for a special reason, consider turning the hashtag feature off in the console.
    """

    Options = HashtagUnneededOptions

    reads_namespace = frozenset({"hashtag"})

    def check(
        self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[HashtagUnneededOptions]
    ) -> Iterator[Violation]:
        braces = scan_braces(key)
        namespace = ctx.namespace
        declared = namespace.hashtag if namespace is not None else None
        shown = show(key.pattern)
        if namespace is not None and declared == "required":
            if braces.tag is None:
                yield Violation(
                    "missing",
                    Text(
                        f"`{shown}` has no hashtag, but namespace `{namespace.pattern}` requires one: put the id "
                        "its keys share in braces (`cart:{12345}:items`) so they stay in one cluster slot",
                        f"`{shown}` 没有 hashtag，但命名空间 `{namespace.pattern}` 要求使用：把这些 Key 共享的 ID "
                        "放进括号（`cart:{12345}:items`），使它们落在同一个集群槽位",
                    ),
                    Severity.WARNING,
                )
            return
        if not braces.count or declared == "allowed":
            return
        if namespace is not None and declared == "forbidden":
            yield Violation(
                "forbidden",
                Text(
                    f"`{shown}` has braces, but namespace `{namespace.pattern}` forbids hashtags: remove them",
                    f"`{shown}` 含有括号，但命名空间 `{namespace.pattern}` 禁止使用 hashtag：请去掉括号",
                ),
                Severity.WARNING,
                spans=braces.braces,
            )
        elif ctx.options.policy == "forbidden":
            yield Violation(
                "forbidden",
                Text(
                    f"`{shown}` has braces: this convention forbids `{{}}` in key names (they are hashtag "
                    'syntax); remove them, or declare the namespace with hashtag = "allowed" if multi-key '
                    "operations need its keys in one slot",
                    f"`{shown}` 含有括号：本规范禁止在键名中使用 `{{}}`（与 hashtag 语法冲突）；请去掉括号，"
                    '如果多 Key 操作需要这些 Key 在同一槽位，请将其命名空间声明为 hashtag = "allowed"',
                ),
                spans=braces.braces,
            )
        elif ctx.options.policy == "declared" and braces.tag is not None:
            tag = braces.shown_tag
            yield Violation(
                "unneeded",
                Text(
                    f"`{shown}` uses the hashtag {tag} outside a namespace that declares one: drop the braces "
                    "unless multi-key commands, transactions or Lua scripts need these keys in one cluster slot; "
                    'if they do, declare the namespace with hashtag = "allowed" (or "required")',
                    f"`{shown}` 在未声明 hashtag 的命名空间中使用了 {tag}：如果多 Key 命令、事务或 Lua 脚本"
                    '不需要这些 Key 位于同一集群槽位，请去掉括号；如果需要，请将其命名空间声明为 hashtag = "allowed"'
                    '（或 "required"）',
                ),
                spans=braces.tag_braces,
            )
