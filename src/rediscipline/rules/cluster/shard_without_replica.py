"""CLU005 shard-without-replica."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.cluster import CLUSTER_SLOTS, ClusterView
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import ClusterRule, RuleContext, SubjectViolation, rule
from rediscipline.rules.cluster.shards import (
    CLUSTER_CHECKS,
    address_bytes,
    address_of,
    shard_name,
    shard_subject,
    share,
)
from rediscipline.rules.options import RuleOptions


@rule(
    "CLU005",
    "shard-without-replica",
    title=("Shard without an online replica", "分片没有在线的从节点"),
    severity=Severity.WARNING,
    where=CLUSTER_CHECKS,
    sources=(
        "000 §该如何设计数据结构以避开大Key和热Key — 热门场景",
        "002 §数据保存规范 — 规范四：控制 Redis 实例的容量",
    ),
)
class ShardWithoutReplica(ClusterRule[RuleOptions]):
    """Checks that every shard has a replica to fail over to.

    ## What it does
    Reports each shard serving slots whose master has no replica online (none configured, or every one
    failed or still loading), as the cluster announced its nodes at the start of the scan. The finding
    names the shard (the address scanned and the shard id) and the slots it serves; its value is 0, the
    online replicas. A master serving no slot holds nothing and is not reported.

    ## Why is this bad?
    In Redis Cluster a shard survives the loss of its master only by promoting one of its replicas. Without
    one, a master that crashes, is restarted or loses its host takes its slots with it: every command on
    their keys fails until the node is back, and with `cluster-require-full-coverage yes` (the default)
    the whole cluster refuses all commands meanwhile. Whatever was written since the last RDB or AOF fsync
    on that node is lost, and a restart reloads the whole data set before the slots serve again.

    ## Example
    ```
    10.0.0.1:7000  master  slots 0-5460      replicas: 10.0.0.4:7000
    10.0.0.2:7000  master  slots 5461-10922  replicas: (none)
    ```

    ## Use instead
    At least one replica per master, on another host:
    ```
    redis-cli --cluster add-node 10.0.0.5:7000 10.0.0.2:7000 --cluster-slave
    ```

    ## Options
    None.

    ## Source
    - 000 §该如何设计数据结构以避开大Key和热Key — 热门场景: in a distributed Redis, data that must stay
      available is kept in several copies, sized by the number of shards; a shard whose data exists on
      one node only has no copy to serve from.
    - 002 §数据保存规范 — 规范四：控制 Redis 实例的容量: instances are sized so that master–replica
      synchronisation (主从集群进行数据同步) finishes quickly: the convention takes a replica per instance
      as given.
    """

    def check(self, cluster: ClusterView, ctx: RuleContext[RuleOptions]) -> Iterator[SubjectViolation]:
        for shard in cluster.shards:
            if not shard.slot_count or shard.replicas:
                continue
            slots, name = shard.slot_count, shard_name(shard)
            message = Text(
                f"shard {name.en} has no online replica: if its master fails, its {slots:,} slots "
                f"({share(slots, CLUSTER_SLOTS)} of the cluster) have no node to fail over to, their keys are "
                "unavailable until it is back (the whole cluster with cluster-require-full-coverage yes, the "
                "default) and writes since its last save are lost; add a replica on another host "
                f"(`redis-cli --cluster add-node NEW_HOST:PORT {address_of(shard)} --cluster-slave`)",
                f"分片 {name.zh} 没有在线的从节点：主节点一旦故障，其 {slots:,} 个槽位"
                f"（占集群的 {share(slots, CLUSTER_SLOTS)}）无法故障转移，这些 Key 在节点恢复前不可用"
                "（cluster-require-full-coverage 为 yes 时，即默认情况下，整个集群都不可用），"
                "上次持久化之后的写入也会丢失；请在另一台主机上为它添加从节点"
                f"（`redis-cli --cluster add-node NEW_HOST:PORT {address_of(shard)} --cluster-slave`）",
            )
            violation = Violation("no-replica", message, value=0)
            yield SubjectViolation(violation, shard_subject(shard), address_bytes(shard))
