"""CFG002 eviction-policy."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import InstanceRule, RuleContext, rule
from rediscipline.rules.config.checks import percent
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class EvictionPolicyOptions(RuleOptions):
    cache_ttl_share: float = option(
        0.5, "With noeviction, warn when at least this share of the keys has a TTL (0 = off).", minimum=0
    )
    max_persistent_memory: float = option(
        0.9, "With a volatile-* policy, error when at least this share of memory has no TTL (0 = off).", minimum=0
    )


def _key_ttl_share(server: ServerFact, keyspace: KeyspaceStats | None) -> float | None:
    """Share of keys with a TTL: exact from INFO keyspace (all databases), else from the scanned keys."""
    if server.total_keys:
        return sum(server.expires.values()) / server.total_keys
    return keyspace.ttl_coverage if keyspace is not None else None


def _persistent_memory_share(server: ServerFact, keyspace: KeyspaceStats | None) -> tuple[float, bool] | None:
    """Share of memory held by keys without a TTL, and whether it was measured (False: a share of keys)."""
    if keyspace is not None and keyspace.memory_ttl_coverage is not None:
        return 1 - keyspace.memory_ttl_coverage, True
    share = _key_ttl_share(server, keyspace)
    return (1 - share, False) if share is not None else None


@rule(
    "CFG002",
    "eviction-policy",
    title=("Eviction policy does not fit the data", "淘汰策略与数据不匹配"),
    severity=Severity.WARNING,
    where=("live",),
    sources=("003 §内存淘汰策略 — 淘汰策略选择指南", "003 §内存淘汰策略 — 八种淘汰策略"),
)
class EvictionPolicy(InstanceRule[EvictionPolicyOptions]):
    """Checks that the eviction policy can actually evict the data the instance holds.

    ## What it does
    Compares `maxmemory-policy` (from CONFIG, or `INFO memory` when CONFIG is refused) with how much of
    the data has a TTL:

    - `noeviction` while at least `cache-ttl-share` of the keys have a TTL: the data looks like a cache,
      yet a full instance rejects writes instead of evicting (`noeviction-cache`, warning).
    - a `volatile-*` policy while at least `max-persistent-memory` of the memory is held by keys without a
      TTL: eviction may only remove keys with a TTL, so it can free little memory and the instance then
      behaves like `noeviction` (`volatile-cannot-evict`, error).

    The share of keys with a TTL comes from `INFO keyspace` (exact, every database), or from the scanned
    keys when the server reports no keyspace. The share of memory comes from the scanned keys when their
    memory was measured, otherwise the share of keys stands in for it. The rule asks the scan to read TTLs.

    ## Why is this bad?
    When memory reaches `maxmemory`, `noeviction` answers every write with an OOM error: a cache that
    could have dropped its coldest entries takes the application down instead. The `volatile-*` policies
    (the default on several cloud services) pick victims only among keys with a TTL; when most memory
    belongs to keys without one, they run out of candidates and the same OOM errors follow, while the
    few keys with a TTL are evicted early.

    ## Example
    ```
    maxmemory-policy noeviction      # 80% of the keys have a TTL: a cache
    maxmemory-policy volatile-lru    # 95% of the memory is in keys without a TTL
    ```

    ## Use instead
    ```
    maxmemory-policy allkeys-lru     # pure cache
    maxmemory-policy volatile-lru    # only when most data has a TTL and the rest must be kept
    ```
    Or give the data TTLs that match the policy.

    ## Options
    - `cache-ttl-share`: with `noeviction`, warn when at least this share of the keys has a TTL (default
      0.5).
    - `max-persistent-memory`: with a `volatile-*` policy, error when at least this share of memory has no
      TTL (default 0.9: eviction could free at most 10%).

    ## Source
    - 003 §内存淘汰策略 — 淘汰策略选择指南: pure cache → allkeys-lru; part of the data must persist →
      volatile-lru; noeviction only when refusing service is better than losing data.
    - 003 §内存淘汰策略 — 八种淘汰策略: the volatile-* policies choose only among keys with an expiry.
    """

    Options = EvictionPolicyOptions
    needs = frozenset({"ttl"})

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[EvictionPolicyOptions]
    ) -> Iterator[Violation]:
        policy = server.maxmemory_policy
        opts = ctx.options
        if policy == "noeviction" and opts.cache_ttl_share:
            with_ttl = _key_ttl_share(server, keyspace)
            if with_ttl is not None and with_ttl >= opts.cache_ttl_share:
                yield Violation(
                    "noeviction-cache",
                    Text(
                        f"maxmemory-policy is noeviction but {percent(with_ttl)} of the keys have a TTL (a cache): "
                        "a full instance will reject writes instead of evicting; use allkeys-lru or allkeys-lfu",
                        f"maxmemory-policy 为 noeviction，但 {percent(with_ttl)} 的 Key 设置了过期时间（缓存）："
                        "内存写满后将拒绝写入而不是淘汰；请使用 allkeys-lru 或 allkeys-lfu",
                    ),
                    Severity.WARNING,
                    round(with_ttl, 3),
                )
        elif policy is not None and policy.startswith("volatile-") and opts.max_persistent_memory:
            found = _persistent_memory_share(server, keyspace)
            if found is None or found[0] < opts.max_persistent_memory:
                return
            persistent, measured = found
            if measured:
                held = Text(
                    f"{percent(persistent)} of the memory is in keys without a TTL",
                    f"{percent(persistent)} 的内存属于没有过期时间的 Key",
                )
            else:
                held = Text(
                    f"{percent(persistent)} of the keys have no TTL", f"{percent(persistent)} 的 Key 没有过期时间"
                )
            yield Violation(
                "volatile-cannot-evict",
                Text(
                    f"maxmemory-policy is {policy} but {held.en}: eviction "
                    f"can free at most {percent(1 - persistent)} and then behaves like noeviction; use an "
                    "allkeys-* policy or set TTLs",
                    f"maxmemory-policy 为 {policy}，但 {held.zh}："
                    f"淘汰最多只能释放 {percent(1 - persistent)}，之后等同于 noeviction；"
                    "请使用 allkeys-* 策略或为数据设置过期时间",
                ),
                Severity.ERROR,
                round(persistent, 3),
            )
