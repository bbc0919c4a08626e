"""CMD008 delete-collection."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.code import CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.glob import GlobMatcher, specificity
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.namespace import NamespacePolicy
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.key.template_parts import show
from rediscipline.rules.options import RuleOptions, option

#: Progressive deletion of a collection of each type, in small steps.
PROGRESSIVE = {
    "hash": "HSCAN + HDEL",
    "set": "SSCAN + SREM",
    "zset": "ZSCAN + ZREM",
    "list": "LTRIM",
    "stream": "XTRIM",
}
_ANY = "HSCAN/SSCAN/ZSCAN"


@dataclass(frozen=True)
class DeleteCollectionOptions(RuleOptions):
    types: tuple[str, ...] = option(
        ("list", "hash", "set", "zset", "stream"), "Declared namespace types whose keys DEL must not delete."
    )


def _declared(namespace: NamespacePolicy, types: tuple[str, ...]) -> Text | None:
    """What the namespace declares that makes its keys big collections, or None when it declares neither."""
    if namespace.type in types:
        return Text(f"declares type {namespace.type}", f"声明了类型 {namespace.type}")
    if namespace.max_elements is not None:
        count = f"{namespace.max_elements:,}"
        return Text(f"declares up to {count} elements", f"声明最多 {count} 个元素")
    return None


@rule(
    "CMD008",
    "delete-collection",
    title=("DEL of a collection", "使用 DEL 删除集合"),
    severity=Severity.WARNING,
    where=("code", "runtime"),
    sources=(
        "000 §使用的命令请求遵守哪些规范？ — 数据删除",
        "001 §2.1 禁止使用bigkey",
    ),
)
class DeleteCollection(CallRule[DeleteCollectionOptions]):
    """Checks that collections are not deleted with DEL.

    ## What it does
    Reports DEL calls (redis-py's `delete`) whose key belongs to a declared namespace with a collection
    `type` listed in `types`, or with `max-elements` (code `del`): in code, and at run time (the guard)
    every DEL sent, at once or on a pipeline, on its first three keys. Keys outside declared namespaces
    are not judged: neither the code nor the DEL sent shows whether they are collections.

    ## Why is this bad?
    DEL frees a collection on the server's main thread, one element at a time: deleting a hash or a
    sorted set of a million members blocks every client for a second or more. UNLINK (Redis ≥ 4) removes
    the key at once and frees the memory in a background thread; on older servers the collection has to
    be emptied in small steps first.

    ## Example
    ```python
    r.delete(f"rank:daily:{day}")   # namespace "rank:*" declared type = "zset"
    ```

    ## Use instead
    ```python
    r.unlink(f"rank:daily:{day}")
    ```
    On Redis before 4.0, delete progressively: `ZSCAN` + `ZREM` (or `ZREMRANGEBYRANK`) in batches of
    100, `HSCAN` + `HDEL` for a hash, `SSCAN` + `SREM` for a set, `LTRIM` for a list.

    ## Options
    - `types`: declared namespace types whose keys DEL must not delete (default list, hash, set, zset,
      stream).

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 数据删除: for DEL of collection keys known to hold many elements,
      use UNLINK on Redis ≥ 4.0, and HSCAN/SSCAN/ZSCAN on older versions.
    - 001 §2.1 禁止使用bigkey: do not DEL non-string big keys; delete them progressively with
      hscan/sscan/zscan.
    """

    Options = DeleteCollectionOptions

    reads_namespace = frozenset({"type", "max-elements"})

    def check(self, call: CodeCall, ctx: RuleContext[DeleteCollectionOptions]) -> Iterator[Violation]:
        if call.command != "del":
            return
        for key, namespace in _namespaces_of(call, ctx):
            declared = _declared(namespace, ctx.options.types)
            if declared is None:
                continue
            shown_key = f"`{show(key.pattern)}`" if key is not None else namespace.pattern
            steps = PROGRESSIVE.get(namespace.type or "", _ANY)
            yield Violation(
                "del",
                Text(
                    f"DEL of {shown_key} (namespace {namespace.pattern} {declared.en}) frees the whole collection "
                    f"on the server's main thread: use UNLINK (Redis ≥ 4) to free it in the background, or delete "
                    f"it progressively with {steps} in small batches",
                    f"DEL 删除 {shown_key}（命名空间 {namespace.pattern} {declared.zh}）会在主线程上释放整个集合："
                    f"请改用 UNLINK（Redis ≥ 4）在后台释放，或用 {steps} 小批量渐进删除",
                ),
            )
            return  # one finding per call: the first collection it deletes


def _namespaces_of(
    call: CodeCall, ctx: RuleContext[DeleteCollectionOptions]
) -> Iterator[tuple[KeyTemplate | None, NamespacePolicy]]:
    """Each deleted key with its declared namespace (the most specific glob that matches its pattern);
    the call's own namespace first, which is all there is when no key could be read."""
    if ctx.namespace is not None:
        yield (call.keys[0] if call.keys else None), ctx.namespace
    if not ctx.namespaces:
        return
    ordered = sorted(ctx.namespaces, key=lambda ns: specificity(ns.pattern), reverse=True)
    matcher = GlobMatcher([ns.pattern for ns in ordered])
    for key in call.keys[1:]:
        index = matcher.match(key.pattern)
        if index is not None:
            yield key, ordered[index]
