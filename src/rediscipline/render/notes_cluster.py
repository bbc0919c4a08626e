"""The texts of the notes a cluster scan writes: how its shards were read, and what changed meanwhile."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rediscipline.model.text import Text

Params = Mapping[str, Any]
#: Slots a note lists before it says how many more there are.
SLOTS_SHOWN = 10


def _slots(slots: Sequence[int]) -> str:
    shown = ", ".join(str(slot) for slot in slots[:SLOTS_SHOWN])
    return shown + (f" (+{len(slots) - SLOTS_SHOWN})" if len(slots) > SLOTS_SHOWN else "")


def _replica_fallback(p: Params) -> Text:
    return Text(
        f"shard {p['shard']}: no replica could be read ({p['reason']}); its master was scanned instead",
        f"分片 {p['shard']}：没有可读的副本（{p['reason']}），改为扫描其主节点",
    )


def _master_failed(p: Params) -> Text:
    return Text(
        f"shard {p['shard']}: the cluster marks its master as failed; its replica {p['replica']} was scanned",
        f"分片 {p['shard']}：集群标记其主节点已故障，改为扫描副本 {p['replica']}",
    )


def _topology_refused(p: Params) -> Text:
    refused = "; ".join(p["refused"])
    return Text(
        f"the cluster's shards were read with {p['used']} ({refused})",
        f"集群分片信息通过 {p['used']} 读取（{refused}）",
    )


def _slots_migrating(p: Params) -> Text:
    slots = _slots(p["slots"])
    return Text(
        f"slots migrating between shards during the scan: {slots}; their keys may be missed or counted twice",
        f"扫描期间有槽位在分片间迁移：{slots}；其中的 Key 可能遗漏或重复计数",
    )


def _shard_missed(p: Params) -> Text:
    if p["status"] == "failed":
        return Text(
            f"shard {p['shard']} (slots {p['slots']}) was not scanned: {p['reason']}; its keys are not in this report",
            f"分片 {p['shard']}（槽位 {p['slots']}）未扫描：{p['reason']}；报告不含其 Key",
        )
    return Text(
        f"shard {p['shard']} (slots {p['slots']}) was scanned in part ({p['reason']}): some of its keys are missing",
        f"分片 {p['shard']}（槽位 {p['slots']}）只扫描了一部分（{p['reason']}）：部分 Key 未包含在报告中",
    )


def _topology_unknown(_p: Params) -> Text:
    return Text(
        "the cluster could not be asked again at the end of the scan: a failover or slot migration meanwhile "
        "would not be noticed",
        "扫描结束时无法再次读取集群拓扑：期间发生的故障切换或槽位迁移无法察觉",
    )


def _slots_moved(p: Params) -> Text:
    after = p["after"] or "none"
    return Text(
        f"shard {p['shard']} served slots {p['before']} at the start of the scan and {after} at the end: keys "
        "that moved may be missed or counted twice",
        f"分片 {p['shard']} 在扫描开始时负责槽位 {p['before']}，结束时为 {after}：迁移的 Key 可能遗漏或重复计数",
    )


def _failover(p: Params) -> Text:
    return Text(
        f"shard {p['shard']} failed over during the scan: {p['master']} is its master now",
        f"分片 {p['shard']} 在扫描期间发生故障切换：当前主节点为 {p['master']}",
    )


CLUSTER_NOTES: dict[str, Callable[[Params], Text]] = {
    "cluster-replica-fallback": _replica_fallback,
    "cluster-master-failed": _master_failed,
    "cluster-topology-refused": _topology_refused,
    "cluster-slots-migrating": _slots_migrating,
    "cluster-shard-missed": _shard_missed,
    "cluster-topology-unknown-at-end": _topology_unknown,
    "cluster-slots-moved": _slots_moved,
    "cluster-failover": _failover,
}

__all__ = ["CLUSTER_NOTES"]
