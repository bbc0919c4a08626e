"""The catalogue of note texts: every `model.note.Note` code in English and Chinese, in one place.

Sources and the driver describe the run with codes and parameters; this module is the only place that turns
them into words, and the only one that may name command-line options (`--resume`, `--deep`) a reader can act
on. A note whose code is not here is shown as its code and parameters, never dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rediscipline.model.display import display_bytes
from rediscipline.model.note import Note, NoteValue
from rediscipline.model.text import Text
from rediscipline.render.notes_cluster import CLUSTER_NOTES
from rediscipline.render.notes_guard import GUARD_NOTES
from rediscipline.render.notes_live import LIVE_NOTES
from rediscipline.render.notes_simulation import SIMULATION_NOTES
from rediscipline.render.notes_traffic import TRAFFIC_NOTES

PATTERN_LIMIT = 60

#: A place a rule can be checked (`RuleMeta.where`), in words.
PLACES = {
    "code": Text("code", "代码"),
    "live": Text("a live server", "在线实例"),
    "rdb": Text("a dump", "RDB 文件"),
    "config": Text("a config file", "配置文件"),
    "keys": Text("a key list", "Key 列表"),
    "runtime": Text("a running application", "运行中的应用"),
    "traffic": Text("a server's traffic", "实例的请求流量"),
    "simulation": Text("a simulation", "模拟"),
}

Params = Mapping[str, Any]


def _places(places: Sequence[str], lang: str) -> str:
    words = [PLACES[p].in_(lang) if p in PLACES else p for p in places]
    if lang == "zh":
        return "、".join(words[:-1]) + ("或" if len(words) > 1 else "") + words[-1] if words else ""
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] if words else ""


def _ids(ids: Sequence[str]) -> str:
    return ", ".join(ids)


# ---- every source ------------------------------------------------------------------------------------------


def _rules_not_checked(p: Params) -> Text:
    rules: Sequence[str] = p["rules"]
    places: Sequence[str] = p["places"]
    return Text(
        f"{len(rules)} rules need {_places(places, 'en')} and were not checked: {_ids(rules)}",
        f"{len(rules)} 条规则需要{_places(places, 'zh')}，未检查：{_ids(rules)}",
    )


def _option_unchecked(p: Params) -> Text:
    rules = _ids(p["rules"])
    return Text(
        f"namespace {p['namespace']} sets `{p['option']}`, checked only by {rules}, which cannot run on this "
        "input: it was not checked",
        f"命名空间 {p['namespace']} 设置了 `{p['option']}`，只有 {rules} 会检查它，"
        "而这些规则无法在本次输入上运行：未检查",
    )


def _no_keys(_p: Params) -> Text:
    return Text("no keys were read from the input", "输入中没有读到任何 Key")


def _pattern_cap(p: Params) -> Text:
    return Text(
        f"pattern cap of {p['cap']} reached: {p['keys']} keys were counted under <other patterns> (raise "
        "`pattern-cap` to track more)",
        f"已达到 {p['cap']} 个模式的上限：{p['keys']} 个 Key 归入 <other patterns>（可调大 `pattern-cap`）",
    )


def _suppressed(p: Params) -> Text:
    return Text(
        f"{p['findings']} finding(s) suppressed by comments or per-file-ignores",
        f"{p['findings']} 个问题被注释或 per-file-ignores 抑制",
    )


def _tests_left_out(p: Params) -> Text:
    if p["mode"] == "errors-only":
        return Text(
            f'{p["findings"]} finding(s) below error in test code not shown (tests = "errors-only")',
            f'测试代码中 {p["findings"]} 个低于 error 的问题未显示（tests = "errors-only"）',
        )
    return Text(
        f'{p["findings"]} finding(s) in test code not shown (tests = "ignore")',
        f'测试代码中 {p["findings"]} 个问题未显示（tests = "ignore"）',
    )


def _baseline(p: Params) -> Text:
    return Text(
        f"baseline {p['path']}: {p['matched']} known finding(s) hidden, {p['fixed']} no longer seen",
        f"基线 {p['path']}：隐藏了 {p['matched']} 个已知问题，{p['fixed']} 个已不再出现",
    )


# ---- code and config files ---------------------------------------------------------------------------------


def _python_files(p: Params) -> Text:
    return Text(f"{p['files']} Python file(s) checked", f"检查了 {p['files']} 个 Python 文件")


def _config_files(p: Params) -> Text:
    return Text(f"{p['files']} config file(s) checked", f"检查了 {p['files']} 个配置文件")


def _unparsed(p: Params) -> Text:
    return Text(f"{p['files']} file(s) could not be parsed", f"{p['files']} 个文件无法解析")


# ---- dumps -------------------------------------------------------------------------------------------------


def _memory_estimated(p: Params) -> Text:
    models = "; ".join(p["models"])
    return Text(
        f"memory figures are estimates from the file's encodings and sizes ({models}), not MEMORY USAGE; "
        "--allocator names the server's allocator (jemalloc: official builds and images, jemalloc16: "
        "Debian/Ubuntu packages, libc)",
        f"内存数值是根据文件中的编码与大小估算的（{models}），并非 MEMORY USAGE 实测；"
        "--allocator 指定服务器的内存分配器（jemalloc：官方构建与镜像，jemalloc16：Debian/Ubuntu 软件包，libc）",
    )


def _dump_expired(p: Params) -> Text:
    return Text(
        f"{p['keys']:,} keys had already expired when the dump was written and were left out (a server drops "
        "them on load)",
        f"{p['keys']:,} 个 Key 在写入 dump 时已过期，未计入（服务器加载时会丢弃）",
    )


def _no_checksum(p: Params) -> Text:
    paths = ", ".join(p["paths"])
    return Text(
        f"no checksum to verify in {paths} (written with rdbchecksum no, or RDB < 5)",
        f"{paths} 没有可校验的 CRC（rdbchecksum no 或 RDB 版本低于 5）",
    )


def _crc_not_verified(_p: Params) -> Text:
    return Text("CRC-64 not verified (--no-verify)", "未校验 CRC-64（--no-verify）")


def _elements_not_walked(_p: Params) -> Text:
    return Text(
        "largest elements are known for collections stored element by element and blobs of 8 KB or more; "
        "--deep walks every element",
        "最大元素只对逐个存储元素的集合和 8 KB 以上的紧凑块可知；--deep 会遍历所有元素",
    )


def _dump_filtered(_p: Params) -> Text:
    return Text(
        "filtered scan (--match/--type/--db): totals cover matching keys only",
        "已按 --match/--type/--db 过滤：统计仅覆盖匹配的 Key",
    )


#: code → the text of a note with that code, from its parameters.
CATALOGUE: dict[str, Callable[[Params], Text]] = {
    "rules-not-checked": _rules_not_checked,
    "namespace-option-unchecked": _option_unchecked,
    "no-keys": _no_keys,
    "pattern-cap": _pattern_cap,
    "suppressed": _suppressed,
    "baseline": _baseline,
    "tests-left-out": _tests_left_out,
    "python-files": _python_files,
    "config-files": _config_files,
    "unparsed-files": _unparsed,
    "memory-estimated": _memory_estimated,
    "dump-expired": _dump_expired,
    "no-checksum": _no_checksum,
    "crc-not-verified": _crc_not_verified,
    "elements-not-walked": _elements_not_walked,
    "dump-filtered": _dump_filtered,
    **LIVE_NOTES,
    **CLUSTER_NOTES,
    **GUARD_NOTES,
    **TRAFFIC_NOTES,
    **SIMULATION_NOTES,
}


def note_text(note: Note, lang: str) -> str:
    """The note in `lang` (`en` or `zh`); an unknown code is shown with its parameters.

    A note with a `shard` parameter is one node's note in a cluster scan (the same note on every node is
    given once, without it): its text starts with the node.
    """
    build = CATALOGUE.get(note.code)
    if build is None:
        params = ", ".join(f"{name}={_plain(value)}" for name, value in note.params.items())
        return f"{note.code}: {params}" if params else note.code
    text = build(note.params).in_(lang)
    shard = note.params.get("shard")
    if shard is not None and not note.code.startswith("cluster-"):
        text = f"{_plain(shard)}: {text}"
    return text


def _plain(value: NoteValue) -> str:
    if isinstance(value, bytes):
        return display_bytes(value, PATTERN_LIMIT)
    return str(value)


__all__ = ["CATALOGUE", "PLACES", "note_text"]
