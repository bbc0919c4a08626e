"""Shared by the library entry points: settings, the engine, and turning engine results into a Report."""

from __future__ import annotations

from dataclasses import replace

from rediscipline import __version__
from rediscipline.engine.runner import Engine, EngineResult
from rediscipline.model.report import Report, RunInfo, ServerSummary
from rediscipline.model.text import Text
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides, load_settings


def settings_for(overrides: Overrides | None = None, registry: Registry | None = None) -> Settings:
    return load_settings(registry or default_registry(), overrides or Overrides())


def new_engine(settings: Settings) -> Engine:
    return Engine(settings.rules, settings.namespaces, settings.key_ignores, pattern_cap=settings.pattern_cap)


def build_report(
    result: EngineResult,
    settings: Settings,
    registry: Registry,
    command: str,
    inputs: tuple[str, ...],
    *,
    notes: tuple[Text, ...] = (),
    server: ServerSummary | None = None,
    count_keys: bool = True,
) -> Report:
    """The Report of an engine run; `count_keys` is False for sources that read no keyspace (code)."""
    fired = {f.rule_id for f in result.findings}
    metas = {cls.meta.id: cls.meta for cls in registry if cls.meta.id in fired}
    all_notes: list[Text] = list(notes)
    if count_keys and result.stats.keys == 0:
        all_notes.append(Text("no keys were read from the input", "输入中没有读到任何 Key"))
    if result.stats.overflow_keys:
        all_notes.append(
            Text(
                f"pattern cap of {result.stats.pattern_cap} reached: {result.stats.overflow_keys} keys were counted "
                "under <other patterns> (raise `pattern-cap` to track more)",
                f"已达到 {result.stats.pattern_cap} 个模式的上限：{result.stats.overflow_keys} 个 Key 归入 "
                "<other patterns>（可调大 `pattern-cap`）",
            )
        )
    run = RunInfo(
        tool_version=__version__,
        command=command,
        inputs=inputs,
        preset=settings.preset,
        overlays=settings.overlays,
        config_file=settings.config_file,
        rules_enabled=len(settings.rules),
    )
    stats = result.stats if server is None else replace(result.stats, server=server)
    if not count_keys:  # a keyspace score means nothing for code: the findings are places, not keys
        stats = replace(stats, score=None)
    return Report(tuple(result.findings), metas, run, stats, tuple(all_notes))
