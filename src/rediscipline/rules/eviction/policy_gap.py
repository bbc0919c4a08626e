"""EVI001 policy-gap."""

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
class PolicyGapOptions(RuleOptions):
    max_points: float = option(
        5.0, "Report when another policy's hit ratio is higher by more than this many points.", minimum=0
    )


@rule(
    "EVI001",
    "policy-gap",
    title=("Another eviction policy serves this traffic better", "另一种淘汰策略更适合这份流量"),
    severity=Severity.WARNING,
    where=("simulation",),
    sources=("003 §内存淘汰策略 — 淘汰策略选择指南",),
)
class PolicyGap(SimulationRule[PolicyGapOptions]):
    """Checks that the configured eviction policy is not clearly beaten by another on the team's own traffic.

    ## What it does
    With `rediscipline simulate eviction --configured-policy POLICY`, compares the configured policy's hit
    ratio with every other policy replayed, at each `maxmemory` replayed, and reports the size where another
    policy is ahead by the most, when that lead is more than `max-points` points. The finding's subject is the
    configured policy, its value the lead in points; the message names the better policy, the size and both hit
    ratios. Nothing is reported without `--configured-policy`.

    ## Why is this bad?
    The guide picks a policy by the shape of the traffic: allkeys-lru for a plain cache, allkeys-lfu where a
    few keys are hot, a volatile policy where some data must stay. A policy chosen from the table rather than
    from the traffic can cost a large share of hits: every miss is a read from the database behind the cache,
    and at a few points of hit ratio that is a large multiple of the database's load. The replay shows it on
    the accesses the applications really make.

    ## Example
    ```
    allkeys-lru  at 2.0 GB: 81.2 %
    allkeys-lfu  at 2.0 GB: 90.4 %     (hot keys that LRU keeps evicting between their bursts)
    ```

    ## Use instead
    Set the policy the replay found best for this traffic, and replay again after the traffic changes:
    ```
    CONFIG SET maxmemory-policy allkeys-lfu
    ```

    ## Options
    - `max-points`: report when another policy's hit ratio is higher by more than this many points (default 5).

    ## Source
    - 003 §内存淘汰策略 — 淘汰策略选择指南: pure caches use allkeys-lru, data with clear hot spots
      allkeys-lfu (纯缓存 allkeys-lru … 热点数据明显 allkeys-lfu).
    """

    Options = PolicyGapOptions

    def check(self, simulation: EvictionSimulation, ctx: RuleContext[PolicyGapOptions]) -> Iterator[SubjectViolation]:
        configured = simulation.settings.configured_policy
        if configured is None:
            return
        worst: tuple[float, EvictionResult, EvictionResult] | None = None
        for result in simulation.results:
            if result.policy != configured:
                continue
            others = [r for r in simulation.results if r.maxmemory == result.maxmemory and r.policy != configured]
            if not others:
                continue
            best = max(others, key=lambda r: (r.hit_ratio, r.policy))
            lead = (best.hit_ratio - result.hit_ratio) * 100
            if worst is None or lead > worst[0]:
                worst = (lead, result, best)
        if worst is None or worst[0] <= ctx.options.max_points:
            return
        lead, mine, best = worst
        size = human_bytes(mine.maxmemory)
        message = Text(
            f"on this trace {best.policy} hits {best.hit_ratio:.1%} of reads at maxmemory {size} where the configured "
            f"{configured} hits {mine.hit_ratio:.1%}: {lead:.1f} points more (the limit is "
            f"{ctx.options.max_points:g}); every miss is a read from the database behind the cache",
            f"在这份访问轨迹上，maxmemory 为 {size} 时 {best.policy} 的命中率为 {best.hit_ratio:.1%}，"
            f"当前配置的 {configured} 为 {mine.hit_ratio:.1%}：高出 {lead:.1f} 个百分点（上限 "
            f"{ctx.options.max_points:g}）；每次未命中都要回源读数据库",
        )
        yield SubjectViolation(Violation("policy-gap", message, value=round(lead, 2)), f"policy {configured}", None)
