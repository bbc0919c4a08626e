"""The fixed words of `rediscipline diff` in English and Chinese, and how a diff shows what a report file holds.

Everything from a report file is escaped and bounded here: exact names by `display_bytes`, the display text
of a name the report cut (already escaped by the report) by `inert`, note parameters by `display_text`.
"""

from __future__ import annotations

from rediscipline.model.display import MESSAGE_LIMIT, NAME_LIMIT, TEXT_LIMIT, display_bytes, display_text, inert
from rediscipline.model.report_diff import (
    CHANGE_FIXED,
    CHANGE_IMPROVED,
    CHANGE_NEW,
    CHANGE_WORSENED,
    NOTE_CAPPED,
    NOTE_COMMANDS,
    NOTE_PARTIAL,
    TARGET_ADDED,
    TARGET_COMPARED,
    TARGET_NEWLY_FAILING,
    TARGET_RECOVERED,
    TARGET_REMOVED,
    TARGET_STILL_FAILING,
    DiffNote,
    ShownName,
)
from rediscipline.model.text import Text

WORDS = {
    "title": Text("rediscipline diff", "rediscipline diff"),
    "fleet": Text("fleet", "实例群"),
    "score": Text("score", "得分"),
    "keys": Text("keys", "Key 数"),
    "memory": Text("memory", "内存"),
    "patterns": Text("patterns", "模式"),
    "findings": Text("Findings: ", "问题："),
    CHANGE_NEW: Text("new", "新增"),
    CHANGE_WORSENED: Text("worsened", "恶化"),
    CHANGE_FIXED: Text("fixed", "已修复"),
    CHANGE_IMPROVED: Text("improved", "好转"),
    "unchanged": Text("unchanged", "未变"),
    "section-new": Text("New findings ({n})", "新增问题（{n} 个）"),
    "section-worsened": Text("Worsened findings ({n})", "恶化的问题（{n} 个）"),
    "section-fixed": Text("Fixed findings ({n})", "已修复的问题（{n} 个）"),
    "section-improved": Text("Improved findings ({n})", "好转的问题（{n} 个）"),
    "unit-keys": Text("keys", "个 Key"),
    "unit-key": Text("key", "个 Key"),
    "unit-places": Text("places", "处"),
    "unit-place": Text("place", "处"),
    "unit-count": Text("count", "次数"),
    "worst": Text("worst", "最大值"),
    "was": Text("was {severity}", "原为{severity}"),
    "grew-keys": Text("Key patterns that grew most in keys (top {top})", "Key 数增长最多的模式（前 {top} 个）"),
    "grew-memory": Text("Key patterns that grew most in memory (top {top})", "内存增长最多的模式（前 {top} 个）"),
    "pattern": Text("pattern", "模式"),
    "before": Text("before", "之前"),
    "after": Text("after", "之后"),
    "change": Text("change", "变化"),
    "patterns-came-went": Text(
        "key patterns: {added} new, {removed} gone", "Key 模式：新增 {added} 个，消失 {removed} 个"
    ),
    "shards": Text("Shards", "分片"),
    "shard": Text("shard", "分片"),
    "address": Text("address", "地址"),
    "status": Text("status", "状态"),
    "notes": Text("Notes", "说明"),
    "targets": Text("targets", "个目标"),
    TARGET_COMPARED: Text("compared", "已比较"),
    TARGET_ADDED: Text("added", "新增"),
    TARGET_REMOVED: Text("removed", "移除"),
    TARGET_NEWLY_FAILING: Text("newly failing", "新失败"),
    TARGET_RECOVERED: Text("recovered", "已恢复"),
    TARGET_STILL_FAILING: Text("still failing", "仍失败"),
    "target-findings": Text("{n} findings", "{n} 个问题"),
    "unchanged-targets": Text("{n} targets without changes: {names}", "{n} 个目标无变化：{names}"),
    "unchanged-target": Text("1 target without changes: {names}", "1 个目标无变化：{names}"),
    "more": Text("… and {n} more", "… 另有 {n} 个"),
    "regressions": Text(
        "{n} new or worsened findings at or above {severity}", "{n} 个新增或恶化的问题达到或超过{severity}级别"
    ),
    "regression": Text(
        "1 new or worsened finding at or above {severity}", "1 个新增或恶化的问题达到或超过{severity}级别"
    ),
    "no-regressions": Text(
        "No new or worsened finding at or above {severity}.", "没有达到或超过{severity}级别的新增或恶化问题。"
    ),
}

NOTES = {
    NOTE_COMMANDS: Text(
        "the reports come from different commands ({old}, {new}): a finding's fingerprint includes its kind of "
        "source, so the findings of one never match the other's",
        "两份报告来自不同的命令（{old}、{new}）：问题的指纹包含来源类型，因此二者的问题无法对应",
    ),
    NOTE_PARTIAL: Text(
        "the {side} report is partial ({reasons}): findings it lacks may be in keys it did not read",
        "{side}报告不完整（{reasons}）：其中缺少的问题可能在未读取的 Key 中",
    ),
    NOTE_CAPPED: Text(
        "the {side} report reached its pattern cap: keys beyond it are counted under <other patterns>",
        "{side}报告达到了模式上限：超出的 Key 计入 <other patterns>",
    ),
}
_SIDES = {"old": Text("old", "旧"), "new": Text("new", "新")}


def word(name: str, lang: str, **values: object) -> str:
    return WORDS[name].in_(lang).format(**values)


def note_line(item: DiffNote, lang: str) -> str:
    """A diff note as a sentence, escaped and bounded (its parameters come from the report files)."""
    shown = {}
    for key, value in item.params.items():
        if key == "side":
            shown[key] = _SIDES[str(value)].in_(lang)
        elif isinstance(value, tuple):
            shown[key] = display_text(", ".join(str(part) for part in value), TEXT_LIMIT)
        else:
            shown[key] = display_text(str(value), TEXT_LIMIT)
    return inert(NOTES[item.code].in_(lang).format(**shown), MESSAGE_LIMIT)


def shown_name(name: ShownName) -> str:
    """A pattern escaped and bounded: exact bytes by `display_bytes`, a name the report cut as the display text
    it kept (escapes already written, so backslashes stay single)."""
    if name.cut_length is None:
        return display_bytes(name.data, NAME_LIMIT)
    return inert(name.data.decode("utf-8", "replace"), NAME_LIMIT + 40)


__all__ = ["NOTES", "WORDS", "note_line", "shown_name", "word"]
