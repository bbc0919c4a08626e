"""CLU001 shard-skew."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rediscipline.model.cluster import ClusterView, ShardStat
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import ClusterRule, RuleContext, SubjectViolation, rule
from rediscipline.rules.cluster.shards import (
    CLUSTER_CHECKS,
    Compared,
    address_bytes,
    data_shards,
    estimated,
    partial_mark,
    ratio,
    sampled,
    shard_name,
    shard_subject,
)
from rediscipline.rules.options import RuleOptions, option

MB = 1024**2


@dataclass(frozen=True)
class ShardSkewOptions(RuleOptions):
    max_ratio: float = option(
        1.25, "Report a shard holding more than this many times the mean keys or memory per shard.", minimum=1
    )
    max_slot_ratio: float = option(
        1.25, "Report a master serving more than this many times the mean slots per master.", minimum=1
    )
    min_keys: int = option(
        10_000, "Compare keys per shard only when the shards compared hold at least this many keys.", minimum=0
    )
    min_bytes: int = option(
        16 * MB, "Compare memory per shard only when the shards compared hold at least this many bytes.", minimum=0
    )


@dataclass(frozen=True, slots=True)
class _Measure:
    """One figure per compared shard, and how a message says it."""

    code: str
    values: tuple[int, ...]
    from_scan: bool  # counted from the keys read (of the sample when sampled), not from INFO

    def amount(self, value: float) -> Text:
        if self.code == "keys":
            return Text(f"{value:,.0f} keys", f"{value:,.0f} 个 Key")
        if self.from_scan:
            return Text(f"{human_bytes(value)} of keys", f"{human_bytes(value)} 的 Key")
        return Text(f"{human_bytes(value)} used (INFO used_memory)", f"已使用 {human_bytes(value)}（INFO used_memory）")


@rule(
    "CLU001",
    "shard-skew",
    title=("Shards unevenly loaded", "分片间数据不均衡"),
    severity=Severity.WARNING,
    where=CLUSTER_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 命名",
        "003 §大批量Key过期引发的性能问题 — 方案4: 使用Redis Cluster分散压力",
        "002 §数据保存规范 — 规范四：控制 Redis 实例的容量",
    ),
)
class ShardSkew(ClusterRule[ShardSkewOptions]):
    """Checks that the shards of a cluster hold and serve similar amounts of data.

    ## What it does
    Compares the shards of a cluster three ways, each as a shard's figure over the mean of all (max/mean):

    - `keys`: the keys the scan read on each shard;
    - `memory`: the memory of those keys (`MEMORY USAGE`, or the sizes a dump gives); when some shard's
      keys were not measured, each node's `used_memory` from `INFO` instead, and nothing when some node
      gave neither;
    - `slots`: the hash slots each master serves, from the cluster's topology.

    Every shard above `max-ratio` times the mean keys or memory (above `max-slot-ratio` times the mean
    slots) is reported, strictly above: a ratio equal to the limit passes. The finding names the shard
    (the address scanned and the shard id) and its value is the ratio. The keys and memory messages also
    give the shard's slot ratio, which tells the two causes apart: a shard with more slots than the others
    (move slots), or slots holding more than their share (a hashtag, CLU002, or busy slots, CLU003).

    Keys are compared only when the shards compared hold at least `min-keys` keys, and memory only from
    `min-bytes`: in a small cluster a few keys more or less move the ratio, and nothing is at risk. A
    shard that was never read (a node down during the whole scan) is left out of the keys and memory
    comparisons, since its keys are unknown, not zero; a message says which shards were left out, and
    which were read only in part (counted as far as read: their figures are lower bounds). A master that
    serves no slot holds no keys by design (it is being added or removed) and is left out of all three
    comparisons. With `--sample`, counts and memory are those of the sample: the ratios hold, the
    messages say so, and `min-keys`/`min-bytes` are compared with the cluster's estimated size (the
    sample's figure over the sample rate). A cluster of one shard has nothing to compare.

    ## Why is this bad?
    A cluster spreads data over its shards so that each holds and serves a part of it (003 §方案4: ten
    shards, a tenth each). Its capacity is that of the fullest shard, not the sum: the shard holding 1.5
    times the mean reaches its `maxmemory` first, then evicts or refuses writes while the others have
    room, and it takes the largest share of the traffic. It is also the slowest to fork for a snapshot and
    to resync a replica, which is why 002 bounds the size of every instance, each shard included.

    ## Example
    Three shards, one holding twice the memory of the others (max/mean = 1.5):
    ```
    10.0.0.1:7000  2.0 GB   5461 slots
    10.0.0.2:7000  1.0 GB   5462 slots
    10.0.0.3:7000  1.0 GB   5461 slots
    ```

    ## Use instead
    Shards within a quarter of one another: move slots off a shard that serves more than its share
    (`redis-cli --cluster rebalance`), and spread the keys that pin data to one slot (a constant hashtag,
    a big key) so that moving slots can even the load.

    ## Options
    - `max-ratio`: report a shard holding more than this many times the mean keys or memory per shard
      (default 1.25). A shard with twice the data of each other one is at 2N/(N+1) of the mean: 1.33 with
      two shards, 1.5 with three, so the default reports it in any cluster; on a full cluster a shard at
      1.25 times the mean runs out of memory while the others still have at least a fifth of theirs free on
      average.
    - `max-slot-ratio`: report a master serving more than this many times the mean slots per master
      (default 1.25, the same bound: keys follow slots, so a master with a quarter more slots than the
      mean holds a quarter more keys). `redis-cli --cluster create` and `rebalance` leave masters within
      2% of one another; a cluster weighted on purpose (bigger hosts serving more slots) raises this.
    - `min-keys`: compare keys per shard only when the shards compared hold at least this many keys
      (default 10 000: with fewer, chance alone moves a shard's count by a few percent, and a cluster that
      small has nothing at risk).
    - `min-bytes`: compare memory per shard only when the shards compared hold at least this many bytes
      (default 16 MB: a cluster holding less is a test or a new deployment, nowhere near a memory limit,
      where one key more or less moves the ratio).

    ## Source
    - 000 §Key 名字如何设计 — 命名: take care that large amounts of data do not fall into the same shard,
      which unbalances the nodes (要注意使用 hashtag 避免大量数据落入同一个数据分片，造成多个节点数据不均衡).
    - 003 §大批量Key过期引发的性能问题 — 方案4: 使用Redis Cluster分散压力: a cluster spreads the keys so that
      each of its ten nodes holds a tenth and bears a tenth of the load.
    - 002 §数据保存规范 — 规范四：控制 Redis 实例的容量: keep each instance small (2–6 GB) so snapshots and
      synchronisation finish quickly; the heaviest shard is the one that outgrows it.
    """

    Options = ShardSkewOptions
    needs = frozenset({"memory"})

    def check(self, cluster: ClusterView, ctx: RuleContext[ShardSkewOptions]) -> Iterator[SubjectViolation]:
        opts = ctx.options
        compared = data_shards(cluster)
        shards = compared.shards
        if len(shards) >= 2:
            keys = _Measure("keys", tuple(s.keys for s in shards), from_scan=True)
            if estimated(cluster, sum(keys.values)) >= opts.min_keys:
                yield from self._skewed(cluster, compared, keys, opts.max_ratio)
            memory = _memory(shards)
            if memory is not None:
                total = sum(memory.values)
                if (estimated(cluster, total) if memory.from_scan else total) >= opts.min_bytes:
                    yield from self._skewed(cluster, compared, memory, opts.max_ratio)
        yield from self._slots(cluster, opts.max_slot_ratio)

    def _skewed(
        self, cluster: ClusterView, compared: Compared, measure: _Measure, limit: float
    ) -> Iterator[SubjectViolation]:
        shards = compared.shards
        mean = sum(measure.values) / len(shards)
        if not mean:
            return
        mean_slots = sum(s.slot_count for s in shards) / len(shards)
        sample = sampled(cluster) if measure.from_scan else Text("", "")
        notes = compared.notes()
        for shard, value in zip(shards, measure.values, strict=True):
            skew = value / mean
            if skew <= limit:
                continue
            slots = shard.slot_count / mean_slots
            if slots > limit:
                advice = Text(
                    "it serves more slots than the others: move slots to them (`redis-cli --cluster rebalance`)",
                    "它负责的槽位多于其他分片：把槽位迁移到其他分片（`redis-cli --cluster rebalance`）",
                )
            else:
                advice = Text(
                    "its slots hold more than their share: look for a hashtag (CLU002) or busy slots (CLU003) "
                    "on it, which moving slots cannot spread",
                    "它的槽位承载了超出份额的数据：检查其上的 hashtag（CLU002）或集中的槽位（CLU003），"
                    "这类数据无法通过迁移槽位分散",
                )
            held, average, name = measure.amount(value), measure.amount(mean), shard_name(shard)
            message = Text(
                f"shard {name.en} holds {held.en}{sample.en}{partial_mark(shard).en}, {ratio(skew)}× the "
                f"mean of the {len(shards)} shards compared ({average.en}), and serves {ratio(slots)}× the mean "
                f"slots: {advice.en}{notes.en}",
                f"分片 {name.zh} 有 {held.zh}{sample.zh}{partial_mark(shard).zh}，是参与比较的 "
                f"{len(shards)} 个分片平均值（{average.zh}）的 {ratio(skew)} 倍，其槽位数是平均值的 "
                f"{ratio(slots)} 倍：{advice.zh}{notes.zh}",
            )
            violation = Violation(measure.code, message, value=round(skew, 2))
            yield SubjectViolation(violation, shard_subject(shard), address_bytes(shard))

    def _slots(self, cluster: ClusterView, limit: float) -> Iterator[SubjectViolation]:
        """Slots come from the topology, known for every shard, read or not."""
        masters = [shard for shard in cluster.shards if shard.slot_count]
        if len(masters) < 2:
            return
        mean = sum(s.slot_count for s in masters) / len(masters)
        for shard in masters:
            skew = shard.slot_count / mean
            if skew <= limit:
                continue
            name = shard_name(shard)
            message = Text(
                f"shard {name.en} serves {shard.slot_count:,} slots, {ratio(skew)}× the mean of the "
                f"{len(masters)} masters ({mean:,.0f}): it holds and serves that much more of the keys; move slots "
                "to the others (`redis-cli --cluster rebalance`), or raise `max-slot-ratio` if the weights are "
                "on purpose",
                f"分片 {name.zh} 负责 {shard.slot_count:,} 个槽位，是 {len(masters)} 个主节点平均值"
                f"（{mean:,.0f}）的 {ratio(skew)} 倍：它承载和服务的 Key 也按比例更多；把槽位迁移到其他分片"
                "（`redis-cli --cluster rebalance`），如果权重是有意设置的，请调高 `max-slot-ratio`",
            )
            violation = Violation("slots", message, value=round(skew, 2))
            yield SubjectViolation(violation, shard_subject(shard), address_bytes(shard))


def _memory(shards: Sequence[ShardStat]) -> _Measure | None:
    """Memory of the keys read when every shard's was measured, else INFO's used_memory of every node."""
    measured = [s.memory for s in shards]
    if all(m is not None for m in measured):
        return _Measure("memory", tuple(m or 0 for m in measured), from_scan=True)
    used = [s.used_memory for s in shards]
    if all(u is not None for u in used):
        return _Measure("memory", tuple(u or 0 for u in used), from_scan=False)
    return None
