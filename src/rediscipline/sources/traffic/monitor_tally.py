"""What a MONITOR sample's commands add up to, in memory bounded whatever the traffic (`MonitorTally`).

Each parsed line (`monitor_line`) is counted once, as it arrives: its keys (found from the command table's key
specifications, `redis_meta.commands.key_positions`) go into two Space-Saving sketches, one counting
accesses and one the bytes of the arguments split evenly over the keys; its client into a third; and the
commands whose shape a convention limits into small tables: multi-key commands and their numbers of keys,
MULTI … EXEC blocks per client, whole-value writes without an expiry and expiries set, per key pattern.

Every table is bounded: the sketches by their capacity, the per-pattern tables by sketches over patterns
(what is kept beside a pattern goes when the sketch evicts it), the per-client tables by a count of clients,
the command names by a count of names; the pattern memo is cleared when full. Each string the tables keep
comes from the lines read, so their size is also bounded by the sample's byte budget.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from rediscipline.model.keyname import render_parts
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.monitor import (
    ArityShape,
    BlockingShape,
    ClientCount,
    KeyCount,
    MonitorSample,
    PatternCount,
    TransactionShape,
    TtlShape,
)
from rediscipline.redis_meta.command_table_generated import COMMANDS
from rediscipline.redis_meta.commands import CONTAINERS, key_positions
from rediscipline.sources.runtime.stream import TtlRuns
from rediscipline.sources.traffic.monitor_line import MonitorLine
from rediscipline.sources.traffic.sketch import SpaceSaving
from rediscipline.sources.traffic.trace import TraceWriter

#: Counters of the hot-key sketches, and how many keys a sample lists.
KEYS_KEPT = 10_000
KEYS_SHOWN = 100
#: Clients counted (a sketch), clients whose MULTI blocks are followed, key patterns per table, command names.
CLIENTS_KEPT = 1_000
PATTERNS_KEPT = 1_000
COMMANDS_KEPT = 1_000
#: Distinct expiry values counted per pattern, and keys whose pattern is remembered.
TTL_VALUES_KEPT = 16
PATTERN_MEMO = 50_000
#: Clients remembered per command name (who sent it), first come first kept.
SENDERS_KEPT = 4

#: Commands shown before they run, whose own calls follow as `lua` lines (EVAL, EVALSHA, FCALL): their
#: declared keys are not accesses.
SCRIPT_CALLERS: Final = frozenset(name for name, info in COMMANDS.items() if "skip_monitor" in info.flags)
#: Commands that take any number of keys (a key specification running to the end, or a key count).
MULTI_KEY: Final = frozenset(
    name
    for name, info in COMMANDS.items()
    if name not in SCRIPT_CALLERS and any(spec.find == "keynum" or spec.lastkey < 0 for spec in info.keys)
)
#: Commands whose keys' positions depend only on the number of arguments (no keyword, no key count, no
#: subcommand): their positions are remembered per number of arguments.
FIXED_POSITIONS: Final = frozenset(
    name
    for name, info in COMMANDS.items()
    if not info.subcommands and all(spec.keyword is None and spec.find == "range" for spec in info.keys)
)
POSITIONS_MEMO = 4_096
#: Whole-value string writes that never set an expiry, and SET's options that do (or keep one).
NO_TTL_WRITES: Final = frozenset({"setnx", "getset", "mset", "msetnx"})
SET_TTL_OPTIONS: Final = frozenset({b"ex", b"px", b"exat", b"pxat", b"keepttl"})
#: Expiry-setting commands → (the argument holding the value, milliseconds per unit, absolute).
TTL_ARGUMENT: Final = {
    "expire": (2, 1000, False),
    "pexpire": (2, 1, False),
    "expireat": (2, 1000, True),
    "pexpireat": (2, 1, True),
    "setex": (2, 1000, False),
    "psetex": (2, 1, False),
}
#: SET's and GETEX's expiry options → (milliseconds per unit, absolute).
TTL_OPTIONS: Final = {b"ex": (1000, False), b"px": (1, False), b"exat": (1000, True), b"pxat": (1, True)}
#: The commands `_expiry` looks at.
EXPIRY_SHAPES: Final = frozenset({"set", "getex", *NO_TTL_WRITES, *TTL_ARGUMENT})
#: Blocking reads of lists and sorted sets (BLPOP, BLMOVE, BZPOPMIN, ...): the timeout in seconds is the last
#: argument, or the first for BLMPOP and BZMPOP; 0 waits for ever.
BLOCKING_POPS: Final = frozenset(
    name for name, info in COMMANDS.items() if info.is_blocking and info.key_type in ("list", "zset")
)
TIMEOUT_FIRST: Final = frozenset({"blmpop", "bzmpop"})
#: Stream reads that block with the BLOCK option (milliseconds; 0 waits for ever).
STREAM_READS: Final = frozenset(
    name for name, info in COMMANDS.items() if info.is_blocking and info.key_type == "stream"
)


_NO_BURST = (0, 0, False, "")


@dataclass
class _Blocking:
    calls: int = 0
    forever: int = 0
    client: str = ""
    key: bytes = b""


@dataclass
class _Arity:
    calls: int = 0
    max_keys: int = 0
    largest_client: str = ""
    largest_key: bytes = b""
    histogram: dict[int, int] = field(default_factory=dict)


class MonitorTally:
    """The running totals of one sample; `feed` each parsed line, then `sample(...)` the result."""

    def __init__(self, capacity: int = KEYS_KEPT, trace: TraceWriter | None = None) -> None:
        self.capacity = capacity
        self.trace = trace
        self.lines = 0
        self.malformed = 0
        self.first_time: float | None = None
        self.last_time: float | None = None
        self.by_ops: SpaceSaving[tuple[int, bytes]] = SpaceSaving(capacity)
        self.by_bytes: SpaceSaving[tuple[int, bytes]] = SpaceSaving(capacity)
        self.clients: SpaceSaving[str] = SpaceSaving(CLIENTS_KEPT)
        self.commands: dict[str, int] = {}
        self.other_commands = 0
        self.arity: dict[str, _Arity] = {}
        self.open_multi: dict[str, int] = {}  # client → commands so far in its MULTI block
        self.transactions: dict[str, list[int]] = {}  # client → [blocks, largest, commands]
        self.transactions_untracked = 0
        self.no_ttl: SpaceSaving[bytes] = SpaceSaving(PATTERNS_KEPT)
        self.no_ttl_example: dict[bytes, tuple[bytes, str]] = {}
        self.ttl_writes: SpaceSaving[bytes] = SpaceSaving(PATTERNS_KEPT)
        self.ttl_values: dict[bytes, SpaceSaving[tuple[bool, int]]] = {}
        self.ttl_example: dict[bytes, bytes] = {}
        self.ttl_runs = TtlRuns()
        self.ttl_bursts: dict[bytes, tuple[int, int, bool, str]] = {}  # pattern → its longest run of one TTL
        self.blocking: dict[str, _Blocking] = {}
        self.senders: dict[str, dict[str, int]] = {}
        self._names: dict[bytes, str] = {}
        self._patterns: dict[bytes, bytes] = {}
        self._positions: dict[tuple[str, int], tuple[int, ...]] = {}

    def feed(self, line: MonitorLine) -> None:
        moment, db, client, args = line
        self.lines += 1
        if self.first_time is None:
            self.first_time = moment
        self.last_time = moment
        name = self._names.get(args[0])
        if name is None:
            name = self._name(args[0])
        full = f"{name}|{args[1].decode('ascii', 'replace').lower()}" if name in CONTAINERS and len(args) > 1 else name
        if full in self.commands:
            self.commands[full] += 1
        elif len(self.commands) < COMMANDS_KEPT:
            self.commands[full] = 1
        else:
            self.other_commands += 1
        self.clients.add(client)
        self._sender(full, client)
        if self.open_multi or name == "multi":
            self._transaction(client, name)
        positions = self._positions.get((name, len(args)))
        if positions is None:
            positions = () if name in SCRIPT_CALLERS else key_positions(args)
            if name in FIXED_POSITIONS and len(self._positions) < POSITIONS_MEMO:
                self._positions[(name, len(args))] = positions
        if not positions:
            return
        keys = [args[position] for position in positions]
        share = (sum(map(len, args)) - len(args[0])) / len(keys)
        by_ops, by_bytes = self.by_ops.add, self.by_bytes.add
        for key in keys:
            by_ops((db, key))
            by_bytes((db, key), share)
        found = ttl_argument(name, args) if name in EXPIRY_SHAPES else None  # the expiry the command sets
        if self.trace is not None:
            us, size, ttl = round(moment * 1_000_000), int(share), ttl_ms(found, moment)
            for key in keys:
                self.trace.write(us, db, full, size, key, ttl=ttl)
        if name in MULTI_KEY:
            self._arity(name, client, keys)
        if name in EXPIRY_SHAPES:
            self._expiry(name, args, keys, found, (moment, client))
        if name in BLOCKING_POPS or name in STREAM_READS:
            self._blocking(name, args, keys, client)

    def _sender(self, name: str, client: str) -> None:
        """Count `client` as a sender of `name`: the first SENDERS_KEPT clients of each name kept."""
        clients = self.senders.get(name)
        if clients is None:
            if len(self.senders) >= COMMANDS_KEPT:
                return
            clients = self.senders[name] = {}
        if client in clients:
            clients[client] += 1
        elif len(clients) < SENDERS_KEPT:
            clients[client] = 1

    def _blocking(self, name: str, args: tuple[bytes, ...], keys: list[bytes], client: str) -> None:
        """A blocking read: counted, and whether it waits for ever (a timeout of 0)."""
        if name in STREAM_READS:
            options = [argument.lower() for argument in args[1:]]
            options = options[: options.index(b"streams")] if b"streams" in options else options
            if b"block" not in options:
                return  # XREAD without BLOCK does not block
            at = options.index(b"block") + 2
            timeout = args[at] if at < len(args) else b""
        else:
            timeout = args[1] if name in TIMEOUT_FIRST else args[-1]
        shape = self.blocking.get(name)
        if shape is None:
            shape = self.blocking[name] = _Blocking()
        shape.calls += 1
        if _is_zero(timeout):
            shape.forever += 1
            if not shape.client:
                shape.client, shape.key = client, keys[0]

    def _name(self, raw: bytes) -> str:
        name = raw.decode("ascii", "backslashreplace").lower()
        if len(self._names) < COMMANDS_KEPT:
            self._names[raw] = name
        return name

    def _transaction(self, client: str, name: str) -> None:
        """Follow MULTI … EXEC: the server shows MULTI when it runs, then the queued commands and EXEC when
        EXEC runs them, each line with the client's address (nothing else of that client can run between)."""
        count = self.open_multi.get(client)
        if count is None:
            if name == "multi":
                if len(self.open_multi) >= CLIENTS_KEPT:
                    del self.open_multi[next(iter(self.open_multi))]  # the oldest open block: never closed here
                self.open_multi[client] = 0
            return
        if name == "exec":
            del self.open_multi[client]
            kept = self.transactions.get(client)
            if kept is None:
                if len(self.transactions) >= CLIENTS_KEPT:
                    self.transactions_untracked += 1
                    return
                kept = self.transactions[client] = [0, 0, 0]
            kept[0] += 1
            kept[1] = max(kept[1], count)
            kept[2] += count
        elif name == "discard":
            del self.open_multi[client]
        elif name != "multi":  # a nested MULTI is refused and changes nothing
            self.open_multi[client] = count + 1

    def _arity(self, name: str, client: str, keys: list[bytes]) -> None:
        shape = self.arity.get(name)
        if shape is None:
            shape = self.arity[name] = _Arity()
        count = len(keys)
        shape.calls += 1
        bucket = 1 << (count - 1).bit_length()
        shape.histogram[bucket] = shape.histogram.get(bucket, 0) + 1
        if count > shape.max_keys:
            shape.max_keys, shape.largest_client, shape.largest_key = count, client, keys[0]

    def _expiry(
        self,
        name: str,
        args: tuple[bytes, ...],
        keys: list[bytes],
        found: tuple[int, int, bool] | None,
        sent: tuple[float, str],
    ) -> None:
        """Count a whole-value write without an expiry, or the expiry it sets (`found`, from `ttl_argument`),
        under its key's pattern; `sent` is when and by whom (a burst of one TTL is one client's loop or
        pipeline: runs are per client)."""
        if found is None:
            if name == "set" and not SET_TTL_OPTIONS.intersection(argument.lower() for argument in args[3:]):
                self._no_ttl(keys[0], name)
            elif name in NO_TTL_WRITES:
                for key in keys:
                    self._no_ttl(key, name)
            return
        if found[0] < 0:
            return
        value, unit, absolute = found
        pattern = self._pattern(keys[0])
        evicted = self.ttl_writes.add(pattern)
        if evicted is not None:
            self.ttl_values.pop(evicted, None)
            self.ttl_example.pop(evicted, None)
            self.ttl_bursts.pop(evicted, None)
        values = self.ttl_values.get(pattern)
        if values is None:
            values = self.ttl_values[pattern] = SpaceSaving(TTL_VALUES_KEPT)
            self.ttl_example[pattern] = keys[0]
        values.add((absolute, value * unit))
        moment, client = sent
        run = self.ttl_runs.add(client.encode() + b"\0" + pattern, keys[0], value * unit, moment)
        if run > 1 and run > self.ttl_bursts.get(pattern, _NO_BURST)[0]:
            self.ttl_bursts[pattern] = (run, value * unit, absolute, name)

    def _no_ttl(self, key: bytes, name: str) -> None:
        pattern = self._pattern(key)
        evicted = self.no_ttl.add(pattern)
        if evicted is not None:
            self.no_ttl_example.pop(evicted, None)
        self.no_ttl_example.setdefault(pattern, (key, name))

    def _pattern(self, key: bytes) -> bytes:
        pattern = self._patterns.get(key)
        if pattern is None:
            if len(self._patterns) >= PATTERN_MEMO:
                self._patterns.clear()
            pattern = self._patterns[key] = render_parts(infer_parts(key))
        return pattern

    def sample(
        self, stopped: str, *, error: str | None, bytes_read: int, max_bytes: int, seconds: float, shown: int
    ) -> MonitorSample:
        """The sample so far, with the `shown` hottest keys."""
        return MonitorSample(
            stopped=stopped,
            error=error,
            lines=self.lines,
            malformed=self.malformed,
            bytes_read=bytes_read,
            max_bytes=max_bytes,
            seconds=seconds,
            first_time=self.first_time,
            last_time=self.last_time,
            commands=dict(sorted(self.commands.items(), key=lambda item: (-item[1], item[0]))),
            other_commands=self.other_commands,
            key_ops=int(self.by_ops.total),
            key_bytes=round(self.by_bytes.total),
            sketch_capacity=self.capacity,
            hot_by_ops=tuple(KeyCount(e.item[0], e.item[1], e.count, e.error) for e in self.by_ops.top(shown)),
            hot_by_bytes=tuple(KeyCount(e.item[0], e.item[1], e.count, e.error) for e in self.by_bytes.top(shown)),
            ops_floor=self.by_ops.floor,
            bytes_floor=self.by_bytes.floor,
            hot_by_ops_exact=self.by_ops.is_top_exact(min(shown, len(self.by_ops))),
            clients=tuple(ClientCount(e.item, int(e.count), int(e.error)) for e in self.clients.top()),
            arity=tuple(
                ArityShape(
                    name,
                    shape.calls,
                    shape.max_keys,
                    dict(sorted(shape.histogram.items())),
                    shape.largest_client,
                    shape.largest_key,
                )
                for name, shape in sorted(self.arity.items(), key=lambda item: (-item[1].max_keys, item[0]))
            ),
            transactions=tuple(
                TransactionShape(client, *counts)
                for client, counts in sorted(self.transactions.items(), key=lambda item: (-item[1][1], item[0]))
            ),
            transactions_untracked=self.transactions_untracked,
            writes_without_ttl=tuple(
                PatternCount(e.item, int(e.count), int(e.error), *self.no_ttl_example[e.item])
                for e in self.no_ttl.top()
            ),
            ttls=tuple(self._ttl_shapes()),
            blocking=tuple(
                BlockingShape(name, shape.calls, shape.forever, shape.client, shape.key)
                for name, shape in sorted(self.blocking.items())
            ),
            senders={
                name: tuple(ClientCount(client, count, 0) for client, count in clients.items())
                for name, clients in sorted(self.senders.items())
            },
        )

    def _ttl_shapes(self) -> list[TtlShape]:
        """Per pattern, the most repeated expiry. A pattern the sketch once evicted lost the values counted
        before it came back (at most its error): they are added to the repeats' count and error."""
        shapes = []
        for writes in self.ttl_writes.top():
            pattern, missed = writes.item, int(writes.error)
            [value] = self.ttl_values[pattern].top(1)
            absolute, ttl_ms = value.item
            shapes.append(
                TtlShape(pattern, int(writes.count), missed, ttl_ms, absolute, int(value.count) + missed,
                         int(value.error) + missed, self.ttl_example[pattern], *self.ttl_bursts.get(pattern, _NO_BURST))
            )  # fmt: skip
        shapes.sort(key=lambda shape: (-shape.repeats, shape.pattern))
        return shapes


def ttl_argument(name: str, args: tuple[bytes, ...]) -> tuple[int, int, bool] | None:
    """The expiry a command sets, as (value, milliseconds per unit, absolute), None when it sets none: the
    argument of EXPIRE, SETEX, ... (TTL_ARGUMENT), the last EX/PX/EXAT/PXAT option of SET or GETEX."""
    if name in TTL_ARGUMENT:
        index, unit, absolute = TTL_ARGUMENT[name]
        return (_integer(args[index]), unit, absolute) if len(args) > index else None
    if name not in ("set", "getex"):
        return None
    start = 3 if name == "set" else 2
    found = None
    options = [argument.lower() for argument in args[start:]]
    for index, option in enumerate(options[:-1]):
        if option in TTL_OPTIONS:
            unit, absolute = TTL_OPTIONS[option]
            found = (_integer(args[start + index + 1]), unit, absolute)
    return found


def ttl_ms(found: tuple[int, int, bool] | None, moment: float) -> int:
    """The milliseconds `found` (from `ttl_argument`) leaves the key, from `moment` (Unix seconds) for an
    absolute time; 0 when it sets none or has passed."""
    if found is None:
        return 0
    value, unit, absolute = found
    left = value * unit - (round(moment * 1000) if absolute else 0)
    return max(left, 0)


def _is_zero(value: bytes) -> bool:
    """A timeout argument that waits for ever: `0`, `0.0`, `00` (the server reads it as a number)."""
    try:
        return float(value) == 0
    except ValueError:
        return False


def _integer(value: bytes) -> int:
    """A command's integer argument; -1 when it is not one (the server refused that command)."""
    text = value[1:] if value[:1] == b"-" else value
    if not text.isdigit() or len(text) > 19:
        return -1
    return int(value)
