"""Valkey's whole-file compression envelope (placeholder until the format is pinned down)."""

from __future__ import annotations

import mmap
from dataclasses import dataclass


@dataclass
class Envelope:
    data: bytes

    def close(self) -> None:
        self.data = b""


def unwrap(buf: mmap.mmap | bytes, path: str) -> Envelope | None:
    return None
