"""One end of an observation window: the server's cumulative counters and its clock, read in one INFO.

`INFO commandstats`, `errorstats` and `stats` count since the server started (or since `CONFIG RESETSTAT`),
so a window's traffic is the difference of two snapshots. The run id and uptime say whether the server
restarted in between, in which case the difference means nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rediscipline.sources.live.wire import Wire, is_error

#: INFO sections the window reads (`INFO all` holds them all; a server that refuses `all` gets them one by one).
SECTIONS = ("server", "clients", "stats", "commandstats", "errorstats", "latencystats")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The INFO sections of one moment, as `section → field → value`, and the server's clock then (seconds,
    from TIME; None when refused)."""

    sections: Mapping[str, Mapping[str, str]]
    clock: float | None = None
    refused: Mapping[str, str] = field(default_factory=dict)  # section → the server's refusal

    def section(self, name: str) -> Mapping[str, str]:
        return self.sections.get(name, {})

    def field_int(self, section: str, name: str) -> int | None:
        value = self.section(section).get(name)
        return int(value) if value is not None and value.lstrip("-").isdigit() else None

    @property
    def run_id(self) -> str | None:
        return self.section("server").get("run_id")


def parse_sections(text: bytes) -> dict[str, dict[str, str]]:
    """INFO text → `section → field → value` (section names lowercase, as `# Commandstats` heads them)."""
    sections: dict[str, dict[str, str]] = {}
    current = sections.setdefault("", {})
    for raw in text.decode("utf-8", "replace").splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            current = sections.setdefault(line[1:].strip().lower(), {})
            continue
        name, sep, value = line.partition(":")
        if sep:
            current[name] = value
    return sections


def take_snapshot(wire: Wire) -> Snapshot:
    """INFO (every section the window needs) and TIME, in one round trip."""
    wire.send((("INFO", "all"), ("TIME",)))
    info, clock = wire.receive(2)
    refused: dict[str, str] = {}
    if is_error(info):  # a proxy or an old server refusing `all`: the sections one by one
        wire.send(tuple(("INFO", name) for name in SECTIONS))
        sections: dict[str, dict[str, str]] = {}
        for name, reply in zip(SECTIONS, wire.receive(len(SECTIONS)), strict=True):
            if is_error(reply) or not isinstance(reply, bytes):
                refused[name] = str(reply)
            else:
                sections.update(parse_sections(reply))
    else:
        sections = parse_sections(info)
    return Snapshot(sections, _seconds(clock), refused)


def _seconds(reply: object) -> float | None:
    """TIME's `[seconds, microseconds]` as seconds; None when refused."""
    if isinstance(reply, list) and len(reply) == 2:
        try:
            return int(reply[0]) + int(reply[1]) / 1_000_000
        except (TypeError, ValueError):
            return None
    return None
