"""KEY018 undeclared-namespace."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, has_unknown, show
from rediscipline.rules.options import RuleOptions


@rule(
    "KEY018",
    "undeclared-namespace",
    title=("Key outside every declared namespace", "Key 不属于任何已声明的命名空间"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 命名",
        "001 §1.2 可读性和可管理性",
        "001 §使用规范 — 4",
        "002 §规范一：key 的命名规范",
    ),
    overlaps=NAME_OVERLAPS,
)
class UndeclaredNamespace(NameRule[RuleOptions]):
    """Checks that every key belongs to one of the namespaces the team declared.

    ## What it does
    When the convention file declares namespaces (`[namespaces."user:*"]`), reports each key that matches
    none of them, naming its prefix (first level) and suggesting a namespace to declare. When no namespace
    is declared the rule is silent. In code, a key whose prefix is computed at run time is not reported:
    its namespace cannot be known there. At run time (the guard), every key the application sends is
    judged, whatever built its name.

    ## Why is this bad?
    The documents make the business prefix the key's owner: it says which team and which service a key
    belongs to, keeps businesses from colliding, and is what an instance is split on later. A prefix nobody
    declared is a key without an owner — often a typo (`usr:` next to `user:`), a debugging leftover, or a
    second business quietly sharing the instance. Declaring namespaces also gives each one its policies
    (type, TTL, hashtag), which undeclared keys escape.

    ## Example
    ```
    # namespaces declared: user:*, order:*
    usr:profile:10086
    tmp_debug_42
    ```

    ## Use instead
    ```
    user:profile:10086
    # or declare the namespace: [namespaces."tmp:*"] with its owner in `description`
    ```

    ## Options
    None.

    ## Source
    - 000 §Key 名字如何设计 — 命名: the business identifier is the key's prefix, to locate problems quickly.
    - 001 §1.2 可读性和可管理性: prefix with the business (or database) name to avoid collisions.
    - 001 §使用规范 — 4: businesses must not share a key.
    - 002 §规范一：key 的命名规范: the business name as prefix separates each business's data.
    """

    def check(self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        if not ctx.namespaces or ctx.namespace is not None:
            return
        segments = key.segments()
        first = segments[0]
        if has_unknown(first):
            return
        prefix = show(first.display)
        glob = f"{prefix}:*" if len(segments) > 1 else prefix
        yield Violation(
            "undeclared",
            Text(
                f'prefix `{prefix}` matches no declared namespace: fix the prefix or declare [namespaces."{glob}"]',
                f'前缀 `{prefix}` 不属于任何已声明的命名空间：请修正前缀，或声明 [namespaces."{glob}"]',
            ),
        )
