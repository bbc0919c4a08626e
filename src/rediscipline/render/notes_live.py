"""The texts of a live scan's notes (`sources.live.outcome`): refused checks, coverage, changes under the scan."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rediscipline.model.display import display_bytes
from rediscipline.model.server import (
    CHECK_ACCESS,
    CHECK_ACL,
    CHECK_CONFIG,
    CHECK_INFO,
    CHECK_KEY_READS,
    CHECK_LENGTH,
    CHECK_MEMORY,
    CHECK_NO_TOUCH,
    CHECK_OBJECT,
    CHECK_SELECT,
    CHECK_SLOWLOG,
    CHECK_TYPE,
)
from rediscipline.model.text import Text

Params = Mapping[str, Any]

#: Patterns and rules named in the note about unreadable keys, at most.
PATTERNS_SHOWN = 5
RULES_SHOWN = 12
PATTERN_LIMIT = 60

#: What a refused check costs, in the words of the report.
COSTS = {
    CHECK_MEMORY: Text(
        "key memory was not measured: byte-size rules, big-element probes and memory totals are missing",
        "未能测量 Key 内存：按字节的规则、大元素探测与内存统计缺失",
    ),
    CHECK_OBJECT: Text(
        "OBJECT was refused: encoding and idle-time rules did not run", "OBJECT 命令被拒绝：编码与空闲时间规则未运行"
    ),
    CHECK_SELECT: Text(
        "SELECT was refused: only the connection's database was scanned", "SELECT 被拒绝：只扫描了连接所在的库"
    ),
    CHECK_INFO: Text(
        "INFO was refused: memory, replication and command statistics are unknown, and the server rules that "
        "read them did not run; the keys of each database were counted with DBSIZE",
        "INFO 被拒绝：内存、复制与命令统计未知，依赖它们的实例规则未运行；各库的 Key 数由 DBSIZE 统计",
    ),
    CHECK_TYPE: Text("TYPE was refused: keys were judged by their names only", "TYPE 被拒绝：只按 Key 名做了检查"),
    CHECK_LENGTH: Text(
        "a length command (STRLEN, HLEN, SCARD...) was refused: element counts and string sizes are missing",
        "长度命令（STRLEN、HLEN、SCARD 等）被拒绝：元素个数与字符串大小缺失",
    ),
    CHECK_KEY_READS: Text(
        "the cluster node refused to read some keys (the cluster was down, or their slot moved): they were "
        "judged by their names only",
        "集群节点拒绝读取部分 Key（集群不可用，或其槽位已迁移）：这些 Key 只按名称做了检查",
    ),
    CHECK_NO_TOUCH: Text(
        "CLIENT NO-TOUCH is unavailable (Redis/Valkey < 7.2, or not permitted): the length probes may refresh "
        "keys' LRU/LFU data; idle times were read before them",
        "CLIENT NO-TOUCH 不可用（版本低于 7.2 或无权限）：长度探测可能刷新 LRU/LFU；空闲时间在其之前读取",
    ),
    CHECK_ACCESS: Text(
        "whether the scanning user can run KEYS, FLUSHALL, CONFIG… could not be checked",
        "无法检查扫描用户能否执行 KEYS、FLUSHALL、CONFIG 等命令",
    ),
    CHECK_ACL: Text(
        "ACL LIST was refused: users without a password were not checked", "ACL LIST 被拒绝：未检查无密码用户"
    ),
    CHECK_CONFIG: Text(
        "CONFIG GET was refused: configuration rules used INFO only", "CONFIG GET 被拒绝：配置类规则只依据 INFO"
    ),
    CHECK_SLOWLOG: Text("the slow log was not read", "未读取慢日志"),
}


def _refused(p: Params) -> Text:
    check, reason = p["check"], p["reason"]
    cost = COSTS.get(check, Text(f"{check} could not run", f"{check} 无法执行"))
    return Text(f"{cost.en} ({check}: {reason})", f"{cost.zh}（{check}：{reason}）")


def _resume_tail(p: Params) -> tuple[str, str]:
    token = p.get("resume")
    return (f"; continue with --resume {token}", f"；继续请用 --resume {token}") if token else ("", "")


def _scan_stopped(p: Params) -> Text:
    en, zh = _resume_tail(p)
    return Text(
        f"scan stopped: {p['reason']}; this report covers the keys seen so far{en}",
        f"扫描中止：{p['reason']}；报告只包含已扫描的 Key{zh}",
    )


def _scan_interrupted(p: Params) -> Text:
    en, zh = _resume_tail(p)
    return Text(
        f"scan interrupted: this report covers the keys seen so far{en}", f"扫描被中断：报告只包含已扫描的 Key{zh}"
    )


def _reconnected(p: Params) -> Text:
    return Text(
        f"the connection was lost and reopened {p['times']} times; the scan went on from the same cursor without "
        "reporting a key twice",
        f"连接断开并重连了 {p['times']} 次；扫描从原游标继续，没有重复报告 Key",
    )


def _resumed(p: Params) -> Text:
    cursor = p["cursor"]
    return Text(
        f"continuation of an earlier scan from --resume {cursor}: counts, findings and the keyspace summary cover "
        "only the keys from that cursor on",
        f"这是从 --resume {cursor} 继续的扫描：计数、问题与键空间统计只包含该游标之后的 Key",
    )


def _unreadable(p: Params) -> Text:
    patterns: Sequence[tuple[bytes, int]] = p["patterns"]
    shown = ", ".join(
        f"{display_bytes(pattern, PATTERN_LIMIT)} ({count:,})" for pattern, count in patterns[:PATTERNS_SHOWN]
    )
    if len(patterns) > PATTERNS_SHOWN:
        shown += ", …"
    rules: Sequence[str] = p["rules"]
    listed = ", ".join(rules[:RULES_SHOWN])
    more = len(rules) - RULES_SHOWN
    more_en, more_zh = (f" and {more} more", f" 等 {len(rules)} 条") if more > 0 else ("", "")
    cost_en = f"; rules {listed}{more_en} could not judge them" if rules else ""
    cost_zh = f"；规则 {listed}{more_zh}无法判断这些 Key" if rules else ""
    keys = p["keys"]
    return Text(
        f"{keys:,} keys are not readable by this user (ACL key permissions), e.g. {shown}: only their names were "
        f"checked{cost_en}, and the keyspace summary leaves them out",
        f"{keys:,} 个 Key 当前用户无权读取（ACL Key 权限），例如 {shown}：只检查了 Key 名{cost_zh}，"
        "键空间统计也不包含它们",
    )


def _databases_not_scanned(p: Params) -> Text:
    dbs = ", ".join(f"db{db}" for db in p["dbs"])
    return Text(
        f"databases not scanned (SELECT refused): {dbs}; their keys are missing from this report",
        f"未扫描的库（SELECT 被拒绝）：{dbs}；报告中没有这些库的 Key",
    )


def _databases_unknown(p: Params) -> Text:
    databases = p["databases"]
    others = f" (db1-db{databases - 1})" if databases and databases > 1 else ""
    return Text(
        f"INFO and SELECT were refused: databases other than db0{others} could be neither counted nor scanned",
        f"INFO 与 SELECT 均被拒绝：db0 以外的库{others}既无法统计也无法扫描",
    )


def _cluster_node(p: Params) -> Text:
    masters = p["masters"]
    if masters:
        en = f"one node of a cluster of {masters} masters: only its own keys were scanned, the other {masters - 1}"
        zh = f"这是 {masters} 个主节点的集群中的一个节点：只扫描了它自己的 Key，其余 {masters - 1} 个分片"
    else:
        en = "one node of a cluster (CLUSTER INFO refused: how many masters is unknown): the other"
        zh = "这是集群中的一个节点（CLUSTER INFO 被拒绝，主节点数未知）：其余分片"
    return Text(
        f"this server is {en} shards were not (scan each master, or their dumps together)",
        f"{zh}未扫描（请逐个扫描主节点，或一起扫描它们的 RDB）",
    )


def _stale_replica(p: Params) -> Text:
    state = p["state"]
    return Text(
        f"this server is {state}: its keys may be missing or old (scanned with --allow-stale)",
        f"该实例是未与主节点同步的副本（{state}）：Key 可能缺失或过时（使用了 --allow-stale）",
    )


def _meanwhile(p: Params) -> tuple[str, str]:
    expired, evicted = p.get("expired"), p.get("evicted")
    if not (expired or evicted):
        return "", ""
    return (
        f" ({expired or 0:,} keys expired and {evicted or 0:,} were evicted meanwhile)",
        f"（期间过期 {expired or 0:,} 个、淘汰 {evicted or 0:,} 个 Key）",
    )


def _restarted(_p: Params) -> Text:
    return Text(
        "the server restarted during the scan (its run_id changed): keys from before the restart may be missing, "
        "and the key counts in the header are from before it",
        "扫描期间实例重启（run_id 改变）：重启前的 Key 可能缺失，表头的 Key 数是重启前的",
    )


def _flushed(p: Params) -> Text:
    return Text(
        f"FLUSHALL or FLUSHDB ran during the scan ({p['calls']} calls): the keys they deleted are missing from this "
        "report",
        f"扫描期间执行了 FLUSHALL 或 FLUSHDB（{p['calls']} 次）：被删除的 Key 不在报告中",
    )


def _shrank(p: Params) -> Text:
    en, zh = _meanwhile(p)
    return Text(
        f"the keyspace shrank during the scan, from {p['before']:,} keys at the start to {p['after']:,} at the "
        f"end{en}: this report covers only the keys still there when they were scanned",
        f"扫描期间键空间缩小：开始时 {p['before']:,} 个 Key，结束时 {p['after']:,} 个{zh}；"
        "报告只包含被扫描时仍存在的 Key",
    )


def _fell_short(p: Params) -> Text:
    en, zh = _meanwhile(p)
    before, seen = p["before"], p["seen"]
    return Text(
        f"SCAN listed {seen:,} of the {before:,} keys the scanned databases held at the start: the others were "
        f"deleted or expired meanwhile{en}; this report covers only part of the keyspace",
        f"SCAN 只列出了开始时 {before:,} 个 Key 中的 {seen:,} 个：其余在扫描期间被删除或过期{zh}；报告只覆盖部分键空间",
    )


def _vanished(p: Params) -> Text:
    listed, gone = p["listed"], p["gone"]
    return Text(
        f"{gone:,} of the {listed:,} keys SCAN listed vanished before they could be probed: the keyspace was being "
        "deleted (or expired) under the scan",
        f"SCAN 列出的 {listed:,} 个 Key 中有 {gone:,} 个在探测前消失：扫描期间键空间正在被删除（或过期）",
    )


def _sampled(p: Params) -> Text:
    population, rate = p["population"], p["rate"]
    return Text(
        f"sampled scan: each of {population} keys was kept with probability {rate:.4g}; counts are estimates with "
        "95% confidence intervals",
        f"抽样扫描：{population} 个 Key 中每个以概率 {rate:.4g} 被抽中；计数为带 95% 置信区间的估计值",
    )


def _scan_filtered(_p: Params) -> Text:
    return Text(
        "filtered scan (--match/--type): totals cover matching keys only",
        "已按 --match/--type 过滤：统计仅覆盖匹配的 Key",
    )


def _elements_unread(p: Params) -> Text:
    collections, cap = p["collections"], f"{p['cap_mb']} MB"
    return Text(
        f"{collections:,} collections hold elements too big to read (average above {cap}): their largest element "
        "is taken to be the average, a lower bound",
        f"{collections:,} 个集合的元素过大未读取（平均超过 {cap}）：以平均大小作为最大元素的下限",
    )


#: code → text, for the notes of a live scan.
LIVE_NOTES: dict[str, Callable[[Params], Text]] = {
    "refused": _refused,
    "scan-stopped": _scan_stopped,
    "scan-interrupted": _scan_interrupted,
    "reconnected": _reconnected,
    "resumed": _resumed,
    "unreadable-keys": _unreadable,
    "databases-not-scanned": _databases_not_scanned,
    "databases-unknown": _databases_unknown,
    "cluster-node": _cluster_node,
    "stale-replica": _stale_replica,
    "server-restarted": _restarted,
    "flushed": _flushed,
    "keyspace-shrank": _shrank,
    "fell-short": _fell_short,
    "vanished": _vanished,
    "sampled": _sampled,
    "scan-filtered": _scan_filtered,
    "elements-unread": _elements_unread,
}
