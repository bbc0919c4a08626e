"""TTL001 missing-ttl."""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import FactRule, RuleContext, rule
from rediscipline.rules.gate import Gate, when
from rediscipline.rules.options import RuleOptions, option

#: The same words for every key without a TTL: built once, not once per key (a live scan meets millions).
_MISSING = Violation(
    "missing",
    Text(
        "key has no TTL and stays until deleted: set one when writing it (SET … EX, EXPIRE)",
        "Key 没有过期时间，会一直保留到被删除：写入时设置 TTL（SET … EX、EXPIRE）",
    ),
)


@dataclass(frozen=True)
class MissingTtlOptions(RuleOptions):
    required: bool = option(
        True, "Report keys without a TTL outside namespaces that declare `ttl-required` themselves."
    )


@rule(
    "TTL001",
    "missing-ttl",
    title=("Key without a TTL", "Key 未设置过期时间"),
    severity=Severity.WARNING,
    where=("live", "rdb"),
    sources=(
        "001 §2.3 控制key的生命周期",
        "000 §Key 名字如何设计 — 过期",
        "002 §数据保存规范 — 规范三：在数据保存时，要设置过期时间",
        "001 §过期时间",
        "003 §大批量Key过期引发的性能问题 — 方案2: 使用惰性删除",
    ),
)
class MissingTtl(FactRule[MissingTtlOptions]):
    """Checks that every key has an expiry.

    ## What it does
    Reports keys whose TTL is -1, i.e. keys that never expire. Keys in a namespace declared
    `ttl-required = true` are errors; keys in a namespace declared `ttl-required = false` are never
    reported; every other key is a warning unless `required` is turned off. Keys whose TTL was not probed
    are not judged.

    It is a warning rather than an error by default because the documents themselves allow exceptions:
    001 advises against a TTL on big collections and hot keys, and 003 presents "no TTL, evict with
    allkeys-lru under maxmemory" as a valid design. Declare such namespaces `ttl-required = false`.

    ## Why is this bad?
    Redis keeps everything in memory. A key without an expiry stays until something deletes it, so
    data nobody reads any more ("zombie keys") accumulates until the instance reaches its memory limit,
    then evicts useful data or refuses writes.

    ## Example
    ```
    SET product:cache:10001 "{...}"
    HSET user:session:abc123 uid 42
    ```

    ## Use instead
    Set the TTL in the same command that writes the key, with a random part (see `expiry-cliff`):
    ```
    SET product:cache:10001 "{...}" EX 3743
    HSET user:session:abc123 uid 42
    EXPIRE user:session:abc123 7200
    ```

    ## Options
    - `required`: report keys without a TTL outside namespaces that declare `ttl-required` (default
      true). Turn it off in a preset that follows 003's allkeys-lru design while declared namespaces
      keep their own requirement.

    ## Source
    - 001 §2.3: all keys must have an expiry; set it with EXPIRE to avoid zombie keys.
    - 000 §过期: we suggest every key has an expiry, especially keys written in bulk.
    - 002 §规范三: set an expiry when saving data, according to how long the business uses it.
    - 001 §过期时间: strings should expire; big collections and hot keys are better without a TTL.
    - 003 §方案2: no TTL, relying on maxmemory with allkeys-lru, is a valid design when memory allows.
    """

    Options = MissingTtlOptions
    needs = frozenset({"ttl"})

    reads_namespace = frozenset({"ttl-required"})
    uniform = True  # a key without a TTL is reported, or not, by its namespace and the options alone

    def gate(self, ctx: RuleContext[MissingTtlOptions]) -> Gate:
        return when("ttl_ms", "==", -1)

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[MissingTtlOptions]) -> Violation | None:
        if fact.ttl_ms != -1:
            return None
        namespace = ctx.namespace
        declared = namespace.ttl_required if namespace is not None else None
        if declared is None:
            if ctx.options.required:
                return _MISSING
        elif declared and namespace is not None:
            return Violation(
                "missing",
                Text(
                    f"key has no TTL, but namespace {namespace.pattern} requires one: set it when writing the "
                    "key (SET … EX, EXPIRE)",
                    f"Key 没有过期时间，但命名空间 {namespace.pattern} 要求设置：写入时设置 TTL（SET … EX、EXPIRE）",
                ),
                Severity.ERROR,
            )
        return None
