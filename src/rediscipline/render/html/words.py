"""The fixed words of the HTML report in English and Chinese (the words every report shares are in `render.labels`,
and the page takes those from there).

A test renders the Chinese page of every kind of report and checks that no English word of this table is left
in its visible text.
"""

from __future__ import annotations

from types import SimpleNamespace

from rediscipline.model.text import Text

WORDS = {
    "title": Text("rediscipline report", "rediscipline 报告"),
    "target": Text("Target", "目标"),
    "version": Text("Server", "服务端"),
    "preset": Text("Preset", "预设"),
    "time": Text("Written", "生成时间"),
    "took": Text("run took {seconds} s", "用时 {seconds} 秒"),
    "score": Text("Score", "得分"),
    "rules-ran": Text("{n} rules ran", "运行了 {n} 条规则"),
    "notes": Text("Notes: what was read, and what could not be checked", "说明：读取了什么，哪些未能检查"),
    "partial": Text("Partial result: {reasons}", "结果不完整：{reasons}"),
    "charts": Text("Where the memory and the keys are", "内存与 Key 的分布"),
    "memory-by-type": Text("Memory by type", "按类型的内存"),
    "keys-by-type": Text("Keys by type", "按类型的 Key 数"),
    "memory-by-namespace": Text("Memory by namespace", "按命名空间的内存"),
    "keys-by-namespace": Text("Keys by namespace", "按命名空间的 Key 数"),
    "drill-hint": Text("Open a namespace to see its patterns.", "展开命名空间可查看其中的模式。"),
    "patterns-of": Text("Patterns of {namespace}", "{namespace} 的模式"),
    "size-keys": Text("Keys by size", "按大小的 Key 数"),
    "size-memory": Text("Memory by key size", "按 Key 大小的内存"),
    "ttl-coverage": Text("TTL coverage", "TTL 覆盖率"),
    "with-ttl": Text("with a TTL", "有 TTL"),
    "without-ttl": Text("without a TTL", "无 TTL"),
    "of-keys": Text("of keys", "Key 数"),
    "of-memory": Text("of memory", "内存"),
    "expiry-minutes": Text("Keys expiring per minute, next 24 hours", "未来 24 小时每分钟过期的 Key 数"),
    "expiry-hours": Text("Keys expiring per hour, next 30 days", "未来 30 天每小时过期的 Key 数"),
    "expiry-later": Text("{n} keys expire later than 30 days", "另有 {n} 个 Key 在 30 天后过期"),
    "expiry-peak": Text(
        "Peak: {keys} keys in one {unit} ({at} from the scan), {times}× the typical {unit}",
        "峰值：一{unit}内 {keys} 个 Key 过期（扫描后 {at}），是通常的 {times} 倍",
    ),
    "minute": Text("minute", "分钟"),
    "hour": Text("hour", "小时"),
    "top-by-memory": Text("Biggest keys by memory", "内存最大的 Key"),
    "top-by-length": Text("Biggest collections by elements", "元素最多的集合"),
    "shards-keys": Text("Keys per shard", "各分片的 Key 数"),
    "shards-memory": Text("Memory per shard", "各分片的内存"),
    "no-data": Text("Nothing to draw: {why}", "没有可绘制的数据：{why}"),
    "why-no-keys": Text("the run read no keys.", "本次没有读取任何 Key。"),
    "why-not-measured": Text(
        "this run did not measure it (--summary asks for it).", "本次未测量（--summary 可要求测量）。"
    ),
    "why-no-ttl": Text("no key has a TTL.", "没有 Key 设置了 TTL。"),
    "why-no-collections": Text("no collection was measured.", "没有测量到集合类型的 Key。"),
    "sampled": Text(
        "Sampled scan: the counts are of the {sampled} keys read (rate {rate}).",
        "抽样扫描：计数只包含读取到的 {sampled} 个 Key（比例 {rate}）。",
    ),
    "estimated-memory": Text("Memory is estimated ({model}).", "内存为估算值（{model}）。"),
    "findings": Text("Findings", "问题"),
    "search": Text("Search findings", "搜索问题"),
    "search-placeholder": Text("key, pattern, rule, message…", "Key、模式、规则、消息……"),
    "family": Text("Family", "类别"),
    "all-families": Text("all families", "全部类别"),
    "shown": Text("shown", "条显示中"),
    "no-findings": Text(
        "No findings: everything read follows the enabled rules.", "未发现问题：读取的内容均符合已启用的规则。"
    ),
    "no-match": Text("No finding matches the filters.", "没有符合筛选条件的问题。"),
    "citation": Text("The convention says", "规范原文"),
    "fix": Text("Use instead", "正确做法"),
    "rule-doc": Text("Rule documentation", "规则文档"),
    "examples": Text("Examples", "示例"),
    "count-keys": Text("{n} keys", "{n} 个 Key"),
    "count-key": Text("1 key", "1 个 Key"),
    "count-places": Text("{n} places", "{n} 处"),
    "count-times": Text("{n} times", "{n} 次"),
    "worst": Text("worst value {value}", "最差值 {value}"),
    "copy": Text("Copy the full name", "复制完整名称"),
    "copied": Text("Copied", "已复制"),
    "not-in-page": Text(
        "The full name ({length} bytes) is in the JSON report (--format json).",
        "完整名称（{length} 字节）见 JSON 报告（--format json）。",
    ),
    "findings-cut": Text(
        "{n} more findings of lower rank are not in this page; the JSON report (--format json) has every one.",
        "另有 {n} 个排名较低的问题未列入本页；JSON 报告（--format json）包含全部问题。",
    ),
    "rows-cut": Text("{n} more: the JSON report lists every one.", "另有 {n} 个：JSON 报告列出全部。"),
    "occurrences-cut": Text("{n} more of this rule: see the JSON report.", "本规则另有 {n} 个：见 JSON 报告。"),
    "patterns": Text("Key patterns", "Key 模式"),
    "pattern-search": Text("Search patterns", "搜索模式"),
    "patterns-cut": Text(
        "The {shown} patterns with most keys of {total}; the JSON report lists every one.",
        "共 {total} 个模式，此处列出 Key 最多的 {shown} 个；JSON 报告列出全部。",
    ),
    "pattern": Text("Pattern", "模式"),
    "keys": Text("Keys", "Key 数"),
    "memory": Text("Memory", "内存"),
    "ttl": Text("With TTL", "有 TTL"),
    "types": Text("Types", "类型"),
    "file": Text("File", "文件"),
    "files": Text("Findings by file", "按文件列出的问题"),
    "rules": Text("Rules that found something", "发现问题的规则"),
    "severity": Text("Severity", "严重程度"),
    "value": Text("Value", "值"),
    "label": Text("Label", "标签"),
    "type": Text("Type", "类型"),
    "key": Text("Key", "Key"),
    "from-scan": Text("time after the scan", "扫描后的时间"),
    "expiry-waiting": Text("Expired keys still in memory, and keys reclaimed", "已过期仍在内存中的 Key 与已回收的 Key"),
    "expiry-waiting-bytes": Text("Memory held by expired keys", "已过期 Key 占用的内存"),
    "expiry-cpu": Text(
        "The expire cycle's share of the server's time, per step", "每个步长内过期周期占用服务端时间的比例"
    ),
    "time-since": Text("time since {start}", "自 {start} 起的时间"),
    "time-column": Text("Time", "时间"),
    "elapsed-s": Text("{n} s", "{n} 秒"),
    "elapsed-min": Text("{n} min", "{n} 分钟"),
    "elapsed-h": Text("{n} h", "{n} 小时"),
    "elapsed-d": Text("{n} d", "{n} 天"),
    "series-of-db": Text("db {db}: {what}", "db {db}：{what}"),
    "hover-db": Text(
        "db {db}: {keys} expired still in memory ({size}), {reclaimed} reclaimed",
        "db {db}：已过期仍在内存 {keys} 个（{size}），已回收 {reclaimed} 个",
    ),
    "hover-cpu": Text(
        "{share} of the server's time, longest cycle {longest}, {hits} cycles at their time limit",
        "占服务端时间 {share}，最长周期 {longest}，{hits} 个周期达到时间上限",
    ),
    "longest-cycle": Text("longest cycle", "最长周期"),
    "limit-band": Text("steps where slow cycles hit their time limit", "慢周期达到时间上限的步长"),
    "limit-band-title": Text(
        "{start} – {end}: {hits} slow cycles stopped at their time limit",
        "{start} – {end}：{hits} 个慢周期在时间上限处停止",
    ),
    "limit-caption": Text(
        "Slow cycles stopped at their time limit in {steps} of {total} steps ({hits} cycles); the busiest step "
        "took {share} of the server's time.",
        "{total} 个步长中有 {steps} 个出现慢周期达到时间上限（共 {hits} 个周期）；最繁忙的步长占用服务端时间 {share}。",
    ),
    "no-limit-caption": Text(
        "No slow cycle reached its time limit; the busiest step took {share} of the server's time.",
        "没有慢周期达到时间上限；最繁忙的步长占用服务端时间 {share}。",
    ),
    "waiting-peak": Text(
        "Most at once: {keys} expired keys still in memory ({size}) at {t}.",
        "峰值：{t} 时有 {keys} 个已过期 Key 仍在内存中（{size}）。",
    ),
    "databases-cut": Text(
        "{n} more databases are not drawn; the tables below list each one.",
        "另有 {n} 个数据库未绘制；下方表格逐一列出。",
    ),
    "why-none-expired": Text("no TTL ends within the {span} simulated.", "在模拟的 {span}内没有 TTL 到期。"),
    "why-reclaimed-at-once": Text(
        "the cycle reclaimed every expired key before the next point.", "每个已过期的 Key 都在下一个点之前被回收。"
    ),
    "why-no-cycle-time": Text("the expire cycle took no measurable time.", "过期周期没有占用可测量的时间。"),
    "fleet-title": Text("Fleet: {n} targets, {failed} not read", "实例群：{n} 个目标，{failed} 个未能读取"),
    "fleet-scores": Text("Score per target", "各目标的得分"),
    "fleet-error": Text("Not read: {error}", "未能读取：{error}"),
    "fleet-targets": Text("Targets", "目标"),
    "tags": Text("Tags", "标签"),
    "footer": Text(
        "Written by rediscipline {version}. Everything shown came from this file: no network.",
        "由 rediscipline {version} 生成。所有内容都在本文件中，无需网络。",
    ),
}

#: Labels the keyspace summary writes in English (its TTL buckets, the namespaces that are not a prefix).
SUMMARY_LABELS = {
    "no expiry": Text("no expiry", "不过期"),
    "< 1 min": Text("< 1 min", "< 1 分钟"),
    "1 min – 1 h": Text("1 min – 1 h", "1 分钟 – 1 小时"),
    "1 h – 24 h": Text("1 h – 24 h", "1 小时 – 24 小时"),
    "1 d – 7 d": Text("1 d – 7 d", "1 天 – 7 天"),
    "7 d – 30 d": Text("7 d – 30 d", "7 天 – 30 天"),
    "> 30 d": Text("> 30 d", "> 30 天"),
    "<other>": Text("<other>", "<其他>"),
    "<no namespace>": Text("<no namespace>", "<无命名空间>"),
}


def summary_label(label: str, lang: str) -> str:
    """A label of the keyspace summary in `lang` (a namespace, a type: as it is)."""
    text = SUMMARY_LABELS.get(label)
    return label if text is None else text.in_(lang)


def keys_word(count: int, lang: str) -> str:
    """`1 key`, `12,345 keys` in `lang`."""
    return word("count-key", lang) if count == 1 else word("count-keys", lang, n=f"{count:,}")


def word(name: str, lang: str, **values: object) -> str:
    """The fixed word `name` in `lang`, with `values` filled in (already escaped or numbers)."""
    return WORDS[name].in_(lang).format(**values)


def words_for(lang: str) -> SimpleNamespace:
    """The fixed words the templates use, as attributes (`-` written `_`); words with values are filled by the
    view. Attributes, not a dict: a template's `w.keys` would be the dict's method."""
    return SimpleNamespace(
        **{name.replace("-", "_"): text.in_(lang) for name, text in WORDS.items() if "{" not in text.en}
    )
