"""EVI002 refused-writes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.simulation import EvictionResult, EvictionSimulation
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import RuleContext, SimulationRule, SubjectViolation, rule
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class RefusedWritesOptions(RuleOptions):
    max_share: float = option(
        0.01, "Report a policy that refuses more than this share of the writes after misses.", minimum=0
    )


@rule(
    "EVI002",
    "refused-writes",
    title=("The eviction policy would refuse writes with OOM", "淘汰策略会以 OOM 拒绝写入"),
    severity=Severity.ERROR,
    where=("simulation",),
    sources=("003 §内存淘汰策略 — 八种淘汰策略",),
)
class RefusedWrites(SimulationRule[RefusedWritesOptions]):
    """Checks that a full server would not answer the applications' writes with OOM errors.

    ## What it does
    Reports a `noeviction` or `volatile-*` policy replayed by `rediscipline simulate eviction` that refused more
    than `max-share` of the writes after a miss with an OOM error at some `maxmemory` replayed: noeviction once
    memory is full, a volatile policy once no key with a TTL is left to evict. With `--configured-policy`, only
    that policy is judged; without it, every such policy replayed. The finding's subject is the policy, its
    value the share of writes refused at the size where it is largest; the message gives the count, the size
    and how many accesses set a TTL.

    ## Why is this bad?
    A server that refuses writes is an outage for every feature that writes, not a slower cache: the write
    fails, and the application's error path runs instead. A volatile policy only evicts keys with a TTL, so on
    traffic where few keys have one it behaves as noeviction once those are gone; noeviction returns errors as
    soon as memory is full.

    ## Example
    ```
    volatile-lru at 512 MB: 18,204 of 52,311 writes refused (34.8 %); 2 % of accesses set a TTL
    ```

    ## Use instead
    Give every cached key a TTL (then volatile policies have keys to evict), or use an allkeys policy for a
    cache; keep noeviction only where losing data is worse than refusing writes, with maxmemory sized well
    above the data:
    ```python
    r.set(key, value, ex=3600 + random.randrange(600))
    ```

    ## Options
    - `max-share`: report a policy that refuses more than this share of the writes after misses (default
      0.01).

    ## Source
    - 003 §内存淘汰策略 — 八种淘汰策略: noeviction deletes no key and returns errors when memory is full; volatile
      policies evict only among keys with an expiry (不删除任何Key，内存满时返回错误 … 从设置了过期时间的Key中淘汰).
    """

    Options = RefusedWritesOptions

    def check(
        self, simulation: EvictionSimulation, ctx: RuleContext[RefusedWritesOptions]
    ) -> Iterator[SubjectViolation]:
        configured = simulation.settings.configured_policy
        judged: dict[str, tuple[float, EvictionResult]] = {}
        for result in simulation.results:
            refusing = result.policy == "noeviction" or result.policy.startswith("volatile-")
            if not refusing or (configured is not None and result.policy != configured) or not result.misses:
                continue
            share = result.oom_errors / result.misses
            if share > judged.get(result.policy, (-1.0, result))[0]:
                judged[result.policy] = (share, result)
        trace = simulation.trace
        volatile = trace.volatile_accesses / trace.accesses if trace.accesses else 0.0
        for policy, (share, result) in judged.items():
            if share <= ctx.options.max_share:
                continue
            size = human_bytes(result.maxmemory)
            if policy == "noeviction":
                fix = Text(
                    "use an allkeys policy for a cache, or size maxmemory above the data",
                    "缓存请使用 allkeys 类策略，或把 maxmemory 设得高于数据量",
                )
            else:
                fix = Text(
                    "give cached keys a TTL or use an allkeys policy", "请给缓存 Key 设置 TTL，或使用 allkeys 类策略"
                )
            message = Text(
                f"{policy} at maxmemory {size} refused {result.oom_errors:,} of {result.misses:,} writes after a miss "
                f"({share:.1%}) with OOM; {volatile:.0%} of the trace's accesses set a TTL: every one of those "
                f"writes fails in the application; {fix.en}",
                f"maxmemory 为 {size} 时 {policy} 以 OOM 拒绝了未命中后 {result.misses:,} 次写入中的 "
                f"{result.oom_errors:,} 次（{share:.1%}）；轨迹中设置 TTL 的访问占 {volatile:.0%}："
                f"这些写入在应用中都会失败；{fix.zh}",
            )
            yield SubjectViolation(
                Violation("refused-writes", message, value=round(share, 4)), f"policy {policy}", None
            )
