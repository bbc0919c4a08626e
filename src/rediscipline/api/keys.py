"""Lint key lists: files, standard input, or names in memory."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from rediscipline.api.common import build_report, new_engine, settings_for
from rediscipline.model.location import SOURCE_KEYS, Location
from rediscipline.model.report import Report
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.settings.loader import Overrides
from rediscipline.sources.errors import SourceError
from rediscipline.sources.keylist import read_keys

READ_BUFFER = 1 << 20


@dataclass(frozen=True, slots=True)
class KeyInput:
    """A key list to read: a file path or `-` for standard input, and its format."""

    path: str
    input_format: str = "raw"


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
    engine = new_engine(settings)
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
    return build_report(result, settings, registry, "keys", tuple(i.path for i in inputs))


def check_key_names(names: Iterable[bytes | str], settings: Settings | None = None) -> Report:
    """Lint key names given in memory (bytes, or str encoded as UTF-8)."""
    registry = default_registry()
    settings = settings or settings_for(Overrides(isolated=True), registry)
    engine = new_engine(settings)
    engine.begin_input(Location(SOURCE_KEYS, "<memory>"))
    for index, name in enumerate(names, 1):
        engine.feed_name(name.encode("utf-8") if isinstance(name, str) else name, index)
    return build_report(engine.finish(SOURCE_KEYS), settings, registry, "keys", ("<memory>",))
