"""VAL004 compact-encoding-lost."""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.plan import SERVER_CONFIG
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.redis_meta.encodings import LIST_NODE_MAX_BYTES
from rediscipline.redis_meta.versions import HASH_FIELD_TTL, LISTPACK_SETTINGS, SMALL_SETS_AND_LISTS_AS_LISTPACK, VALKEY
from rediscipline.rules.base import FactRule, RuleContext, rule
from rediscipline.rules.gate import NEVER, Gate, when
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.value.sizes import ELEMENT_NOUNS, STORED_CHECKS, count_text

#: The encoding a collection falls back to when it outgrows its compact one.
NON_COMPACT = {"hash": "hashtable", "zset": "skiplist", "set": "hashtable", "list": "quicklist"}
#: What must stay short for each type to keep its compact encoding.
ELEMENT = {
    "hash": Text("field or value", "字段或值"),
    "zset": Text("member", "成员"),
    "set": Text("member", "成员"),
}
#: Redis 7 defaults: (config name, default) for the entries and value limits; earlier names say `ziplist`.
DEFAULTS = {
    "hash": (("hash-max-listpack-entries", 512), ("hash-max-listpack-value", 64)),
    "zset": (("zset-max-listpack-entries", 128), ("zset-max-listpack-value", 64)),
    "set": (("set-max-listpack-entries", 128), ("set-max-listpack-value", 64)),
}
LIST_FILL = ("list-max-listpack-size", -2)


def _valkey_field_ttl(server: ServerFact) -> bool:
    """Valkey keeps a hash with per-field TTLs out of the listpack encoding (Redis has listpackEx for it)."""
    return server.flavor == VALKEY and HASH_FIELD_TTL.available(VALKEY, server.version_tuple)


@dataclass(frozen=True)
class CompactEncodingOptions(RuleOptions):
    near: float = option(
        0.2, "Report a collection at most this fraction above its entries limit (0.2 = 20 %; 0 = off).", minimum=0
    )


@dataclass(frozen=True, slots=True)
class _Limits:
    """One type's compact-encoding limits on this server, with the config names to quote."""

    compact: str
    entries_name: str
    entries: int
    value_name: str
    value: int


def _setting(server: ServerFact | None, name: str, default: int, old_names: bool) -> tuple[str, int]:
    """A limit from the server's config (its `ziplist` alias on Redis < 7), else the default."""
    old_name = name.replace("listpack", "ziplist")
    if server is not None and server.config is not None:
        for candidate in (name, old_name):
            found = server.config_int(candidate)
            if found is not None:
                return candidate, found
    return (old_name if old_names else name), default


def _limits(kind: str, server: ServerFact | None) -> _Limits | None:
    """The limits that decide `kind`'s encoding here, or None when no length can show a lost encoding."""
    flavor, version = (server.flavor, server.version_tuple) if server is not None else ("", ())
    old_names = bool(version) and not LISTPACK_SETTINGS.available(flavor, version)  # known to say `ziplist`
    small_listpacks = SMALL_SETS_AND_LISTS_AS_LISTPACK.available(flavor, version)
    compact = "ziplist" if old_names else "listpack"
    if kind == "list":
        # Before 7.2 every list is a quicklist; with a negative size the node limit is bytes, not a count.
        if not small_listpacks:
            return None
        fill_name, fill = _setting(server, *LIST_FILL, old_names)
        if fill <= 0:
            return None
        return _Limits(compact, fill_name, fill, fill_name, LIST_NODE_MAX_BYTES)
    if kind == "set":
        has_setting = server is not None and server.config_value("set-max-listpack-entries") is not None
        if not small_listpacks and not has_setting:
            return None  # only integer sets (intsets) are compact there, and the members are not known
    (entries_key, entries_default), (value_key, value_default) = DEFAULTS[kind]
    entries_name, entries = _setting(server, entries_key, entries_default, old_names)
    value_name, value = _setting(server, value_key, value_default, old_names)
    return _Limits(compact, entries_name, entries, value_name, value)


@rule(
    "VAL004",
    "compact-encoding-lost",
    title=("Collection lost its compact encoding", "集合失去紧凑编码"),
    severity=Severity.NOTE,
    where=STORED_CHECKS,
    sources=(
        "000 §Value如何设计 — 大小以及素个数",
        "003 §Value设计原则 — 5. 利用编码优化",
        "002 §规范二：避免使用 bigkey",
    ),
)
class CompactEncodingLost(FactRule[CompactEncodingOptions]):
    """Checks for small collections that lost the compact encoding their size allows.

    ## What it does
    Compares each hash, sorted set, set and list's encoding (`OBJECT ENCODING`) and length with the limits
    of the server it lives on (`CONFIG GET`; Redis 7 defaults when the config cannot be read:
    `hash-max-listpack-entries 512` / `-value 64`, `zset-max-listpack-entries 128` / `-value 64`,
    `set-max-listpack-entries 128` / `-value 64`; the `ziplist` names on Redis < 7). Two findings:

    - `element-too-big`: the collection is a `hashtable` or `skiplist` although its length is within the
      entries limit, so some element is longer than the `*-value` limit (or the key was once larger:
      encodings do not convert back until the key is rewritten or reloaded; on Valkey 9 a hash field with
      its own TTL has the same effect).
    - `just-over`: the length is at most `near` above the entries limit, so capping or splitting it a
      little would keep it compact.

    Sets are judged only on Redis/Valkey 7.2 and later (before, only all-integer sets are compact, and
    the members are not known). Lists are judged only from 7.2 and only when `list-max-listpack-size` is a
    positive count: before 7.2 every list is a quicklist, and with the default (-2) the limit is 8 KB of
    bytes, which the length cannot show; a quicklist then costs little more than a listpack anyway. A list
    turns back into a listpack once it shrinks to half its limit, so `element-too-big` needs a list within
    half the limit.

    ## Why is this bad?
    A listpack stores a small collection as one contiguous block, up to ten times (five on average,
    per the Redis memory-optimization guide) smaller than a hashtable or skiplist, whose every element
    carries pointers and its own allocation. A collection that
    just misses the limits, by one 70-byte value or by a few elements, pays that overhead on every key of
    its pattern. 000 lists the limits to stay under; 002 notes the trade-off (compact encodings are a
    little slower), which is why this is a note.

    ## Example
    ```
    HSET user:data:10086 name "Tom" big_field "<more than 64 bytes ...>"   # hashtable, 2 fields
    ZADD rank:daily:20240101 ...                                       # 140 members: skiplist
    ```

    ## Use instead
    ```
    HSET user:profile:10086 name "Tom" age "25"      # listpack: short fields and values
    SET user:bio:10086 "<the long text>"             # the long value in its own key
    CONFIG SET zset-max-listpack-entries 160         # or raise the limit a little (002's trade-off)
    ```

    ## Options
    - `near`: report a collection at most this fraction above its entries limit (default 0.2, i.e. 20 %;
      0 turns `just-over` off).

    ## Source
    - 000 §Value如何设计 — 大小以及素个数: under the default configuration, hashes and sets of at most 512 members, sorted sets of at most 128, and members of at most 64 bytes use a compact encoding that lowers Redis's own overhead.
    - 003 §Value设计原则 — 5. 利用编码优化: small objects as hashes stay ziplist-encoded; a field over 64 bytes loses it.
    - 002 §规范二：避免使用 bigkey: collections below a threshold use a memory-compact structure; it costs some speed.
    """  # noqa: E501 - the Source bullets are one line each in the generated docs

    Options = CompactEncodingOptions
    needs = frozenset({"type", "length", "encoding"})
    types = frozenset({"hash", "list", "set", "zset"})
    reads_server = frozenset({SERVER_CONFIG})

    def gate(self, ctx: RuleContext[CompactEncodingOptions]) -> Gate:
        """Per type with limits here: its non-compact encoding, at a length `_judge` can report (at most the
        entries limit plus `near` of it)."""
        gate = NEVER
        for kind, encoding in NON_COMPACT.items():
            limits = _limits(kind, ctx.server)
            if limits is None or limits.entries <= 0:
                continue
            longest = limits.entries * (1 + ctx.options.near)
            gate |= when("type", "==", kind, ("encoding", "==", encoding), ("length", "<=", longest))
        return gate

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[CompactEncodingOptions]) -> Violation | None:
        kind, count = fact.type or "", fact.length
        if count is None or fact.encoding is None or fact.encoding != NON_COMPACT.get(kind):
            return None
        memo = ctx.memo  # the verdict depends on the kind and count alone: few values, many keys
        found = memo.get((kind, count))
        if found is None and (kind, count) not in memo:
            if len(memo) >= 10_000:  # counts of big collections are many and never fire: keep the memo small
                memo.clear()
            found = memo[(kind, count)] = self._judge(kind, count, fact.encoding, ctx)
        return found

    def _judge(
        self, kind: str, count: int, encoding: str, ctx: RuleContext[CompactEncodingOptions]
    ) -> Violation | None:
        limits = _limits(kind, ctx.server)
        if limits is None or limits.entries <= 0:
            return None
        # A list converts back to a listpack by itself, but only once it shrinks to half its limit (t_list.c).
        small = limits.entries // 2 if kind == "list" else limits.entries
        if count <= small:
            return self._too_big(kind, count, encoding, limits, ctx.server)
        if limits.entries < count <= limits.entries * (1 + ctx.options.near):
            return self._just_over(kind, count, encoding, limits)
        return None

    def _too_big(self, kind: str, count: int, encoding: str, limits: _Limits, server: ServerFact | None) -> Violation:
        noun, shown = ELEMENT_NOUNS[kind], count_text(count)
        head = Text(
            f"{kind} has only {shown} {noun.en} yet is a {encoding}, not a {limits.compact}",
            f"{kind} 只有 {shown} {noun.zh}，却是 {encoding} 编码而不是 {limits.compact}",
        )
        entries = f"{limits.entries_name} ({limits.entries})"
        if kind == "list":
            kb = LIST_NODE_MAX_BYTES // 1024
            cause = Text(
                f": its elements total more than {kb} KB, the most one listpack holds even when {entries} counts "
                "elements (or it was once longer); keep the elements small",
                f"：其元素总计超过 {kb} KB，即使 {entries} 按个数限制，一个 listpack 最多也只能容纳这么多"
                "（或它曾经更长）；请保持元素短小",
            )
        else:
            element = ELEMENT[kind]
            extra = Text("", "")
            if kind == "hash" and server is not None and _valkey_field_ttl(server):
                extra = Text(", a field has its own TTL", "、有字段设置了独立的过期时间")
            cause = Text(
                f": a {element.en} is longer than {limits.value_name} ({limits.value} bytes){extra.en}, or it once "
                f"had more than {entries}; keep every {element.en} within {limits.value} bytes, long ones in their "
                "own keys",
                f"：有{element.zh}超过 {limits.value_name}（{limits.value} 字节）{extra.zh}，或它曾经超过 {entries}；"
                f"请将每个{element.zh}控制在 {limits.value} 字节以内，过长的放到独立的 Key",
            )
        return Violation("element-too-big", Text(head.en + cause.en, head.zh + cause.zh), value=count)

    def _just_over(self, kind: str, count: int, encoding: str, limits: _Limits) -> Violation:
        noun, shown = ELEMENT_NOUNS[kind], count_text(count)
        entries = f"{limits.entries_name} ({limits.entries})"
        if kind == "list":  # a quicklist of a few nodes costs little more; a list converts back by itself
            compact, later = Text("one listpack", "单个 listpack"), Text("", "")
        else:
            compact = Text(f"a {limits.compact} several times smaller", f"小几倍的 {limits.compact}")
            later = Text(
                "; an existing key converts back only when rewritten or reloaded",
                "；已有的 Key 只有重写或重新加载后才会转回",
            )
        return Violation(
            "just-over",
            Text(
                f"{kind} has {shown} {noun.en}, just over {entries}, so it is a {encoding} instead of {compact.en}: "
                f"cap or split it to at most {limits.entries}, or raise the limit a little{later.en}",
                f"{kind} 有 {shown} {noun.zh}，刚超过 {entries}，因此是 {encoding} 编码而不是{compact.zh}："
                f"请将其限制或拆分到 {limits.entries} 以内，或略微调高该限制{later.zh}",
            ),
            value=count,
        )
