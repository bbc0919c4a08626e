"""Fixed words of the reports in English and Chinese (rule titles and messages come with the report)."""

from __future__ import annotations

from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.render.labels_simulation import SIMULATION_LABELS
from rediscipline.render.labels_traffic import TRAFFIC_LABELS

SEVERITY = {
    Severity.ERROR: Text("error", "错误"),
    Severity.WARNING: Text("warning", "警告"),
    Severity.NOTE: Text("note", "提示"),
}
LABELS = {
    "scanned": Text("{keys} keys in {patterns} patterns", "{keys} 个 Key，{patterns} 个模式"),
    "summary": Text("Summary", "汇总"),
    "findings": Text("Findings", "问题"),
    "finding-count": Text("{n} findings (rule × pattern)", "{n} 个问题（规则 × 模式）"),
    "no-findings": Text(
        "No findings: every key follows the enabled rules.", "未发现问题：所有 Key 均符合已启用的规则。"
    ),
    "keys": Text("keys", "个 Key"),
    "key": Text("key", "个 Key"),
    "examples": Text("e.g.", "示例"),
    "source": Text("source", "依据"),
    "by-family": Text("by family", "按类别"),
    "rules": Text("rules", "条规则"),
    "patterns-title": Text(
        "Key patterns ({shown} of {total}, most keys first)", "Key 模式（共 {total} 个，按 Key 数列出前 {shown} 个）"
    ),
    "patterns-more": Text(
        "… {n} more patterns: --patterns all lists every one", "… 另有 {n} 个模式：--patterns all 列出全部"
    ),
    "patterns-capped": Text(
        "pattern cap reached ({cap}): {n} keys are counted under <other patterns>",
        "已达模式上限（{cap}）：{n} 个 Key 计入 <other patterns>",
    ),
    "pattern": Text("pattern", "模式"),
    "fleet-title": Text("Fleet: {n} targets, {failed} not read", "实例群：{n} 个目标，{failed} 个未能读取"),
    "target": Text("target", "目标"),
    "tags": Text("tags", "标签"),
    "score-column": Text("score", "评分"),
    "target-read": Text("read", "已读取"),
    "target-failed": Text("not read", "未读取"),
    "shards-title": Text("Shards ({n})", "分片（{n} 个）"),
    "shard": Text("shard", "分片"),
    "node-read": Text("read", "读取"),
    "role-master": Text("master", "主节点"),
    "role-replica": Text("replica", "副本"),
    "slots": Text("slots", "槽位数"),
    "used-memory": Text("used memory", "已用内存"),
    "replicas": Text("replicas", "副本数"),
    "status": Text("status", "状态"),
    "shard-complete": Text("complete", "完整"),
    "shard-partial": Text("partial", "部分"),
    "shard-failed": Text("not read", "未读取"),
    "slot": Text("slot", "槽位"),
    "slots-title": Text("Busiest slots (keys from {source})", "Key 最多的槽位（数据来源：{source}）"),
    "hashtag": Text("hashtag", "Hashtag"),
    "hashtags-title": Text("Biggest hashtags", "Key 最多的 Hashtag"),
    "keys-column": Text("keys", "Key 数"),
    "memory": Text("memory", "内存"),
    "types": Text("types", "类型"),
    "library": Text("library", "所属库"),
    "notes": Text("Notes", "说明"),
    "preset": Text("preset", "预设"),
    "namespace": Text("namespace", "命名空间"),
    "more": Text("and {n} more", "另有 {n} 个"),
    "calls": Text("calls", "次调用"),
    "call": Text("call", "次调用"),
    "servers": Text("servers", "个实例"),
    "server": Text("server", "实例"),
    "score": Text("score {score}/100", "得分 {score}/100"),
    "flagged": Text("{n} keys with a warning or error", "{n} 个 Key 有警告或错误"),
    "keyspace": Text("Keyspace", "键空间"),
    "memory-by-type": Text("memory by type", "按类型的内存"),
    "ttl-coverage": Text(
        "TTL coverage: {keys} of keys, {memory} of memory", "设置 TTL 的比例：Key {keys}，内存 {memory}"
    ),
    "estimated": Text("(estimated: {model})", "（估算：{model}）"),
    "ttl-histogram": Text("TTL left", "剩余 TTL"),
    "top-namespaces": Text("namespaces by memory", "按内存排序的命名空间"),
    "top-memory": Text("biggest keys by memory", "内存最大的 Key"),
    "top-length": Text("biggest collections by elements", "元素最多的集合"),
    "not-measured": Text(
        "not measured (no enabled rule needed them; --summary asks for them): {fields}",
        "未测量（没有启用的规则需要；--summary 可要求测量）：{fields}",
    ),
    "skipped": Text(
        "{n} keys vanished or changed type while being probed (skipped)",
        "{n} 个 Key 在探测期间被删除或改变类型（已跳过）",
    ),
    "sampled": Text(
        "sampled {sampled} of {population} keys (rate {rate}); estimates with 95% CI:",
        "从 {population} 个 Key 中抽样 {sampled} 个（比例 {rate}）；估计值及 95% 置信区间：",
    ),
    "estimate": Text("≈ {value} (95% CI {low}–{high})", "≈ {value}（95% 置信区间 {low}–{high}）"),
    "no-ttl": Text("no TTL", "无 TTL"),
    "elements": Text("elements", "个元素"),
    "resume": Text("resume with: --resume {cursor}", "继续扫描：--resume {cursor}"),
    "resumed-from": Text(
        "continuation from --resume {cursor}: counts cover only the keys from that cursor on",
        "从 --resume {cursor} 继续的扫描：计数只包含该游标之后的 Key",
    ),
    "partial": Text("PARTIAL: {reasons} (see Notes)", "结果不完整：{reasons}（见说明）"),
    "cluster-node": Text(
        "one node of a cluster of {masters} masters: the other shards were not scanned",
        "集群（{masters} 个主节点）中的一个节点：其余分片未扫描",
    ),
    # the Markdown report (`render.markdown`) and the fleet's
    "md-inputs": Text("Inputs", "输入"),
    "md-server": Text("Server", "实例"),
    "md-preset": Text("Preset", "预设"),
    "md-score": Text("Score", "得分"),
    "md-keys": Text("Keys", "Key"),
    "md-findings": Text("Findings", "问题"),
    "md-cluster": Text("Cluster", "集群"),
    "md-shards": Text(
        "{n} shards: {complete} complete, {partial} partial, {failed} not read",
        "{n} 个分片：{complete} 个完整，{partial} 个部分，{failed} 个未读取",
    ),
    "md-sampled": Text(
        "sampled {sampled} of {population} keys (rate {rate}): counts marked ≈ are estimates",
        "从 {population} 个 Key 中抽样 {sampled} 个（比例 {rate}）：标有 ≈ 的数量为估计值",
    ),
    "md-stopped": Text("the scan stopped early: {reason}", "扫描提前结束：{reason}"),
    "md-more-inputs": Text("and {n} more", "另有 {n} 个"),
    "md-severity": Text("severity", "级别"),
    "md-rule": Text("rule", "规则"),
    "md-place": Text("place", "位置"),
    "md-count": Text("count", "数量"),
    "md-worst": Text("worst", "最大值"),
    "md-message": Text("message", "说明"),
    "md-test-code": Text("test code", "测试代码"),
    "md-more-findings": Text(
        "{n} more findings: see the HTML report (`--format html`) or the JSON report (`--format json`), which lists "
        "every one",
        "另有 {n} 个问题：见 HTML 报告（`--format html`）或 JSON 报告（`--format json`，其中列出全部）",
    ),
    "md-more-notes": Text(
        "{n} more notes: see the JSON report (`--format json`)", "另有 {n} 条说明：见 JSON 报告（`--format json`）"
    ),
    "md-more-rules": Text(
        "{n} more rules: `rediscipline rule ID` shows each one's sources",
        "另有 {n} 条规则：`rediscipline rule ID` 列出各自的依据",
    ),
    "md-more-targets": Text(
        "{n} more targets: see the JSON report (`--format json`), which lists every one",
        "另有 {n} 个目标：见 JSON 报告（`--format json`），其中列出全部",
    ),
    "md-sources": Text("Rules and their sources", "规则及其依据"),
    "md-no-sources": Text("no cited source", "未引用依据"),
    "md-keyspace-line": Text("{keys} keys · {memory} · {coverage}", "{keys} 个 Key · {memory} · {coverage}"),
    "md-not-read": Text("Targets not read", "未能读取的目标"),
    "md-traffic-cut": Text(
        "The traffic section is cut here: the JSON report (`--format json`) has all of it.",
        "流量部分到此截断：JSON 报告（`--format json`）包含全部内容。",
    ),
    **TRAFFIC_LABELS,
    **SIMULATION_LABELS,
}


def label(name: str, lang: str, **values: object) -> str:
    return LABELS[name].in_(lang).format(**values)
