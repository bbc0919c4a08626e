"""Key names as templates: literal byte runs and typed placeholders.

One representation serves every source. A concrete key seen on a server becomes a template by pattern
inference (`user:profile:id:12345` → literal `user:profile:id:` + an integer placeholder of width 5), and a key
built in code becomes one directly (`f"user:{uid}:profile"` → `user:` + unknown + `:profile`). Naming rules
only ever look at templates, so one rule implementation checks code, live data, dumps and key lists alike,
and the engine can evaluate a rule once per distinct template instead of once per key.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

SEPARATOR = b":"
GLOB_SPECIAL = frozenset(b"*?[]\\")


class Placeholder(NamedTuple):
    """A variable part of a key name.

    A NamedTuple rather than a dataclass so that hashing a template tuple stays in C: templates are
    dictionary keys on the per-key hot path.
    """

    slot: str  # one of the SLOT_* constants
    width: int | None = None  # bytes in the concrete key; None when unknown (a code template)
    upper: bool = False  # the concrete value contained upper-case letters
    label: str | None = None  # what it stands for in code (`uid` in f"user:{uid}")

    @property
    def known(self) -> bool:
        return self.slot != SLOT_ANY


SLOT_INT = "int"  # decimal digits
SLOT_DATE = "date"  # YYYYMMDD, a valid calendar date
SLOT_DATE_DASHED = "date-dashed"  # YYYY-MM-DD
SLOT_HEX = "hex"  # hexadecimal run (hashes, object ids)
SLOT_UUID = "uuid"
SLOT_TOKEN = "token"  # a long random-looking run: base62, base64, base64url
SLOT_ULID = "ulid"  # 26 characters of Crockford base32
SLOT_DATETIME = "datetime"  # an ISO 8601 date and time (2024-11-03T10:00:00Z)
SLOT_WEEK = "week"  # an ISO week (2024-W45)
SLOT_EMAIL = "email"
SLOT_IP = "ip"  # an IPv4 or IPv6 address
SLOT_TEXT = "text"  # a free value the key carries verbatim (a query-string parameter)
SLOT_ANY = "any"  # unknown content (a code expression)

Part: TypeAlias = bytes | Placeholder


@dataclass(frozen=True, slots=True)
class Segment:
    """One `:`-separated level of a key: a run of parts without a separator."""

    parts: tuple[Part, ...]
    index: int

    @property
    def literal(self) -> bytes | None:
        """The segment's bytes when it has no placeholder, else None."""
        if not self.parts:
            return b""
        if len(self.parts) == 1 and isinstance(self.parts[0], bytes):
            return self.parts[0]
        return None

    @property
    def is_empty(self) -> bool:
        return not self.parts

    @property
    def placeholder(self) -> Placeholder | None:
        """The placeholder when the whole segment is exactly one placeholder."""
        if len(self.parts) == 1 and isinstance(self.parts[0], Placeholder):
            return self.parts[0]
        return None

    def literal_bytes(self) -> Iterator[bytes]:
        for part in self.parts:
            if isinstance(part, bytes):
                yield part

    @property
    def display(self) -> bytes:
        return render_parts(self.parts)


def _escape_glob(data: bytes) -> bytes:
    if not any(byte in GLOB_SPECIAL for byte in data):
        return data
    return bytes(b for byte in data for b in ((0x5C, byte) if byte in GLOB_SPECIAL else (byte,)))


def render_parts(parts: tuple[Part, ...]) -> bytes:
    """The pattern as a Redis glob: placeholders become `*`, literal glob characters are escaped."""
    return b"".join(b"*" if isinstance(p, Placeholder) else _escape_glob(p) for p in parts)


@dataclass(frozen=True)
class KeyTemplate:
    """A key name as literal bytes and placeholders (see the module docstring).

    Not slotted: `pattern` and `segments()` are cached on the instance, because every naming rule asks
    for them and the engine evaluates all rules on the same template object.
    """

    parts: tuple[Part, ...]

    @classmethod
    def literal(cls, name: bytes) -> KeyTemplate:
        return cls((name,) if name else ())

    @functools.cached_property
    def pattern(self) -> bytes:
        """The glob pattern findings are grouped under, e.g. `user:profile:id:*`."""
        return render_parts(self.parts)

    @property
    def exact_length(self) -> int | None:
        """Length in bytes when every placeholder's width is known (always so for a concrete key)."""
        total = 0
        for part in self.parts:
            if isinstance(part, bytes):
                total += len(part)
            elif part.width is None:
                return None
            else:
                total += part.width
        return total

    @property
    def min_length(self) -> int:
        """Fewest bytes any key of this template can have (an unknown placeholder counts as 1)."""
        return sum(len(p) if isinstance(p, bytes) else (p.width or 1) for p in self.parts)

    @property
    def has_unknown(self) -> bool:
        return any(isinstance(p, Placeholder) and not p.known for p in self.parts)

    def literals(self) -> Iterator[bytes]:
        for part in self.parts:
            if isinstance(part, bytes):
                yield part

    def placeholders(self) -> Iterator[Placeholder]:
        for part in self.parts:
            if isinstance(part, Placeholder):
                yield part

    def segments(self) -> tuple[Segment, ...]:
        """Split on `:` into levels; `a::b` has an empty middle segment."""
        return self._segments

    @functools.cached_property
    def _segments(self) -> tuple[Segment, ...]:
        segments: list[Segment] = []
        current: list[Part] = []
        for part in self.parts:
            if isinstance(part, Placeholder):
                current.append(part)
                continue
            pieces = part.split(SEPARATOR)
            for i, piece in enumerate(pieces):
                if i:
                    segments.append(Segment(tuple(current), len(segments)))
                    current = []
                if piece:
                    current.append(piece)
        segments.append(Segment(tuple(current), len(segments)))
        return tuple(segments)
