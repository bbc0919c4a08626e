"""Fixed words of the reports in English and Chinese (rule titles and messages come with the report)."""

from __future__ import annotations

from rediscipline.model.severity import Severity
from rediscipline.model.text import Text

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
    "top-patterns": Text("Top patterns", "Key 最多的模式"),
    "notes": Text("Notes", "说明"),
    "preset": Text("preset", "预设"),
    "namespace": Text("namespace", "命名空间"),
    "more": Text("and {n} more", "另有 {n} 个"),
}


def label(name: str, lang: str, **values: object) -> str:
    return LABELS[name].in_(lang).format(**values)
