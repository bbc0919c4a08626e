"""Shared by the PUB rules on connections (a traffic window's `CLIENT LIST`): how a client reads in a subject
and a message, and the `client-output-buffer-limit` its output buffer is held to.

A client's address and name are outside text (the server prints what the client set): they are escaped and
bounded here (`model.display`) before they enter a message or a subject.
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.display import QUOTE_LIMIT, display_text
from rediscipline.model.text import Text
from rediscipline.model.traffic import DEFAULT_OUTPUT_LIMITS, ClientInfo, TrafficView
from rediscipline.model.units import human_bytes

#: Where connections are seen: the clients listed at the end of a traffic window (`rediscipline traffic`).
CLIENT_CHECKS = ("traffic",)


def client_label(client: ClientInfo) -> str:
    """A client in a message: its address, and its name when it set one, `10.0.0.7:51022 (feed)`."""
    address = display_text(client.addr, QUOTE_LIMIT)
    return f"{address} ({display_text(client.name, QUOTE_LIMIT)})" if client.name else address


def client_subject(client: ClientInfo) -> str:
    """The subject of a finding about one connection: `client 10.0.0.7:51022 (feed)`."""
    return f"client {client_label(client)}"


@dataclass(frozen=True, slots=True)
class OutputLimit:
    """`client-output-buffer-limit` of one class: `hard` bytes (disconnected at once), `soft` bytes for
    `seconds` (disconnected after staying above it that long); 0 is no limit."""

    hard: int
    soft: int
    seconds: int

    @property
    def unlimited(self) -> bool:
        return not self.hard and not self.soft

    @property
    def by_soft(self) -> bool:
        """Whether the soft limit is the one a growing buffer meets first: set, and not above a hard one."""
        return bool(self.soft) and (not self.hard or self.soft <= self.hard)

    @property
    def bytes(self) -> int:
        """The size at which the server starts to disconnect (0: never)."""
        return self.soft if self.by_soft else self.hard

    def described(self) -> Text:
        """`hard 32.0 MB, soft 8.0 MB for 60 s` / `硬限制 32.0 MB，软限制 8.0 MB 持续 60 秒`."""
        if self.unlimited:
            return Text("no limit: 0 0 0", "无限制：0 0 0")
        en: list[str] = []
        zh: list[str] = []
        if self.hard:
            en.append(f"hard {human_bytes(self.hard)}")
            zh.append(f"硬限制 {human_bytes(self.hard)}")
        if self.soft:
            en.append(f"soft {human_bytes(self.soft)} for {self.seconds} s")
            zh.append(f"软限制 {human_bytes(self.soft)} 持续 {self.seconds} 秒")
        return Text(", ".join(en), "，".join(zh))

    def reached(self) -> Text:
        """When the server disconnects a client of this class (for a class with a limit)."""
        if self.by_soft and self.seconds:
            size = human_bytes(self.soft)
            return Text(f"once it stays above {size} for {self.seconds} s", f"超过 {size} 持续 {self.seconds} 秒后")
        size = human_bytes(self.bytes)
        return Text(f"as soon as it reaches {size}", f"一旦达到 {size}")


def output_limit(traffic: TrafficView, output_class: str) -> OutputLimit:
    """The limit of `output_class` as the view read it (the server's default for a class it does not list)."""
    hard, soft, seconds = traffic.output_limits.get(output_class, DEFAULT_OUTPUT_LIMITS.get(output_class, (0, 0, 0)))
    return OutputLimit(hard, soft, seconds)
