"""What a live scan's report says about the scan itself: the header's partial marks and the notes.

A live report must never look more complete than it is: every way it can cover less than the server holds
(interrupted, given up, resumed, keys the user may not read, databases not reached, a restart or a flush in
the middle, one shard of a cluster, a stale replica) gets a `PARTIAL_*` code in the header and a note saying
what it costs, in English and Chinese.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rediscipline.model.display import display_bytes
from rediscipline.model.report import (
    PARTIAL_CONNECTION_LOST,
    PARTIAL_DATABASES,
    PARTIAL_FLUSHED,
    PARTIAL_INTERRUPTED,
    PARTIAL_RESTARTED,
    PARTIAL_RESUMED,
    PARTIAL_SHARDS,
    PARTIAL_SHRANK,
    PARTIAL_STALE_REPLICA,
    PARTIAL_UNREADABLE,
    UnreadableKeys,
)
from rediscipline.model.server import (
    CHECK_ACCESS,
    CHECK_ACL,
    CHECK_CONFIG,
    CHECK_INFO,
    CHECK_LENGTH,
    CHECK_MEMORY,
    CHECK_NO_TOUCH,
    CHECK_OBJECT,
    CHECK_SELECT,
    CHECK_SLOWLOG,
    CHECK_TYPE,
)
from rediscipline.model.text import Text
from rediscipline.sources.live.consistency import Drift
from rediscipline.sources.live.probes import ELEMENT_CAP

#: Patterns and rules named in the note about unreadable keys, at most.
PATTERNS_SHOWN = 5
RULES_SHOWN = 12
PATTERN_LIMIT = 60


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened during one live scan, for its header and notes."""

    unavailable: Mapping[str, str]
    interrupted: bool = False
    stopped: str | None = None  # why the scan gave up (the server could not be reached again)
    resume_token: str | None = None  # where to continue, when it stopped early
    resumed_from: str | None = None
    rate: float | None = None
    population: int = 0
    filtered: bool = False
    unreadable: UnreadableKeys | None = None
    drift: Drift | None = None
    fell_short: tuple[int, int] | None = None  # (keys at the start, keys SCAN listed) when most were missed
    vanished: tuple[int, int] | None = None  # (keys listed, keys gone before their probe) when most vanished
    not_scanned: tuple[int, ...] = ()
    cluster_masters: int | None = None
    stale_replica: str | None = None
    elements_unread: int = 0
    reconnects: int = 0
    databases: int | None = None  # how many the server has (CONFIG GET databases), when known

    @property
    def databases_unknown(self) -> bool:
        """INFO and SELECT both refused: databases other than 0 could be neither counted nor scanned."""
        return CHECK_INFO in self.unavailable and CHECK_SELECT in self.unavailable

    def partial(self) -> tuple[str, ...]:
        drift = self.drift
        marks = (
            (PARTIAL_INTERRUPTED, self.interrupted),
            (PARTIAL_CONNECTION_LOST, self.stopped is not None),
            (PARTIAL_RESUMED, self.resumed_from is not None),
            (PARTIAL_RESTARTED, drift is not None and drift.restarted),
            (PARTIAL_FLUSHED, drift is not None and drift.flushes > 0),
            (PARTIAL_SHRANK, (drift is not None and drift.shrank) or bool(self.fell_short or self.vanished)),
            (PARTIAL_UNREADABLE, self.unreadable is not None and self.unreadable.keys > 0),
            (PARTIAL_DATABASES, bool(self.not_scanned) or self.databases_unknown),
            (PARTIAL_SHARDS, self.cluster_masters is not None and self.cluster_masters != 1),
            (PARTIAL_STALE_REPLICA, self.stale_replica is not None),
        )
        return tuple(code for code, applies in marks if applies)


#: What a refused check costs, in the words of the report.
COSTS = {
    CHECK_MEMORY: (
        "key memory was not measured: byte-size rules, big-element probes and memory totals are missing",
        "未能测量 Key 内存：按字节的规则、大元素探测与内存统计缺失",
    ),
    CHECK_OBJECT: (
        "OBJECT was refused: encoding and idle-time rules did not run",
        "OBJECT 命令被拒绝：编码与空闲时间规则未运行",
    ),
    CHECK_SELECT: (
        "SELECT was refused: only the connection's database was scanned",
        "SELECT 被拒绝：只扫描了连接所在的库",
    ),
    CHECK_INFO: (
        "INFO was refused: memory, replication and command statistics are unknown, and the server rules that "
        "read them did not run; the keys of each database were counted with DBSIZE",
        "INFO 被拒绝：内存、复制与命令统计未知，依赖它们的实例规则未运行；各库的 Key 数由 DBSIZE 统计",
    ),
    CHECK_TYPE: (
        "TYPE was refused: keys were judged by their names only",
        "TYPE 被拒绝：只按 Key 名做了检查",
    ),
    CHECK_LENGTH: (
        "a length command (STRLEN, HLEN, SCARD...) was refused: element counts and string sizes are missing",
        "长度命令（STRLEN、HLEN、SCARD 等）被拒绝：元素个数与字符串大小缺失",
    ),
    CHECK_NO_TOUCH: (
        "CLIENT NO-TOUCH is unavailable (Redis/Valkey < 7.2, or not permitted): the length probes may refresh "
        "keys' LRU/LFU data; idle times were read before them",
        "CLIENT NO-TOUCH 不可用（版本低于 7.2 或无权限）：长度探测可能刷新 LRU/LFU；空闲时间在其之前读取",
    ),
    CHECK_ACCESS: (
        "whether the scanning user can run KEYS, FLUSHALL, CONFIG… could not be checked",
        "无法检查扫描用户能否执行 KEYS、FLUSHALL、CONFIG 等命令",
    ),
    CHECK_ACL: ("ACL LIST was refused: users without a password were not checked", "ACL LIST 被拒绝：未检查无密码用户"),
    CHECK_CONFIG: (
        "CONFIG GET was refused: configuration rules used INFO only",
        "CONFIG GET 被拒绝：配置类规则只依据 INFO",
    ),
    CHECK_SLOWLOG: ("the slow log was not read", "未读取慢日志"),
}


def scan_notes(outcome: Outcome) -> list[Text]:
    notes: list[Text] = []
    for check, reason in sorted(outcome.unavailable.items()):
        en, zh = COSTS.get(check, (f"{check} could not run", f"{check} 无法执行"))
        notes.append(Text(f"{en} ({check}: {reason})", f"{zh}（{check}：{reason}）"))
    notes += _coverage_notes(outcome)
    notes += _change_notes(outcome)
    if outcome.rate is not None and outcome.rate < 1:
        notes.append(
            Text(
                f"sampled scan: each of {outcome.population} keys was kept with probability {outcome.rate:.4g}; "
                "counts are estimates with 95% confidence intervals",
                f"抽样扫描：{outcome.population} 个 Key 中每个以概率 {outcome.rate:.4g} 被抽中；"
                "计数为带 95% 置信区间的估计值",
            )
        )
    if outcome.filtered:
        notes.append(
            Text(
                "filtered scan (--match/--type): totals cover matching keys only",
                "已按 --match/--type 过滤：统计仅覆盖匹配的 Key",
            )
        )
    if outcome.elements_unread:
        cap = f"{ELEMENT_CAP >> 20} MB"
        notes.append(
            Text(
                f"{outcome.elements_unread:,} collections hold elements too big to read (average above {cap}): "
                "their largest element is taken to be the average, a lower bound",
                f"{outcome.elements_unread:,} 个集合的元素过大未读取（平均超过 {cap}）：以平均大小作为最大元素的下限",
            )
        )
    return notes


def _coverage_notes(outcome: Outcome) -> list[Text]:
    """Notes about what the scan did not reach: where it stopped, where it started, what it could not read."""
    notes: list[Text] = []
    tail_en = f"; continue with --resume {outcome.resume_token}" if outcome.resume_token else ""
    tail_zh = f"；继续请用 --resume {outcome.resume_token}" if outcome.resume_token else ""
    if outcome.stopped is not None:
        notes.append(
            Text(
                f"scan stopped: {outcome.stopped}; this report covers the keys seen so far{tail_en}",
                f"扫描中止：{outcome.stopped}；报告只包含已扫描的 Key{tail_zh}",
            )
        )
    elif outcome.interrupted:
        notes.append(
            Text(
                f"scan interrupted: this report covers the keys seen so far{tail_en}",
                f"扫描被中断：报告只包含已扫描的 Key{tail_zh}",
            )
        )
    if outcome.reconnects:
        notes.append(
            Text(
                f"the connection was lost and reopened {outcome.reconnects} times; the scan went on from the same "
                "cursor without reporting a key twice",
                f"连接断开并重连了 {outcome.reconnects} 次；扫描从原游标继续，没有重复报告 Key",
            )
        )
    if outcome.resumed_from is not None:
        notes.append(
            Text(
                f"continuation of an earlier scan from --resume {outcome.resumed_from}: counts, findings and "
                "the keyspace summary cover only the keys from that cursor on",
                f"这是从 --resume {outcome.resumed_from} 继续的扫描：计数、问题与键空间统计只包含该游标之后的 Key",
            )
        )
    unreadable = outcome.unreadable
    if unreadable is not None and unreadable.keys:
        shown = ", ".join(
            f"{display_bytes(p.pattern, PATTERN_LIMIT)} ({p.count:,})" for p in unreadable.patterns[:PATTERNS_SHOWN]
        )
        if len(unreadable.patterns) > PATTERNS_SHOWN:
            shown += ", …"
        rules = ", ".join(unreadable.rules[:RULES_SHOWN])
        more = len(unreadable.rules) - RULES_SHOWN
        more_en, more_zh = (f" and {more} more", f" 等 {len(unreadable.rules)} 条") if more > 0 else ("", "")
        cost_en = f"; rules {rules}{more_en} could not judge them" if rules else ""
        cost_zh = f"；规则 {rules}{more_zh}无法判断这些 Key" if rules else ""
        notes.append(
            Text(
                f"{unreadable.keys:,} keys are not readable by this user (ACL key permissions), e.g. {shown}: "
                f"only their names were checked{cost_en}, and the keyspace summary leaves them out",
                f"{unreadable.keys:,} 个 Key 当前用户无权读取（ACL Key 权限），例如 {shown}：只检查了 Key 名{cost_zh}，"
                "键空间统计也不包含它们",
            )
        )
    if outcome.not_scanned:
        dbs = ", ".join(f"db{db}" for db in outcome.not_scanned)
        notes.append(
            Text(
                f"databases not scanned (SELECT refused): {dbs}; their keys are missing from this report",
                f"未扫描的库（SELECT 被拒绝）：{dbs}；报告中没有这些库的 Key",
            )
        )
    elif outcome.databases_unknown:
        others = f" (db1-db{outcome.databases - 1})" if outcome.databases and outcome.databases > 1 else ""
        notes.append(
            Text(
                f"INFO and SELECT were refused: databases other than db0{others} could be neither counted nor scanned",
                f"INFO 与 SELECT 均被拒绝：db0 以外的库{others}既无法统计也无法扫描",
            )
        )
    if outcome.cluster_masters is not None and outcome.cluster_masters != 1:
        masters = outcome.cluster_masters
        if masters:
            en = f"one node of a cluster of {masters} masters: only its own keys were scanned, the other {masters - 1}"
            zh = f"这是 {masters} 个主节点的集群中的一个节点：只扫描了它自己的 Key，其余 {masters - 1} 个分片"
        else:
            en = "one node of a cluster (CLUSTER INFO refused: how many masters is unknown): the other"
            zh = "这是集群中的一个节点（CLUSTER INFO 被拒绝，主节点数未知）：其余分片"
        notes.append(
            Text(
                f"this server is {en} shards were not (scan each master, or their dumps together)",
                f"{zh}未扫描（请逐个扫描主节点，或一起扫描它们的 RDB）",
            )
        )
    if outcome.stale_replica is not None:
        notes.append(
            Text(
                f"this server is {outcome.stale_replica}: its keys may be missing or old (scanned with --allow-stale)",
                f"该实例是未与主节点同步的副本（{outcome.stale_replica}）：Key 可能缺失或过时（使用了 --allow-stale）",
            )
        )
    return notes


def _change_notes(outcome: Outcome) -> list[Text]:
    """Notes about the server changing under the scan: a restart, a flush, keys vanishing en masse."""
    notes: list[Text] = []
    drift = outcome.drift
    meanwhile_en = meanwhile_zh = ""
    if drift is not None and (drift.expired or drift.evicted):
        meanwhile_en = f" ({drift.expired or 0:,} keys expired and {drift.evicted or 0:,} were evicted meanwhile)"
        meanwhile_zh = f"（期间过期 {drift.expired or 0:,} 个、淘汰 {drift.evicted or 0:,} 个 Key）"
    if drift is not None and drift.restarted:
        notes.append(
            Text(
                "the server restarted during the scan (its run_id changed): keys from before the restart may be "
                "missing, and the key counts in the header are from before it",
                "扫描期间实例重启（run_id 改变）：重启前的 Key 可能缺失，表头的 Key 数是重启前的",
            )
        )
    if drift is not None and drift.flushes:
        notes.append(
            Text(
                f"FLUSHALL or FLUSHDB ran during the scan ({drift.flushes} calls): the keys they deleted are "
                "missing from this report",
                f"扫描期间执行了 FLUSHALL 或 FLUSHDB（{drift.flushes} 次）：被删除的 Key 不在报告中",
            )
        )
    if drift is not None and drift.shrank:
        notes.append(
            Text(
                f"the keyspace shrank during the scan, from {drift.keys_before:,} keys at the start to "
                f"{drift.keys_after:,} at the end{meanwhile_en}: this report covers only the keys still there "
                "when they were scanned",
                f"扫描期间键空间缩小：开始时 {drift.keys_before:,} 个 Key，结束时 {drift.keys_after:,} 个"
                f"{meanwhile_zh}；报告只包含被扫描时仍存在的 Key",
            )
        )
    if outcome.fell_short is not None:
        before, seen = outcome.fell_short
        notes.append(
            Text(
                f"SCAN listed {seen:,} of the {before:,} keys the scanned databases held at the start: the others "
                f"were deleted or expired meanwhile{meanwhile_en}; this report covers only part of the keyspace",
                f"SCAN 只列出了开始时 {before:,} 个 Key 中的 {seen:,} 个：其余在扫描期间被删除或过期{meanwhile_zh}；"
                "报告只覆盖部分键空间",
            )
        )
    if outcome.vanished is not None:
        listed, gone = outcome.vanished
        notes.append(
            Text(
                f"{gone:,} of the {listed:,} keys SCAN listed vanished before they could be probed: the keyspace "
                "was being deleted (or expired) under the scan",
                f"SCAN 列出的 {listed:,} 个 Key 中有 {gone:,} 个在探测前消失：扫描期间键空间正在被删除（或过期）",
            )
        )
    return notes
