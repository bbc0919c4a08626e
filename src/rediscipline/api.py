"""Library entry points: each returns a finished `Report` that any renderer can write.

Example::

    from rediscipline.api import check_key_names
    report = check_key_names([b"user:profile:id:1", b"User Name"])
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from rediscipline import __version__
from rediscipline.engine.runner import Engine, EngineResult
from rediscipline.model.location import SOURCE_KEYS, Location
from rediscipline.model.report import Report, RunInfo
from rediscipline.model.text import Text
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides, load_settings
from rediscipline.sources.errors import SourceError
from rediscipline.sources.keylist import read_keys

READ_BUFFER = 1 << 20


@dataclass(frozen=True, slots=True)
class KeyInput:
    """A key list to read: a file path or `-` for standard input, and its format."""

    path: str
    input_format: str = "raw"


def settings_for(overrides: Overrides | None = None, registry: Registry | None = None) -> Settings:
    return load_settings(registry or default_registry(), overrides or Overrides())


def _engine(settings: Settings) -> Engine:
    return Engine(settings.rules, settings.namespaces, settings.key_ignores, pattern_cap=settings.pattern_cap)


def _report(
    result: EngineResult, settings: Settings, registry: Registry, command: str, inputs: tuple[str, ...]
) -> Report:
    fired = {f.rule_id for f in result.findings}
    metas = {cls.meta.id: cls.meta for cls in registry if cls.meta.id in fired}
    notes: list[Text] = []
    if result.stats.keys == 0:
        notes.append(Text("no keys were read from the input", "输入中没有读到任何 Key"))
    if result.stats.overflow_keys:
        notes.append(
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
    return Report(tuple(result.findings), metas, run, result.stats, tuple(notes))


def check_keys(
    inputs: Sequence[KeyInput],
    settings: Settings | None = None,
    *,
    stdin: BinaryIO | None = None,
    registry: Registry | None = None,
) -> Report:
    """Lint key lists (files or standard input) against the naming rules and return the report."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    engine = _engine(settings)
    feed = engine.feed_name
    with ExitStack() as stack:
        for item in inputs:
            if item.path == "-":
                stream = stdin or sys.stdin.buffer
                shown = "-"
            else:
                try:
                    stream = stack.enter_context(Path(item.path).open("rb", buffering=READ_BUFFER))
                except OSError as error:
                    raise SourceError(f"cannot read {item.path}: {error.strerror or error}") from None
                shown = item.path
            engine.begin_input(Location(SOURCE_KEYS, shown))
            try:
                for name, line, key_type in read_keys(stream, item.input_format, shown):
                    feed(name, line, key_type)
            except OSError as error:
                raise SourceError(f"cannot read {shown}: {error.strerror or error}") from None
    result = engine.finish(SOURCE_KEYS)
    return _report(result, settings, registry, "keys", tuple(i.path for i in inputs))


def check_key_names(names: Iterable[bytes | str], settings: Settings | None = None) -> Report:
    """Lint key names given in memory (bytes, or str encoded as UTF-8)."""
    registry = default_registry()
    settings = settings or settings_for(Overrides(isolated=True), registry)
    engine = _engine(settings)
    engine.begin_input(Location(SOURCE_KEYS, "<memory>"))
    for index, name in enumerate(names, 1):
        engine.feed_name(name.encode("utf-8") if isinstance(name, str) else name, index)
    return _report(engine.finish(SOURCE_KEYS), settings, registry, "keys", ("<memory>",))
