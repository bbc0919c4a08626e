"""CFG001 maxmemory."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import InstanceRule, RuleContext, rule
from rediscipline.rules.config.checks import CONFIG_CHECKS, percent
from rediscipline.rules.options import RuleOptions, option

#: The setting both violations are about.
SETTING = "maxmemory"


@dataclass(frozen=True)
class MaxmemoryOptions(RuleOptions):
    max_host_share: float = option(
        0.7, "Warn when maxmemory is above this share of the host's RAM (0 = off).", minimum=0
    )


@rule(
    "CFG001",
    "maxmemory",
    title=("maxmemory not set or too large", "maxmemory 未设置或过大"),
    severity=Severity.ERROR,
    where=CONFIG_CHECKS,
    sources=(
        "003 §过期策略 — 配置过期删除行为",
        "002 §数据保存规范 — 规范四：控制 Redis 实例的容量",
    ),
)
class Maxmemory(InstanceRule[MaxmemoryOptions]):
    """Checks that the instance has a memory limit, and that the limit leaves room for the host.

    ## What it does
    Reads `maxmemory` (from `CONFIG GET`, or from `INFO memory` when CONFIG is refused, as managed
    services do). `maxmemory 0` (no limit, the open-source default) is reported as `unset` (error).
    A limit above `max-host-share` of the host's RAM (`total_system_memory` in `INFO memory`) is reported
    as `above-host-share` (warning); the finding's value is that share. Nothing is reported when the
    server shows neither setting; on a host whose RAM is not reported only `unset` is checked.

    ## Why is this bad?
    Without a limit, eviction never runs: the data set grows until the host swaps, which makes every
    command slow, or until the kernel's OOM killer ends the process and its data. A limit close to the
    host's RAM fails the same way later: a fork for RDB or AOF rewrite duplicates every page written
    during the snapshot, and client output buffers, replication backlog and the allocator's fragmentation
    all live outside `used_memory`. In containers `total_system_memory` is the host's, so the share is a
    lower bound of the real one.

    ## Example
    ```
    maxmemory 0
    maxmemory 15gb        # on a 16 GB host
    ```

    ## Use instead
    ```
    maxmemory 11gb        # about 70% of a 16 GB host
    maxmemory-policy allkeys-lru
    ```

    ## Options
    - `max-host-share`: warn when maxmemory is above this share of the host's RAM (default 0.7, from
      003's "maxmemory设置为物理内存的70%").

    ## Source
    - 003 §过期策略 — 配置过期删除行为: set maxmemory so that eviction runs when memory is short, at 70% of
      physical memory, keeping 30% for the system and other processes.
    - 002 §数据保存规范 — 规范四：控制 Redis 实例的容量: keep each instance's memory bounded (2–6 GB) so
      RDB snapshots and replication finish quickly.
    """

    Options = MaxmemoryOptions

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[MaxmemoryOptions]
    ) -> Iterator[Violation]:
        limit = server.maxmemory
        if limit is None:
            return
        if limit == 0:
            yield Violation(
                "unset",
                Text(
                    "maxmemory is 0 (no limit): the data set can grow until the host swaps or the OOM killer "
                    "stops the server; set maxmemory to about 70% of the host's RAM and choose an eviction policy",
                    "maxmemory 为 0（不限制）：数据会一直增长，直到主机开始使用 swap 或进程被 OOM killer 杀掉；"
                    "请将 maxmemory 设为主机内存的 70% 左右，并选择淘汰策略",
                ),
                Severity.ERROR,
                0,
                setting=SETTING,
            )
            return
        host = server.info_int("total_system_memory")
        share_limit = ctx.options.max_host_share
        if not host or not share_limit:
            return
        share = limit / host
        if share > share_limit:
            yield Violation(
                "above-host-share",
                Text(
                    f"maxmemory {human_bytes(limit)} is {percent(share)} of the host's {human_bytes(host)} RAM, "
                    f"above {percent(share_limit)}: leave room for fork copy-on-write, buffers and the system",
                    f"maxmemory {human_bytes(limit)} 占主机内存 {human_bytes(host)} 的 {percent(share)}，"
                    f"超过 {percent(share_limit)}：请为 fork 写时复制、缓冲区和系统预留内存",
                ),
                Severity.WARNING,
                round(share, 3),
                setting=SETTING,
            )
