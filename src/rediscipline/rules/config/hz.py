"""CFG004 hz."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import InstanceRule, RuleContext, rule
from rediscipline.rules.config.checks import CONFIG_CHECKS
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class HzOptions(RuleOptions):
    min_hz: int = option(1, "Note when `hz` is below this.", minimum=0)
    max_hz: int = option(100, "Note when `hz` is above this (0 = off).", minimum=0)


@rule(
    "CFG004",
    "hz",
    title=("Background task frequency out of range", "后台任务频率 hz 不合理"),
    severity=Severity.NOTE,
    where=CONFIG_CHECKS,
    sources=("003 §过期策略 — 配置过期删除行为",),
)
class Hz(InstanceRule[HzOptions]):
    """Checks the frequency of the server's background tasks (`hz`, `dynamic-hz`).

    ## What it does
    Reports `hz` below `min-hz` (`low-hz`) or above `max-hz` (`high-hz`), and `dynamic-hz no`
    (`dynamic-hz-off`, Redis 5.0 and later). Nothing is reported when CONFIG was refused.

    ## Why is this bad?
    `hz` is how many times per second Redis runs its background cycle, which among other things deletes
    expired keys nobody reads. Too low and expired keys stay in memory, so memory grows and an expiry
    wave is cleaned up late and all at once; too high and an idle server burns CPU on the cycle (redis.conf
    calls values above 100 "usually not a good idea"). `dynamic-hz` raises the frequency only while many
    clients are connected, which keeps an idle server cheap.

    ## Example
    ```
    hz 500
    dynamic-hz no
    ```

    ## Use instead
    ```
    hz 10
    dynamic-hz yes
    ```

    ## Options
    - `min-hz`: note when `hz` is below this (default 1; 003 recommends 10–20, so a stricter preset may
      set 10).
    - `max-hz`: note when `hz` is above this (default 100, from redis.conf; 0 = off).

    ## Source
    - 003 §过期策略 — 配置过期删除行为: hz 10–20 (default 10); too low cleans expired keys late, too high
      costs CPU.
    """

    Options = HzOptions

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[HzOptions]
    ) -> Iterator[Violation]:
        opts = ctx.options
        hz = server.config_int("hz")
        if hz is not None and hz < opts.min_hz:
            yield Violation(
                "low-hz",
                Text(
                    f"hz is {hz}, below {opts.min_hz}: expired keys nobody reads are deleted late; set hz 10",
                    f"hz 为 {hz}，低于 {opts.min_hz}：无人访问的过期 Key 清理不及时；请设置 hz 10",
                ),
                value=hz,
                setting="hz",
            )
        elif hz is not None and opts.max_hz and hz > opts.max_hz:
            yield Violation(
                "high-hz",
                Text(
                    f"hz is {hz}, above {opts.max_hz}: the background cycle costs CPU even when idle; set hz 10 "
                    "with dynamic-hz yes",
                    f"hz 为 {hz}，超过 {opts.max_hz}：后台任务在空闲时也消耗 CPU；请设置 hz 10 并开启 dynamic-hz",
                ),
                value=hz,
                setting="hz",
            )
        if server.config_value("dynamic-hz") == "no":
            yield Violation(
                "dynamic-hz-off",
                Text(
                    "dynamic-hz is no: the background cycle cannot speed up when many clients are connected; "
                    "set dynamic-hz yes",
                    "dynamic-hz 为 no：连接数多时后台任务无法自动提高频率；请设置 dynamic-hz yes",
                ),
                setting="dynamic-hz",
            )
