"""VAL002 collection-elements."""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import FactRule, RuleContext, rule
from rediscipline.rules.gate import Gate, above
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.value.sizes import ELEMENT_NOUNS, VALUE_CHECKS, count_text, over_limit


@dataclass(frozen=True)
class CollectionElementsOptions(RuleOptions):
    max_elements: int = option(
        5000, "Warn when a hash, list, set, sorted set or stream has more elements than this (0 = off).", minimum=0
    )
    error_elements: int = option(100000, "Error when a collection has more elements than this (0 = off).", minimum=0)


@rule(
    "VAL002",
    "collection-elements",
    title=("Collection has too many elements", "集合元素过多"),
    severity=Severity.WARNING,
    where=VALUE_CHECKS,
    sources=(
        "001 §2.1 禁止使用bigkey",
        "003 §Value设计原则 — 2. 避免大Key问题",
        "002 §规范二：避免使用 bigkey",
        "000 §Value如何设计 — 大小以及素个数",
    ),
)
class CollectionElements(FactRule[CollectionElementsOptions]):
    """Checks the number of elements in hashes, lists, sets, sorted sets and streams.

    ## What it does
    Reads each collection's length (`HLEN`, `LLEN`, `SCARD`, `ZCARD`, `XLEN`) and reports those with more
    than `max-elements` elements as a warning, and more than `error-elements` as an error. A namespace that
    declares `max-elements` replaces the warning limit for its keys (and raises the error limit to it when
    it is higher). At run time (the guard), the number of elements a read of one key sent at once returned
    (HGETALL, HKEYS, HVALS, SMEMBERS, LRANGE, ZRANGE and the other whole-collection and range reads) is
    judged as that key's length; a read of several keys (SUNION, ZUNION) says nothing of one of them.

    ## Why is this bad?
    A collection with many elements is a bigkey: every O(N) command on it (HGETALL, LRANGE 0 -1,
    SMEMBERS, ZRANGE 0 -1) blocks the single Redis thread, and deleting it, expiring it or evicting it
    frees every element synchronously. 001 warns that a 2-million-member sorted set with a one-hour TTL
    blocks the server when it expires. 000 measures HGETALL on a hash of 5000 small fields at 25 ms.
    The error level, 100 000 elements, is ten times the most lenient document's limit (002's 10 000):
    there, freeing the key alone takes tens of milliseconds. Streams count too: like a list used as a
    queue, which 000 asks to keep short with LTRIM, a stream should be capped (`XADD … MAXLEN ~ n`).

    ## Example
    ```
    RPUSH user:browse:10086 "<item>"   # grows forever: 120 000 elements
    ```

    ## Use instead
    Cap the collection, or split it by time, id range or modulo:
    ```
    LPUSH user:browse:10086 "<item>"
    LTRIM user:browse:10086 0 99
    SADD lottery:winners#0 <uid>   # one of 1000 sets, chosen by uid % 1000
    ```

    ## Options
    - `max-elements`: warn above this many elements (default 5000, from 001 and 003; 002 allows 10 000,
      000 suggests 1000).
    - `error-elements`: error above this many elements (default 100000).

    ## Source
    - 001 §2.1 禁止使用bigkey: hash, list, set and zset elements must not exceed 5000.
    - 003 §Value设计原则 — 2. 避免大Key问题: more than 5000 elements or fields is a big key.
    - 002 §规范二：避免使用 bigkey: keep collections below 10 000 elements; split big ones.
    - 000 §Value如何设计 — 大小以及素个数: keep elements below 1000; HGETALL latency grows with the field count.
    - 000 §使用的命令请求遵守哪些规范？ — 消息队列或者通信: check a list queue's length and cut it with LTRIM.
    """

    Options = CollectionElementsOptions
    needs = frozenset({"type", "length"})
    types = frozenset({"hash", "list", "set", "zset", "stream"})

    reads_namespace = frozenset({"max-elements"})

    def gate(self, ctx: RuleContext[CollectionElementsOptions]) -> Gate:
        opts = ctx.options
        declared = ctx.namespace.max_elements if ctx.namespace is not None else None
        warn_limit = declared if declared else opts.max_elements
        return above("length", (warn_limit, max(opts.error_elements, warn_limit) if opts.error_elements else 0))

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[CollectionElementsOptions]) -> Violation | None:
        count = fact.length
        noun = ELEMENT_NOUNS.get(fact.type or "")
        if noun is None or count is None:
            return None
        opts = ctx.options
        declared = ctx.namespace.max_elements if ctx.namespace is not None else None
        warn_limit = declared if declared else opts.max_elements
        error_limit = max(opts.error_elements, warn_limit) if opts.error_elements else 0
        verdict = over_limit(count, warn_limit, error_limit)
        if verdict is None:
            return None
        code, limit, severity = verdict
        kind = fact.type
        return Violation(
            code,
            Text(
                f"{kind} of {count_text(count)} {noun.en} exceeds {count_text(limit)}: split it into smaller keys "
                "(by time, id range or modulo) or cap it",
                f"{kind} 有 {count_text(count)} {noun.zh}，超过 {count_text(limit)}：请按时间、ID 区间或取模拆分为"
                "多个小 Key，或限制其长度",
            ),
            severity,
            count,
        )
