"""CFG005 instance-size."""

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
from rediscipline.rules.config.checks import CONFIG_CHECKS
from rediscipline.rules.options import RuleOptions, option

GB = 1024**3


@dataclass(frozen=True)
class InstanceSizeOptions(RuleOptions):
    max_bytes: int = option(6 * GB, "Warn when the instance is larger than this many bytes (0 = off).", minimum=0)
    min_bytes: int = option(0, "Note when maxmemory is set below this many bytes (0 = off).", minimum=0)


@rule(
    "CFG005",
    "instance-size",
    title=("Instance too large or too small", "实例容量过大或过小"),
    severity=Severity.WARNING,
    where=CONFIG_CHECKS,
    sources=("002 §数据保存规范 — 规范四：控制 Redis 实例的容量",),
)
class InstanceSize(InstanceRule[InstanceSizeOptions]):
    """Checks the memory size of one instance.

    ## What it does
    Takes the instance's size as its `maxmemory` when one is set (what it may grow to), otherwise as the
    memory it uses now (`used_memory` in `INFO memory`). A size above `max-bytes` is `too-large`
    (warning); a `maxmemory` below `min-bytes` is `too-small` (note, off by default). The finding's value
    is the size in bytes. Each shard of a cluster is an instance of its own.

    ## Why is this bad?
    Everything that copies an instance grows with it: an RDB snapshot or AOF rewrite forks the process
    (about 10 ms per GB of page tables, and copy-on-write memory for every page written meanwhile), a new
    or restarted replica needs a full sync, and a restart reloads the whole data set. Above a few GB these
    take long enough to block requests and to make failover slow. At the other end, a limit far below
    what the data needs makes the instance evict or reject writes early; the geektime preset reads 002's
    "2–6 GB" as a lower bound too.

    ## Example
    ```
    maxmemory 32gb
    ```

    ## Use instead
    Several instances (or cluster shards) of 2–6 GB each, one per business:
    ```
    maxmemory 4gb
    ```

    ## Options
    - `max-bytes`: warn when the instance is larger than this many bytes (default 6 GB, 002's upper bound).
    - `min-bytes`: note when maxmemory is set below this many bytes (default 0 = off; 002's lower bound is
      2 GB, used by the geektime preset).

    ## Source
    - 002 §数据保存规范 — 规范四：控制 Redis 实例的容量: keep a single instance at 2–6 GB so RDB snapshots
      and master–replica synchronisation finish quickly and do not block requests.
    """

    Options = InstanceSizeOptions

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[InstanceSizeOptions]
    ) -> Iterator[Violation]:
        opts = ctx.options
        limit = server.maxmemory
        size = limit or server.info_int("used_memory")
        if size is None:
            return
        if limit:
            what = Text(f"maxmemory is {human_bytes(size)}", f"maxmemory 为 {human_bytes(size)}")
        else:
            what = Text(f"the instance uses {human_bytes(size)}", f"实例已使用 {human_bytes(size)}")
        if opts.max_bytes and size > opts.max_bytes:
            yield Violation(
                "too-large",
                Text(
                    f"{what.en}, above {human_bytes(opts.max_bytes)} per instance: forks, RDB snapshots and full "
                    "resyncs of this much data block requests; split the data over more instances or shards",
                    f"{what.zh}，超过单实例 {human_bytes(opts.max_bytes)}：fork、RDB 快照和全量同步会阻塞请求；"
                    "请把数据拆分到更多实例或分片",
                ),
                Severity.WARNING,
                size,
                setting="maxmemory" if limit else None,
            )
        elif limit and opts.min_bytes and limit < opts.min_bytes:
            yield Violation(
                "too-small",
                Text(
                    f"{what.en}, below {human_bytes(opts.min_bytes)}: a tight limit makes the instance evict or "
                    "reject writes early; check that it fits the data",
                    f"{what.zh}，低于 {human_bytes(opts.min_bytes)}：上限过小会导致实例过早淘汰数据或拒绝写入；"
                    "请确认它与数据量相符",
                ),
                Severity.NOTE,
                limit,
                setting="maxmemory",
            )
