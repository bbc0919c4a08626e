"""EXP001 expired-memory."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.simulation import ExpirySimulation
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes, human_duration
from rediscipline.rules.base import ExpiryRule, RuleContext, SubjectViolation, rule
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class ExpiredMemoryOptions(RuleOptions):
    max_share: float = option(
        0.10,
        "Report when expired keys not yet reclaimed hold more than this share of maxmemory (of the memory of "
        "the keys with a TTL when maxmemory is unknown).",
        minimum=0,
    )


@rule(
    "EXP001",
    "expired-memory",
    title=("Expired keys would hold memory long after they expire", "过期 Key 在过期后仍会长时间占用内存"),
    severity=Severity.WARNING,
    where=("simulation",),
    sources=("003 §过期策略 — Key 过期了一定会立即删除吗？", "003 §过期策略 — 配置过期删除行为"),
)
class ExpiredMemory(ExpiryRule[ExpiredMemoryOptions]):
    """Checks that keys which expired do not pile up in memory before the server reclaims them.

    ## What it does
    Reads the prediction of `rediscipline simulate expiry`: at each moment simulated, the memory held by keys
    whose TTL has passed but which the active expire cycle has not deleted yet (nothing reads them, so lazy
    expiry never does), summed over the databases. Reports the moment it is largest when it is more than
    `max-share` of `maxmemory` (the server's, from a scan or a report, or `--maxmemory`), or, when maxmemory is
    unknown, of the memory of all the keys with a TTL. The finding's value is that share; the message gives the
    bytes, the keys, when, and how long the cycle takes to sweep the largest database.

    ## Why is this bad?
    The active expire cycle looks at about 20 keys per database per tick (`hz` ticks a second): with a million
    keys with a TTL in one database, a key that expired waits up to an hour before the cycle reaches it. Until
    then it takes memory like a live key: it counts towards maxmemory, pushes the server into evicting keys
    that are still wanted, and hides the data set's real size from capacity planning.

    ## Example
    ```
    expired keys not yet reclaimed hold up to 1.2 GB (15.0% of maxmemory 8.0 GB) 42 min after the start
    ```

    ## Use instead
    Let the cycle keep up: raise `hz` (10 to 20) or `active-expire-effort`, and try it first with the
    simulator's what-ifs; spread a very large keyspace with TTLs over a cluster's shards:
    ```
    rediscipline simulate expiry dump.rdb --hz 20 --effort 4
    ```

    ## Options
    - `max-share`: report when expired keys not yet reclaimed hold more than this share of maxmemory (of the
      memory of the keys with a TTL when maxmemory is unknown) (default 0.1).

    ## Source
    - 003 §过期策略 — Key 过期了一定会立即删除吗？: a key that expires and is never read keeps taking memory until
      the active deletion cleans it up (如果一个 Key 过期后从未被访问，它会一直占用内存，直到被主动删除策略清理).
    - 003 §过期策略 — 配置过期删除行为: set hz between 10 and 20; too low and expired keys are not cleaned up in
      time (hz设置为10-20之间 … 过低：过期Key清理不及时).
    """

    Options = ExpiredMemoryOptions

    def check(self, simulation: ExpirySimulation, ctx: RuleContext[ExpiredMemoryOptions]) -> Iterator[SubjectViolation]:
        held: dict[float, tuple[int, int]] = {}  # t → (keys, bytes) over the databases
        for point in simulation.series:
            keys, size = held.get(point.t, (0, 0))
            held[point.t] = (keys + point.expired_in_memory, size + point.expired_in_memory_bytes)
        if not held:
            return
        t, (keys, size) = max(held.items(), key=lambda item: (item[1][1], -item[0]))
        volatile_bytes = sum(size for _db, _keys, size in simulation.volatile)
        whole = simulation.maxmemory or volatile_bytes
        if not size or not whole or size / whole <= ctx.options.max_share:
            return
        share = size / whole
        if simulation.maxmemory:
            of = Text(f"of maxmemory {human_bytes(whole)}", f"占 maxmemory {human_bytes(whole)}")
        else:
            of = Text(
                f"of the {human_bytes(whole)} the keys with a TTL take; maxmemory unknown",
                f"占带 TTL 的 Key 的 {human_bytes(whole)}；maxmemory 未知",
            )
        settings = simulation.settings
        per_second = settings.sweep_per_second
        db, largest, _bytes = max(simulation.volatile, key=lambda entry: (entry[1], -entry[0]))
        sweep = human_duration(round(largest / per_second))
        when = human_duration(round(t))
        message = Text(
            f"expired keys not yet reclaimed hold up to {human_bytes(size)} ({share:.1%} {of.en}), {keys:,} keys, "
            f"{when.en} after the start: nothing reads them, and the expire cycle looks at about {per_second:,} "
            f"keys a second per database (hz {settings.hz}, active-expire-effort {settings.effort}), so one sweep "
            f"of db {db}'s {largest:,} keys with a TTL takes about {sweep.en}; raise hz or active-expire-effort "
            "(see it with --hz and --effort) or spread these keys over more shards",
            f"尚未回收的过期 Key 最多占用 {human_bytes(size)}（{share:.1%}，{of.zh}），共 {keys:,} 个 Key，"
            f"出现在开始后 {when.zh}：没有请求读取它们，而主动过期周期每个数据库每秒只检查约 {per_second:,} 个 Key"
            f"（hz {settings.hz}，active-expire-effort {settings.effort}），"
            f"扫完 db {db} 中 {largest:,} 个带 TTL 的 Key 约需 {sweep.zh}；"
            "请调高 hz 或 active-expire-effort（可用 --hz、--effort 先模拟），或把这些 Key 分散到更多分片",
        )
        yield SubjectViolation(
            Violation("expired-memory", message, value=round(share, 4)), "expired keys in memory", None
        )
