"""VAL008 big-element."""

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
from rediscipline.rules.value.sizes import VALUE_CHECKS

#: Types whose elements a source samples for `largest_element`.
SAMPLED = {
    "hash": Text("a field or value", "字段或值"),
    "list": Text("an element", "元素"),
    "set": Text("a member", "成员"),
    "zset": Text("a member", "成员"),
}


@dataclass(frozen=True)
class BigElementOptions(RuleOptions):
    max_bytes: int = option(
        10240, "Warn when an element of a collection is larger than this many bytes (0 = off).", minimum=0
    )


@rule(
    "VAL008",
    "big-element",
    title=("Collection holds a big element", "集合中含有大元素"),
    severity=Severity.WARNING,
    where=VALUE_CHECKS,
    sources=(
        "000 §该如何设计数据结构以避开大Key和热Key — 属性相关信息",
        "001 §2.1 禁止使用bigkey",
        "003 §Value设计原则 — 2. 避免大Key问题",
    ),
)
class BigElement(FactRule[BigElementOptions]):
    """Checks for big elements inside hashes, lists, sets and sorted sets.

    ## What it does
    Reports a hash, list, set or sorted set when the largest element a bounded sample of it found (a hash
    field's value, a list element, a member) is larger than `max-bytes`. The sample looks at a limited
    number of elements, so a big element can be missed, never invented. At run time (the guard), the
    largest of the elements a command writes is judged: the members of SADD and ZADD, the elements of
    LPUSH and RPUSH, the values of HSET and HMSET.

    ## Why is this bad?
    One huge field in a hash is a big key in disguise: its element count looks harmless, yet HGET of that
    field, HGETALL, replication and deletion move it whole, exactly like a big string, which the documents
    cap at 10 KB. 000 goes further and asks for elements below 4 KB so that reading a collection stays
    cheap. A big element also costs the collection its compact encoding.

    ## Example
    ```
    HSET user:10086 name "Tom" avatar "<a 200 KB image>"
    ```

    ## Use instead
    Keep the big part in its own key, compressed, or outside Redis:
    ```
    HSET user:10086 name "Tom" avatar_url "https://cdn.example.com/a/10086.png"
    ```

    ## Options
    - `max-bytes`: warn when the largest sampled element is larger than this many bytes (default 10240: the
      10 KB string limit of 001 and 003; 000 suggests 4096).

    ## Source
    - 000 §该如何设计数据结构以避开大Key和热Key — 属性相关信息: the values of a collection's elements or members should stay below 4 KB; do not put a big JSON in a hash field.
    - 001 §2.1 禁止使用bigkey: strings within 10 KB.
    - 003 §Value设计原则 — 2. 避免大Key问题: a value over 10 KB is a big key.
    """  # noqa: E501 - the Source bullets are one line each in the generated docs

    Options = BigElementOptions
    needs = frozenset({"type", "element"})
    types = frozenset({"hash", "list", "set", "zset"})

    def gate(self, ctx: RuleContext[BigElementOptions]) -> Gate:
        return above("largest_element", (ctx.options.max_bytes,))

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[BigElementOptions]) -> Violation | None:
        size, limit = fact.largest_element, ctx.options.max_bytes
        noun = SAMPLED.get(fact.type or "")
        if noun is None or size is None or not limit or size <= limit:
            return None
        kind, shown, shown_limit = fact.type, human_bytes(size), human_bytes(limit)
        return Violation(
            "big-element",
            Text(
                f"{kind} holds {noun.en} of {shown}, above {shown_limit}: a big key in disguise; move it to its "
                "own key, compress it, or keep it outside Redis",
                f"{kind} 中有 {shown} 的{noun.zh}，超过 {shown_limit}：这是变相的大 Key；请将其移到独立的 Key、"
                "压缩，或存放到 Redis 之外",
            ),
            value=size,
        )
