"""CFG006 fragmentation."""

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
from rediscipline.rules.options import RuleOptions, option

MB = 1024**2


@dataclass(frozen=True)
class FragmentationOptions(RuleOptions):
    max_ratio: float = option(1.5, "Warn when mem_fragmentation_ratio is above this (0 = off).", minimum=0)
    min_waste: int = option(
        100 * MB, "Ignore fragmentation or swapping that involves fewer bytes than this.", minimum=0
    )


@rule(
    "CFG006",
    "fragmentation",
    title=("Memory fragmented or swapped", "内存碎片率过高或使用了 swap"),
    severity=Severity.WARNING,
    where=("live",),
    sources=("003 §内存释放的真相 — 内存分配器的工作机制",),
)
class Fragmentation(InstanceRule[FragmentationOptions]):
    """Checks how the memory the process holds compares with the memory its data uses.

    ## What it does
    Reads `INFO memory`: `used_memory` (what the data uses), `used_memory_rss` (what the operating system
    has given the process) and `mem_fragmentation_ratio` (RSS / used). Reports:

    - `fragmented`: the ratio is above `max-ratio` and RSS exceeds used memory by more than `min-waste`
      bytes (memory held by the allocator but not by data);
    - `swapping`: the ratio is below 1 and used memory exceeds RSS by more than `min-waste` bytes (part
      of the data is not in RAM, so the OS has swapped it out).

    The finding's value is the ratio. Small instances are ignored: on a server holding a few MB the ratio
    swings widely and means nothing.

    ## Why is this bad?
    After many deletes or TTL expiries, or with values that change size, the allocator keeps freed memory
    in its pools instead of returning it to the OS. The host then counts the RSS, not `used_memory`:
    `maxmemory` looks far away while the host runs out of RAM. A ratio below 1 is worse: pages of the data
    set are on disk, and every command touching them waits for the disk.

    ## Example
    ```
    used_memory:500MB
    used_memory_rss:800MB
    mem_fragmentation_ratio:1.60
    ```

    ## Use instead
    ```
    activedefrag yes       # jemalloc builds, Redis 4.0+: defragment online
    ```
    Or restart the instance after a failover to its replica. For swapping, give the host more RAM, lower
    `maxmemory`, or disable swap for the Redis host.

    ## Options
    - `max-ratio`: warn when `mem_fragmentation_ratio` is above this (default 1.5; 0 = off).
    - `min-waste`: ignore fragmentation or swapping that involves fewer bytes than this (default 100 MB).

    ## Source
    - 003 §内存释放的真相 — 内存分配器的工作机制: memory freed by Redis goes back to jemalloc's pools, not to the
      OS, so after a mass delete `used_memory` drops while `used_memory_rss` stays high.
    """

    Options = FragmentationOptions

    reads_server = frozenset()  # INFO only

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[FragmentationOptions]
    ) -> Iterator[Violation]:
        opts = ctx.options
        ratio = server.info_float("mem_fragmentation_ratio")
        used = server.info_int("used_memory")
        rss = server.info_int("used_memory_rss")
        if ratio is None or used is None or rss is None:
            return
        if opts.max_ratio and ratio > opts.max_ratio and rss - used > opts.min_waste:
            yield Violation(
                "fragmented",
                Text(
                    f"mem_fragmentation_ratio is {ratio:.2f}, above {opts.max_ratio:g}: the process holds "
                    f"{human_bytes(rss)} for {human_bytes(used)} of data; enable activedefrag or restart after "
                    "a failover",
                    f"mem_fragmentation_ratio 为 {ratio:.2f}，超过 {opts.max_ratio:g}：进程占用 {human_bytes(rss)}，"
                    f"数据只有 {human_bytes(used)}；请开启 activedefrag，或在主从切换后重启",
                ),
                value=round(ratio, 2),
            )
        elif ratio < 1 and used - rss > opts.min_waste:
            yield Violation(
                "swapping",
                Text(
                    f"mem_fragmentation_ratio is {ratio:.2f}: {human_bytes(used - rss)} of the data is not in RAM "
                    "(swapped out), so commands touching it wait for the disk; add RAM or lower maxmemory",
                    f"mem_fragmentation_ratio 为 {ratio:.2f}：有 {human_bytes(used - rss)} 的数据不在内存中"
                    "（已被 swap），访问这些数据的命令要等待磁盘；请增加内存或调低 maxmemory",
                ),
                value=round(ratio, 2),
            )
