"""TTL005 big-key-sync-expire."""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.plan import SERVER_CONFIG
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import FactRule, RuleContext, rule
from rediscipline.rules.gate import NEVER, Gate, above
from rediscipline.rules.options import RuleOptions, option

SETTING = "lazyfree-lazy-expire"


@dataclass(frozen=True)
class BigKeySyncExpireOptions(RuleOptions):
    min_elements: int = option(
        5000, "A collection with more elements than this is big (0 = do not judge by elements).", minimum=0
    )
    min_bytes: int = option(
        1024 * 1024, "A collection using more bytes than this is big (0 = do not judge by bytes).", minimum=0
    )


@rule(
    "TTL005",
    "big-key-sync-expire",
    title=("Big key expires on the main thread", "大 Key 过期时在主线程释放"),
    severity=Severity.WARNING,
    where=("live",),  # a dump does not carry lazyfree-lazy-expire
    sources=(
        "001 §2.1 禁止使用bigkey",
        "000 §使用的命令请求遵守哪些规范？ — 数据删除",
        "001 §过期时间",
    ),
)
class BigKeySyncExpire(FactRule[BigKeySyncExpireOptions]):
    """Checks for big collections with a TTL on a server that frees expired keys synchronously.

    ## What it does
    Reports a list, hash, set, sorted set, stream or module value that has a TTL and is big (more than
    `min-elements` elements or more than `min-bytes` bytes) when the server's `lazyfree-lazy-expire` is
    `no` (the long-standing Redis default; Valkey defaults to `yes` since 8.0). Nothing is reported when
    the server's configuration is unknown (no server, or `CONFIG GET` refused), or when the setting is
    `yes`.

    Strings are not judged: a string is a single allocation, freed in one call, and Redis frees it on the
    main thread even with lazyfree on (lazyfree.c defers only values whose free effort exceeds 64).

    ## Why is this bad?
    When a key expires, Redis deletes it as `DEL` would: with `lazyfree-lazy-expire no`, on the main
    thread, one element at a time (db.c, `deleteExpiredKeyAndPropagate`). A sorted set of 2 million
    members set to expire in an hour blocks every client for the time it takes to free them, at an
    unpredictable moment and often without any command in the slow log to explain it.

    ## Example
    `CONFIG GET lazyfree-lazy-expire` returns `no`, and:
    ```
    ZADD rank:daily:20240101 ... (2000000 members)
    EXPIRE rank:daily:20240101 3600
    ```

    ## Use instead
    Let a background thread free expired keys, and keep collections small:
    ```
    CONFIG SET lazyfree-lazy-expire yes
    ```
    Or remove the big key yourself before it expires, with `UNLINK` or in batches with `ZSCAN`/`ZREM`.

    ## Options
    - `min-elements`: a collection with more elements than this is big (default 5000, 001's bigkey limit;
      0 = do not judge by elements).
    - `min-bytes`: a collection using more bytes than this is big (default 1 MB; 0 = do not judge by
      bytes).

    ## Source
    - 001 §2.1: a zset of 2 million members set to expire in an hour triggers a blocking delete; hash, list,
      set and zset should stay below 5000 elements.
    - 000 §使用的命令请求遵守哪些规范？ — 数据删除: use UNLINK for big keys and turn on lazyfree for
      asynchronous deletion.
    - 001 §过期时间: big collections are better without a TTL.
    """

    Options = BigKeySyncExpireOptions
    needs = frozenset({"ttl", "type", "length", "memory"})
    reads_server = frozenset({SERVER_CONFIG})

    def gate(self, ctx: RuleContext[BigKeySyncExpireOptions]) -> Gate:
        server = ctx.server
        setting = server.config_value(SETTING) if server is not None else None
        if setting is None or setting.lower() != "no":
            return NEVER
        opts = ctx.options
        ttl = ("ttl_ms", ">=", 0)
        return above("length", (opts.min_elements,), ttl) | above("memory", (opts.min_bytes,), ttl)

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[BigKeySyncExpireOptions]) -> Violation | None:
        if fact.ttl_ms is None or fact.ttl_ms < 0 or fact.type in (None, "string"):
            return None  # first, because most keys stop here
        server = ctx.server
        setting = server.config_value(SETTING) if server is not None else None
        if setting is None or setting.lower() != "no":
            return None
        opts = ctx.options
        elements, memory = fact.length, fact.memory
        many = bool(opts.min_elements) and elements is not None and elements > opts.min_elements
        heavy = bool(opts.min_bytes) and memory is not None and memory > opts.min_bytes
        if not (many or heavy):
            return None
        sizes = [f"{elements:,} elements"] if elements is not None else []
        sizes_zh = [f"{elements:,} 个元素"] if elements is not None else []
        if memory is not None:
            sizes.append(human_bytes(memory))
            sizes_zh.append(human_bytes(memory))
        limit = f"{opts.min_elements:,} elements" if many else human_bytes(opts.min_bytes)
        limit_zh = f"{opts.min_elements:,} 个元素" if many else human_bytes(opts.min_bytes)
        return Violation(
            "sync-free",
            Text(
                f"{fact.type} of {', '.join(sizes)} (big above {limit}) has a TTL while {SETTING} is no: when it "
                f"expires the main thread frees it and blocks; set {SETTING} yes, or split the key or UNLINK it "
                "before it expires",
                f"{fact.type} 有 {'，'.join(sizes_zh)}（大 Key 阈值 {limit_zh}）设置了过期时间，"
                f"而 {SETTING} 为 no：过期时由主线程同步释放并阻塞；请将 {SETTING} 设为 yes，"
                "或拆分该 Key、在过期前用 UNLINK 删除",
            ),
            value=elements if elements is not None else memory,
        )
