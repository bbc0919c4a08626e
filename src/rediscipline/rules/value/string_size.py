"""VAL001 string-size."""

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
from rediscipline.rules.value.sizes import VALUE_CHECKS, is_dense_hll, over_limit


@dataclass(frozen=True)
class StringSizeOptions(RuleOptions):
    max_bytes: int = option(10240, "Warn when a string value is larger than this many bytes (0 = off).", minimum=0)
    error_bytes: int = option(1048576, "Error when a string value is larger than this many bytes (0 = off).", minimum=0)


@rule(
    "VAL001",
    "string-size",
    title=("String value too big", "字符串值过大"),
    severity=Severity.WARNING,
    where=VALUE_CHECKS,
    sources=(
        "000 §Value如何设计 — 大小以及素个数",
        "001 §2.1 禁止使用bigkey",
        "002 §规范二：避免使用 bigkey",
        "003 §Value设计原则 — 2. 避免大Key问题",
    ),
)
class StringSize(FactRule[StringSizeOptions]):
    """Checks the size of string values.

    ## What it does
    Measures every string value in bytes (`STRLEN`) and reports those larger than `max-bytes` as a
    warning, and those larger than `error-bytes` as an error. A dense HyperLogLog (a string of exactly
    12 304 bytes starting with `HYLL`) is a fixed-size structure Redis chose, not a value: it is skipped.
    At run time (the guard), the value each SET, SETEX, PSETEX, SETNX, GETSET, MSET, MSETNX or APPEND
    writes is measured as it is sent (for APPEND, the part appended).

    ## Why is this bad?
    Redis runs commands on one thread: reading, writing, copying to replicas, deleting or expiring a big
    value blocks every other client for as long as it takes, and sends that many bytes over the network on
    every read. All four documents put the line for a string at 10 KB: 001 measures a clear slowdown past
    10 KB, 100 KB and 1 MB, and 002 gives a 1 MB string as its example of a bigkey, hence the error level.
    Big bitmaps are strings too and are reported: shard them (by id range) like any big value.

    ## Example
    ```
    SET product:detail:10001 "<a 40 KB JSON document>"
    ```

    ## Use instead
    Split the value into smaller keys or into the fields of a hash, keep only what is read together, or
    compress it:
    ```
    HSET product:10001 title "…" price 9999 stock 23
    SET product:desc:10001 "<gzip-compressed description>"
    ```

    ## Options
    - `max-bytes`: warn above this many bytes (default 10240: 10 KB, from 000, 001, 002 and 003).
    - `error-bytes`: error above this many bytes (default 1048576: 1 MB, 001's and 002's bigkey examples).

    ## Source
    - 000 §Value如何设计 — 大小以及素个数: strings within a few hundred bytes, below 1 KB, at most 10 KB; below 4 KB when read by MGET or a pipeline.
    - 001 §2.1 禁止使用bigkey: strings within 10 KB; performance drops clearly past 10 KB, 100 KB and 1 MB.
    - 002 §规范二：避免使用 bigkey: keep strings below 10 KB; a 1 MB string is a bigkey.
    - 003 §Value设计原则 — 2. 避免大Key问题: a string over 10 KB is a big key.
    """  # noqa: E501 - the Source bullets are one line each in the generated docs

    Options = StringSizeOptions
    needs = frozenset({"type", "length"})
    types = frozenset({"string"})

    def gate(self, ctx: RuleContext[StringSizeOptions]) -> Gate:
        return above("length", (ctx.options.max_bytes, ctx.options.error_bytes))

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[StringSizeOptions]) -> Violation | None:
        size = fact.length
        if fact.type != "string" or size is None or is_dense_hll(size, fact.head):
            return None
        opts = ctx.options
        verdict = over_limit(size, opts.max_bytes, opts.error_bytes)
        if verdict is None:
            return None
        code, limit, severity = verdict
        shown, shown_limit = human_bytes(size), human_bytes(limit)
        return Violation(
            code,
            Text(
                f"string of {shown} exceeds {shown_limit}: split it into smaller keys or hash fields, or compress it",
                f"字符串 {shown}，超过 {shown_limit}：请拆分为更小的 Key 或 Hash 字段，或压缩后存储",
            ),
            severity,
            size,
        )
