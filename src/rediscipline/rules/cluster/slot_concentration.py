"""CLU003 slot-concentration."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rediscipline.model.cluster import SHARD_FAILED, SLOTS_FROM_SERVER, ClusterView, HashtagStat, ShardStat, SlotStat
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import ClusterRule, RuleContext, SubjectViolation, rule
from rediscipline.rules.cluster.shards import (
    CLUSTER_CHECKS,
    estimated,
    partial_mark,
    ratio,
    sampled,
    shard_name,
    share,
    shown_tag,
)
from rediscipline.rules.options import RuleOptions, option

MB = 1024**2
#: The rule that reports a hashtag's share of its shard (a slot mostly holding one tag is its finding).
HASHTAG_RULE = "CLU002"


@dataclass(frozen=True)
class SlotConcentrationOptions(RuleOptions):
    max_ratio: float = option(
        10.0, "Report a slot holding more than this many times the mean slot of its shard's keys or memory.", minimum=1
    )
    min_keys: int = option(1000, "Judge the keys of a slot holding at least this many keys.", minimum=1)
    min_bytes: int = option(16 * MB, "Judge the memory of a slot holding at least this many bytes.", minimum=0)
    max_traffic_share: float = option(
        0.3, "Report a slot taking more than this share of its shard's CPU time or network bytes.", minimum=0
    )
    min_cpu_usec: int = option(
        1_000_000, "Judge CPU shares on a shard whose slots took at least this many microseconds.", minimum=0
    )
    min_network_bytes: int = option(
        100 * MB, "Judge network shares on a shard whose slots moved at least this many bytes.", minimum=0
    )


@dataclass(frozen=True, slots=True)
class _Traffic:
    """One CLUSTER SLOT-STATS figure: its code, how to read it from a slot, and how a message says it."""

    code: str
    en: str
    zh: str

    def of(self, slot: SlotStat) -> int | None:
        return slot.cpu_usec if self.code == "cpu" else slot.network_bytes

    def amount(self, value: int) -> str:
        return f"{value / 1_000_000:,.1f} s" if self.code == "cpu" else human_bytes(value)


CPU = _Traffic("cpu", "CPU time", " CPU 时间")
NETWORK = _Traffic("network", "network bytes", "网络流量")


@rule(
    "CLU003",
    "slot-concentration",
    title=("Data or traffic concentrated in one slot", "数据或流量集中在单个槽位"),
    severity=Severity.WARNING,
    where=CLUSTER_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 命名",
        "000 §该如何设计数据结构以避开大Key和热Key — 热门场景",
    ),
)
class SlotConcentration(ClusterRule[SlotConcentrationOptions]):
    """Checks that no hash slot holds or serves far more than the other slots of its shard.

    ## What it does
    Compares each slot the run kept (the busiest by keys and by memory) with the mean slot of the shard
    serving it: the shard's keys (memory) over the number of slots it serves. A slot holding more than
    `max-ratio` times the mean slot's keys is reported as `keys`, its memory as `memory` (strictly more:
    a ratio equal to the limit passes). Keys are judged in a slot holding at least `min-keys` keys, memory
    in one holding at least `min-bytes`. The subject is the slot (`slot 866`), the value the ratio, and
    the message gives the slot's share of its shard and names the shard (address and shard id).

    When the slots carry `CLUSTER SLOT-STATS` figures (Valkey 8+, Redis 8.2+, with
    `cluster-slot-stats-enabled yes` for CPU and network), a slot taking more than `max-traffic-share` of
    its shard's CPU time is reported as `cpu`, of its network bytes (in and out) as `network`; the value is
    the share. A shard's total is the sum over its slots (`ShardStat.cpu_usec`, `network_bytes`), so it is
    judged only when the server gave the figure of every slot the shard serves, and only once its slots took
    `min-cpu-usec` of CPU time
    (`min-network-bytes` of traffic): these figures count from the server's last statistics reset, and a
    shard that has barely worked gives shares of almost nothing.

    Slot key counts come from the keys the scan read, or from `CLUSTER SLOT-STATS` when the server gave them:
    a server count is compared with the shard's own key count (`INFO keyspace`), a scan count with the
    keys the scan read there. With `--sample`, scan counts and memory are those of the sample: the ratios
    hold, messages say so, and `min-keys`/`min-bytes` are compared with the estimated figures. A shard
    never read is left out; one read only in part is marked.

    A slot whose keys (memory) are mostly one hashtag's, half or more, is left to CLU002 (hashtag-share)
    while that rule is enabled: the tag is the cause, and CLU002 judges it by its share of the shard, so
    the slot is reported once, as the tag. With CLU002 disabled, this rule reports such a slot and names
    the tag. CPU and network are reported here in any case (CLU002 judges no traffic), with the tag named
    when one holds most of the slot's keys.

    ## Why is this bad?
    A slot is the unit a cluster places and moves: everything in it lives on one shard, and no
    rebalancing can split it. A slot far above its neighbours is a hashtag pinning keys together, a family
    of keys whose names hash alike, or a few big keys; its shard fills first and cannot be relieved by
    moving slots. A slot taking a large share of its shard's CPU or network is a hot spot: that shard
    saturates while the others idle, and 000 §热门场景 sizes the remedy (copies of hot data) by the number
    of shards precisely because one shard serving all the reads is the limit.

    ## Example
    Shard 10.0.0.1:7000 holds 1,000,000 keys over 5461 slots (183 per slot), and slot 866 holds 120,000
    of them: 655 times the mean slot.

    ## Use instead
    Keys spread over the slots: hashtags only on the keys one multi-key command needs together, big
    collections split into smaller keys (`user:{uid}:feed:0`… by bucket), copies of hot read-mostly keys
    under several names so that they land on several shards (000 §热门场景).

    ## Options
    - `max-ratio`: report a slot holding more than this many times the mean slot of its shard's keys or
      memory (default 10: with keys hashed evenly, a slot of a few thousand keys strays from the mean by a
      few percent, so ten times the mean is never chance).
    - `min-keys`: judge the keys of a slot holding at least this many keys (default 1000, as CLU002: in a
      small cluster a slot of a few keys can be ten times a mean of a fraction of a key).
    - `min-bytes`: judge the memory of a slot holding at least this many bytes (default 16 MB, as CLU001
      and CLU002).
    - `max-traffic-share`: report a slot taking more than this share of its shard's CPU time or network
      bytes (default 0.3: the hot-key line of the Huawei DCS guidance, one key taking 3,000 of its shard's
      10,000 QPS).
    - `min-cpu-usec`: judge CPU shares on a shard whose slots took at least this many microseconds
      (default 1,000,000: one second of CPU, a few hundred thousand commands).
    - `min-network-bytes`: judge network shares on a shard whose slots moved at least this many bytes
      (default 100 MB).

    ## Source
    - 000 §Key 名字如何设计 — 命名: take care that large amounts of data do not fall into the same shard
      (要注意使用 hashtag 避免大量数据落入同一个数据分片), which unbalances the nodes.
    - 000 §该如何设计数据结构以避开大Key和热Key — 热门场景: hot read-mostly data is kept in several copies,
      as many as the cluster has shards or more, so that its reads spread over the shards
      (份数最好是集群分片数的一倍及以上).
    """

    Options = SlotConcentrationOptions
    needs = frozenset({"memory"})

    def check(self, cluster: ClusterView, ctx: RuleContext[SlotConcentrationOptions]) -> Iterator[SubjectViolation]:
        opts = ctx.options
        defer = HASHTAG_RULE in ctx.enabled
        tags: dict[int, list[HashtagStat]] = {}
        for tag in cluster.hashtags:
            tags.setdefault(tag.slot, []).append(tag)
        totals = {traffic.code: _totals(cluster, traffic) for traffic in (CPU, NETWORK)}
        floors = {CPU.code: opts.min_cpu_usec, NETWORK.code: opts.min_network_bytes}
        for slot in cluster.slots:
            if slot.shard is None or not 0 <= slot.shard < len(cluster.shards):
                continue
            shard = cluster.shards[slot.shard]
            if shard.status == SHARD_FAILED or not shard.slot_count:
                continue
            judged = _Judged(cluster, slot, shard, tags.get(slot.slot, []))
            yield from _keys(judged, defer, opts)
            yield from _memory(judged, defer, opts)
            for traffic in (CPU, NETWORK):
                total = totals[traffic.code].get(slot.shard)
                value = traffic.of(slot)
                if total is None or value is None or not total or total < floors[traffic.code]:
                    continue
                if value / total > opts.max_traffic_share:
                    yield _traffic(judged, traffic, value=value, total=total)


@dataclass(frozen=True, slots=True)
class _Judged:
    """A slot being judged, the shard serving it, and the hashtags the run found in it."""

    cluster: ClusterView
    slot: SlotStat
    shard: ShardStat
    tags: list[HashtagStat]

    def dominant(self, whole: int, weight: Callable[[HashtagStat], int]) -> HashtagStat | None:
        """The hashtag holding half or more of the slot's keys (memory), if one does."""
        best = max(self.tags, key=weight, default=None)
        if best is None or not whole or weight(best) * 2 < whole:
            return None
        return best


def _tag_keys(tag: HashtagStat) -> int:
    return tag.keys


def _tag_memory(tag: HashtagStat) -> int:
    return tag.memory or 0


def _keys(judged: _Judged, defer: bool, opts: SlotConcentrationOptions) -> Iterator[SubjectViolation]:
    cluster, slot, shard = judged.cluster, judged.slot, judged.shard
    tag = judged.dominant(slot.keys, _tag_keys)
    if tag is not None and defer:
        return
    if cluster.slots_from == SLOTS_FROM_SERVER:
        whole = shard.server_keys if shard.server_keys is not None else estimated(cluster, shard.keys)
        counted, sample = float(slot.keys), Text("", "")
    else:
        whole, counted, sample = shard.keys, estimated(cluster, slot.keys), sampled(cluster)
    if counted < opts.min_keys or not whole:
        return
    mean = whole / shard.slot_count
    skew = slot.keys / mean
    if skew <= opts.max_ratio:
        return
    yield _concentrated(
        judged,
        "keys",
        held=Text(f"{slot.keys:,} keys{sample.en}", f"{slot.keys:,} 个 Key{sample.zh}"),
        average=Text(f"{mean:,.1f} keys", f"{mean:,.1f} 个 Key"),
        skew=skew,
        of_shard=share(slot.keys, whole),
        tag=tag,
    )


def _memory(judged: _Judged, defer: bool, opts: SlotConcentrationOptions) -> Iterator[SubjectViolation]:
    cluster, slot, shard = judged.cluster, judged.slot, judged.shard
    if slot.memory is None or not shard.memory or estimated(cluster, slot.memory) < opts.min_bytes:
        return
    tag = judged.dominant(slot.memory, _tag_memory)
    if tag is not None and defer:
        return
    mean = shard.memory / shard.slot_count
    skew = slot.memory / mean
    if skew <= opts.max_ratio:
        return
    sample = sampled(cluster)
    yield _concentrated(
        judged,
        "memory",
        held=Text(
            f"{human_bytes(slot.memory)} in {slot.keys:,} keys{sample.en}",
            f"{slot.keys:,} 个 Key 共 {human_bytes(slot.memory)}{sample.zh}",
        ),
        average=Text(human_bytes(mean), human_bytes(mean)),
        skew=skew,
        of_shard=share(slot.memory, shard.memory),
        tag=tag,
    )


def _totals(cluster: ClusterView, traffic: _Traffic) -> dict[int, int]:
    """Per shard index, the SLOT-STATS figure summed over the shard's slots, for the shards whose server gave
    it for every slot (the view lists only the busiest slots; the shard holds the total)."""
    totals: dict[int, int] = {}
    for index, shard in enumerate(cluster.shards):
        total = shard.cpu_usec if traffic.code == "cpu" else shard.network_bytes
        if total is not None:
            totals[index] = total
    return totals


def _cause(slot: SlotStat, tag: HashtagStat | None) -> Text:
    if tag is not None:
        shown = shown_tag(tag.tag)
        return Text(
            f"most of them share the hashtag {shown}: narrow the tag to the keys one multi-key command needs "
            "together, or drop the braces",
            f"其中大部分使用同一个 hashtag {shown}：让 tag 只包含同一个多 Key 命令需要放在一起的 Key，或者去掉括号",
        )
    return Text(
        f"no hashtag explains it: look at its keys (`CLUSTER GETKEYSINSLOT {slot.slot} 10`) for big keys or "
        "names that hash alike, and split them",
        f"没有 hashtag 能解释：查看其中的 Key（`CLUSTER GETKEYSINSLOT {slot.slot} 10`），找出大 Key 或哈希到"
        "同一槽位的键名并拆分",
    )


def _concentrated(
    judged: _Judged, code: str, *, held: Text, average: Text, skew: float, of_shard: str, tag: HashtagStat | None
) -> SubjectViolation:
    slot, shard = judged.slot, judged.shard
    mark, cause, name = partial_mark(shard), _cause(slot, tag), shard_name(shard)
    message = Text(
        f"slot {slot.slot} holds {held.en}, {ratio(skew)}× the mean slot of shard {name.en}{mark.en} "
        f"({average.en} over its {shard.slot_count:,} slots), {of_shard} of the shard; a slot cannot be split, "
        f"so its shard fills first: {cause.en}",
        f"槽位 {slot.slot} 有 {held.zh}，是分片 {name.zh}{mark.zh} 平均每个槽位（{shard.slot_count:,} "
        f"个槽位，平均 {average.zh}）的 {ratio(skew)} 倍，占该分片的 {of_shard}；槽位无法拆分，"
        f"该分片会最先写满：{cause.zh}",
    )
    violation = Violation(code, message, value=round(skew, 2))
    return SubjectViolation(violation, f"slot {slot.slot}", tag.tag if tag is not None else None)


def _traffic(judged: _Judged, traffic: _Traffic, *, value: int, total: int) -> SubjectViolation:
    """A slot taking a large share of its shard's traffic; the hashtag holding most of its keys is named."""
    slot, shard = judged.slot, judged.shard
    tag = judged.dominant(slot.keys, _tag_keys)
    mark, name = partial_mark(shard), shard_name(shard)
    if tag is not None:
        shown = shown_tag(tag.tag)
        cause = Text(f"most of its keys share the hashtag {shown}", f"其中大部分 Key 使用同一个 hashtag {shown}")
    else:
        cause = Text(
            f"find its hot keys (`CLUSTER GETKEYSINSLOT {slot.slot} 10`, `redis-cli --hotkeys`)",
            f"找出其中的热点 Key（`CLUSTER GETKEYSINSLOT {slot.slot} 10`、`redis-cli --hotkeys`）",
        )
    message = Text(
        f"slot {slot.slot} took {share(value, total)} of the {traffic.en} of shard {name.en}{mark.en} "
        f"({traffic.amount(value)} of {traffic.amount(total)}, CLUSTER SLOT-STATS): that shard saturates first "
        f"and moving the slot only moves the load; {cause.en}, then spread them (copies of hot read-mostly "
        "keys under several names land on several shards)",
        f"槽位 {slot.slot} 占用了分片 {name.zh}{mark.zh} {share(value, total)} 的{traffic.zh}"
        f"（{traffic.amount(value)} / {traffic.amount(total)}，CLUSTER SLOT-STATS）：该分片会最先饱和，"
        f"迁移槽位只会转移负载；{cause.zh}，再把它们分散（读多写少的热点数据以多个名字保存多份，"
        "落到多个分片）",
    )
    violation = Violation(traffic.code, message, value=round(value / total, 3))
    return SubjectViolation(violation, f"slot {slot.slot}", tag.tag if tag is not None else None)
