"""CLU006 uncovered-slots."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.cluster import CLUSTER_SLOTS, ClusterView
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import ClusterRule, RuleContext, SubjectViolation, rule
from rediscipline.rules.cluster.shards import CLUSTER_CHECKS
from rediscipline.rules.options import RuleOptions

#: The subject of the finding: the cluster's slot map, not one shard.
SUBJECT = "slot coverage"


@rule(
    "CLU006",
    "uncovered-slots",
    title=("Hash slots served by no master", "存在无主节点负责的槽位"),
    severity=Severity.ERROR,
    where=CLUSTER_CHECKS,
    sources=(
        "000 §Key 名字如何设计 — 命名",
        "003 §大批量Key过期引发的性能问题 — 方案4: 使用Redis Cluster分散压力",
    ),
)
class UncoveredSlots(ClusterRule[RuleOptions]):
    """Checks that every one of the 16,384 hash slots is served by a master.

    ## What it does
    Counts the hash slots that no master of the cluster serves, from the topology the scan read
    (`CLUSTER SHARDS`, else `CLUSTER SLOTS`), and reports them once, as an error, when there is any; the
    value is the number of slots.

    ## Why is this bad?
    A key belongs to exactly one slot, and a slot no master serves has nowhere to go: every command on
    its keys fails with `CLUSTERDOWN Hash slot not served`. With `cluster-require-full-coverage yes` (the
    default) the nodes stop accepting any command as soon as one slot is uncovered, so the whole cluster is
    down. Slots are left uncovered by a resharding or a `CLUSTER DELSLOTS` that did not finish, or by a
    failed master without a replica (CLU005).

    ## Example
    ```
    10.0.0.1:7000  slots 0-5460
    10.0.0.2:7000  slots 5461-10922
    (slots 10923-16383 served by no master)
    ```

    ## Use instead
    Every slot assigned: `redis-cli --cluster check HOST:PORT` lists the uncovered slots and
    `redis-cli --cluster fix HOST:PORT` assigns them.

    ## Options
    None.

    ## Source
    - 000 §Key 名字如何设计 — 命名: a cluster routes each key by its hashtag, or its whole name, to the one
      shard serving its slot (集群版是按照 hashtag … 来进行路由的); a slot no shard serves routes nowhere.
    - 003 §大批量Key过期引发的性能问题 — 方案4: 使用Redis Cluster分散压力: a cluster spreads every key over its
      nodes, which holds only while every slot has a node.
    """

    def check(self, cluster: ClusterView, ctx: RuleContext[RuleOptions]) -> Iterator[SubjectViolation]:
        count = cluster.uncovered_slots
        if count <= 0:
            return
        message = Text(
            f"{count:,} of the {CLUSTER_SLOTS:,} hash slots are served by no master: every command on their keys "
            "fails with CLUSTERDOWN, and with cluster-require-full-coverage yes (the default) the cluster refuses "
            "every command; assign them (`redis-cli --cluster fix HOST:PORT`)",
            f"{CLUSTER_SLOTS:,} 个槽位中有 {count:,} 个没有任何主节点负责：对其中 Key 的命令都会以 CLUSTERDOWN "
            "失败，cluster-require-full-coverage 为 yes（默认）时整个集群拒绝所有命令；"
            "请分配这些槽位（`redis-cli --cluster fix HOST:PORT`）",
        )
        yield SubjectViolation(Violation("uncovered", message, value=count), SUBJECT)
