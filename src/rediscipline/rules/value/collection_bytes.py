"""VAL003 collection-bytes."""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import FactRule, RuleContext, rule
from rediscipline.rules.gate import Gate, above
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.value.sizes import COLLECTIONS, STORED_CHECKS, over_limit


@dataclass(frozen=True)
class CollectionBytesOptions(RuleOptions):
    max_bytes: int = option(
        1048576, "Warn when a collection takes more memory than this many bytes (0 = off).", minimum=0
    )
    error_bytes: int = option(
        52428800, "Error when a collection takes more memory than this many bytes (0 = off).", minimum=0
    )


@rule(
    "VAL003",
    "collection-bytes",
    title=("Collection takes too much memory", "集合占用内存过大"),
    severity=Severity.WARNING,
    where=STORED_CHECKS,
    sources=("000 §Value如何设计 — 大小以及素个数", "002 §规范二：避免使用 bigkey"),
)
class CollectionBytes(FactRule[CollectionBytesOptions]):
    """Checks the memory taken by hashes, lists, sets, sorted sets and streams.

    ## What it does
    Reads each collection's memory (`MEMORY USAGE`, or the size in a dump) and reports those above
    `max-bytes` as a warning and above `error-bytes` as an error. Strings are measured by `string-size`
    (VAL001); here only collections count, so a hash of 200 fields holding 50 KB each is caught even
    though its element count looks harmless.

    ## Why is this bad?
    A collection's cost is its bytes as much as its element count: a few big elements make a big key
    that blocks the server when it is read whole, deleted, expired, migrated between cluster slots or
    copied to a replica. 000 asks to keep one key's value within 1 MB. The error level, 50 MB, is where
    cloud vendors define a collection as a big key outright (Huawei DCS).
    `MEMORY USAGE` samples five elements of a collection by default, so the measure is an estimate.

    ## Example
    ```
    HSET article:10001 body "<300 KB>" comments "<900 KB>" ...
    ```

    ## Use instead
    Keep big parts in their own keys, and split a collection that keeps growing:
    ```
    HSET article:10001 title "…" author 42
    SET article:body:10001 "<compressed body>"
    ```

    ## Options
    - `max-bytes`: warn above this many bytes (default 1048576: 1 MB, from 000).
    - `error-bytes`: error above this many bytes (default 52428800: 50 MB).

    ## Source
    - 000 §Value如何设计 — 大小以及素个数: keep one key's value within 1 MB, and elements below 1000.
    - 002 §规范二：避免使用 bigkey: a bigkey blocks the single thread; split big collections into small ones.
    """

    Options = CollectionBytesOptions
    needs = frozenset({"type", "memory"})
    types = frozenset({"hash", "list", "set", "zset", "stream"})

    def gate(self, ctx: RuleContext[CollectionBytesOptions]) -> Gate:
        return above("memory", (ctx.options.max_bytes, ctx.options.error_bytes))

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[CollectionBytesOptions]) -> Violation | None:
        size = fact.memory
        if fact.type not in COLLECTIONS or size is None:
            return None
        opts = ctx.options
        verdict = over_limit(size, opts.max_bytes, opts.error_bytes)
        if verdict is None:
            return None
        code, limit, severity = verdict
        kind, shown, shown_limit = fact.type, human_bytes(size), human_bytes(limit)
        return Violation(
            code,
            Text(
                f"{kind} takes {shown} of memory, above {shown_limit}: move big elements to their own keys or split "
                "it into smaller collections",
                f"{kind} 占用内存 {shown}，超过 {shown_limit}：请把大元素移到独立的 Key，或拆分为多个小集合",
            ),
            severity,
            size,
        )
