"""Opt-in fixes: what the guard changes in a command before it is sent, so the application follows the
conventions without a code change while it is fixed for good.

- `ttl-jitter` (a fraction, 0.1 by default): a TTL given with EX/PX, SETEX/PSETEX, EXPIRE/PEXPIRE or GETEX
  gets a random addition of up to that fraction, so keys written together do not expire together (TTL007).
- `chunk` (keys per command, BAT001's 100 by default): MGET, MSET, DEL, UNLINK, EXISTS, TOUCH, HMGET and HDEL
  carrying more are sent as several commands of at most that many, and their replies merged into the reply
  the one command would have given (a list in order, a count, True). MSET in chunks is not atomic: another
  client may read some of the keys written before the others; MSETNX is never split.
- `flush` (commands, BAT003's 200 by default): a synchronous pipeline that is not a transaction is sent
  every that many queued commands, and `execute()` returns every reply in order (and raises the first error
  of them all unless told not to), as the one pipeline does. An asyncio pipeline queues without awaiting:
  it is not flushed.
- `unlink`: DEL is sent as UNLINK (same reply; the memory is freed in the background), a chunked DEL too.

Every fix applied is counted per fix and call site; the report says how often (`guard-fixed` notes).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rediscipline.sources.runtime.reading import number, option_word

TTL_JITTER, CHUNK, FLUSH, UNLINK = "ttl-jitter", "chunk", "flush", "unlink"
#: The defaults come from the conventions: 10% jitter, 100 keys per request, 200 commands per pipeline.
DEFAULTS: dict[str, float | int | bool] = {TTL_JITTER: 0.1, CHUNK: 100, FLUSH: 200, UNLINK: True}
#: The rule each fix makes a command follow: the guard does not refuse what a fix repairs.
FIXED_RULES = {TTL_JITTER: "TTL007", CHUNK: "BAT001", FLUSH: "BAT003", UNLINK: "CMD008"}

#: Commands split by `chunk`: the operands before the chunked ones, how many operands make one item, and how
#: replies merge.
_SPLIT: dict[str, tuple[int, int]] = {
    "mget": (0, 1),
    "del": (0, 1),
    "unlink": (0, 1),
    "exists": (0, 1),
    "touch": (0, 1),
    "mset": (0, 2),
    "hmget": (1, 1),
    "hdel": (1, 1),
}
#: Where a relative TTL is, by command: an operand index, or the option keywords that precede it (looked for
#: from the first option on: SET's value may be the text "EX").
_TTL_AT = {"setex": 1, "psetex": 1, "expire": 1, "pexpire": 1}
_TTL_OPTIONS = {"set": (2, ("EX", "PX")), "getex": (1, ("EX", "PX"))}


class FixError(ValueError):
    """A `fix=` value the guard does not understand."""


@dataclass(frozen=True)
class Fixes:
    """Which fixes are on, with their settings (0 / False: off)."""

    ttl_jitter: float = 0.0
    chunk: int = 0
    flush: int = 0
    unlink: bool = False

    @classmethod
    def parse(cls, given: Fixes | Mapping[str, Any] | Iterable[str] | str | None) -> Fixes:
        """`fix=` as a Fixes, a mapping (`{"ttl-jitter": 0.2, "chunk": 50}`), names with their defaults
        (`["ttl-jitter", "unlink"]`, `"chunk"`) or None."""
        if given is None:
            return cls()
        if isinstance(given, Fixes):
            return given
        if isinstance(given, str):
            given = [given]
        settings: dict[str, Any] = dict(given) if isinstance(given, Mapping) else dict.fromkeys(given, True)
        unknown = sorted(set(settings) - set(DEFAULTS))
        if unknown:
            raise FixError(f"unknown fix {unknown[0]!r}: the fixes are {', '.join(DEFAULTS)}")
        values: dict[str, Any] = {}
        for name, given_value in settings.items():
            value = DEFAULTS[name] if given_value is True else given_value
            if value is False or value is None:
                continue
            if name == UNLINK:
                values[name] = bool(value)
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise FixError(f"fix {name!r} takes a positive number, not {value!r}")
            if name == TTL_JITTER and value > 1:
                raise FixError(f"fix {name!r} is a fraction of the TTL (0 < jitter <= 1), not {value!r}")
            if name in (CHUNK, FLUSH) and not isinstance(value, int):
                raise FixError(f"fix {name!r} takes a whole number of commands, not {value!r}")
            values[name] = value
        return cls(
            ttl_jitter=float(values.get(TTL_JITTER, 0.0)),
            chunk=int(values.get(CHUNK, 0)),
            flush=int(values.get(FLUSH, 0)),
            unlink=bool(values.get(UNLINK, False)),
        )

    @property
    def any(self) -> bool:
        return bool(self.ttl_jitter or self.chunk or self.flush or self.unlink)

    def rewrite(self, name: str, args: tuple[object, ...], start: int) -> tuple[tuple[object, ...], list[str]]:
        """The command line with the fixes that change one command (UNLINK, jitter), and which applied."""
        applied: list[str] = []
        if self.unlink and name == "del":
            args = ("UNLINK", *args[start:])
            applied.append(UNLINK)
        elif self.ttl_jitter:
            jittered = _jitter(name, args, start, self.ttl_jitter)
            if jittered is not None:
                args = jittered
                applied.append(TTL_JITTER)
        return args, applied

    def split(self, name: str, args: tuple[object, ...], start: int) -> Chunked | None:
        """The chunks of an oversized multi-key command, or None when it is small enough or not split (a DEL
        split with `unlink` on is sent as UNLINKs)."""
        if not self.chunk or name not in _SPLIT:
            return None
        fixed, width = _SPLIT[name]
        head = args[: start + fixed]
        items = args[start + fixed :]
        if len(items) // width <= self.chunk or len(items) % width:
            return None
        applied: tuple[str, ...] = (CHUNK,)
        if self.unlink and name == "del":
            head, applied = ("UNLINK",), (CHUNK, UNLINK)
        step = self.chunk * width
        return Chunked(name, [(*head, *items[i : i + step]) for i in range(0, len(items), step)], applied, len(head))


@dataclass(frozen=True)
class Chunked:
    """One command sent as several; `run` sends them and merges the replies as the one command's. `applied`:
    the fixes the chunks carry (`chunk`, and `unlink` for a DEL sent as UNLINKs)."""

    name: str
    chunks: list[tuple[object, ...]]
    applied: tuple[str, ...] = (CHUNK,)
    head: int = 1  # the arguments before the chunked items, repeated in every chunk

    def run(self, send: Callable[..., Any], options: Mapping[str, Any]) -> Any:
        return merge(self.name, [send(*chunk, **given) for chunk, given in self._each(options)])

    async def run_async(self, send: Callable[..., Awaitable[Any]], options: Mapping[str, Any]) -> Any:
        return merge(self.name, [await send(*chunk, **given) for chunk, given in self._each(options)])

    def _each(self, options: Mapping[str, Any]) -> list[tuple[tuple[object, ...], Mapping[str, Any]]]:
        """Each chunk with its options. redis-py passes the keys a command reads as the option `keys` (MGET,
        EXISTS): its client-side cache keys its entries by them, so each chunk names its own keys, or the
        cache would answer every chunk with the first chunk's reply."""
        keys = options.get("keys")
        if keys is None or not isinstance(keys, (list, tuple)):
            return [(chunk, options) for chunk in self.chunks]
        items = [item for chunk in self.chunks for item in chunk[self.head :]]
        if list(keys) != items:
            return [(chunk, options) for chunk in self.chunks]
        return [(chunk, {**options, "keys": list(chunk[self.head :])}) for chunk in self.chunks]


def merge(name: str, replies: Sequence[Any]) -> Any:
    """The reply of the whole command from the replies of its chunks."""
    if name in ("mget", "hmget"):
        return [item for reply in replies for item in reply]
    if name == "mset":
        return all(replies)
    return sum(replies)


def _jitter(name: str, args: tuple[object, ...], start: int, fraction: float) -> tuple[object, ...] | None:
    """`args` with its relative TTL raised by a random amount of up to `fraction` of it (whole units)."""
    position: int | None = None
    at = _TTL_AT.get(name)
    if at is not None:
        position = start + at
    else:
        options = _TTL_OPTIONS.get(name)
        if options is None:
            return None
        first, keywords = options
        for i in range(start + first, len(args) - 1):
            if option_word(args[i]) in keywords:
                position = i + 1
                break
    if position is None or position >= len(args):
        return None
    value = number(args[position])
    if not isinstance(value, int) or value <= 0:
        return None
    extra = random.randint(0, int(value * fraction))
    return (*args[:position], value + extra, *args[position + 1 :])
