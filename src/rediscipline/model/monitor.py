"""What a bounded MONITOR sample of a server showed: hot keys, who sent what, and the shapes of the commands.

MONITOR shows every command the server runs, with its arguments and client, which no other source does; it
also costs the server up to half its throughput, hides administrative commands (CONFIG, DEBUG, SLOWLOG:
flagged `admin`), names every unix-socket client by the socket's path, shows no pipeline boundaries and
stamps each line when the command has run. So a sample is opt-in, short and bounded by a byte budget
(`sources.traffic.monitor`), and each number it gives says how far it can be trusted: counts from a
Space-Saving sketch carry their error (`count - error <= true <= count`), and a table that was full says
how much it could not keep.

Keys are `(db, key)` with the key as bytes; patterns are Redis globs inferred from the keys
(`model.keypattern`), as the scan groups keys. Of the arguments a sample keeps only keys, command names (with
a container's subcommand) and expiry values: no value, and no password (AUTH, HELLO, MIGRATE), reaches it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: Why a sample stopped.
STOP_DURATION = "duration"  # the time asked for ran out
STOP_MAX_BYTES = "max-bytes"  # the byte budget was read
STOP_BACKLOG = "backlog"  # the parser fell too far behind the server: the sample is shorter than asked
STOP_INTERRUPTED = "interrupted"  # Ctrl-C
STOP_CLOSED = "closed"  # the server closed the connection, or it was lost (`error` says how)
STOP_REFUSED = "refused"  # the server refused MONITOR (`error` holds its reply)


@dataclass(frozen=True, slots=True)
class KeyCount:
    """A key's count in the sample (operations, or bytes sent about it) as a sketch estimated it: the true
    value is between `count - error` and `count`."""

    db: int
    key: bytes
    count: float
    error: float


@dataclass(frozen=True, slots=True)
class ClientCount:
    """Commands one client sent in the sample (`ip:port`, `[ipv6]:port`, `lua`: the commands scripts ran,
    `unix:<path>`: every client of the unix socket together), between `count - error` and `count`."""

    client: str
    count: int
    error: int


@dataclass(frozen=True, slots=True)
class ArityShape:
    """How many keys the calls of one multi-key command carried (MGET, DEL, MSET, UNLINK, EXISTS, ...).

    `histogram` maps a power of two to the calls with more keys than the one before and at most that many
    (1: one key, 2: two, 4: three or four, ...); the largest call's client and first key say where to look.
    """

    command: str
    calls: int
    max_keys: int
    histogram: Mapping[int, int]
    largest_client: str
    largest_key: bytes


@dataclass(frozen=True, slots=True)
class TransactionShape:
    """MULTI … EXEC blocks of one client: how many, the commands of the largest, the commands of all."""

    client: str
    transactions: int
    max_commands: int
    commands: int


@dataclass(frozen=True, slots=True)
class PatternCount:
    """Writes of whole string values without an expiry (SET without EX, PX, EXAT, PXAT or KEEPTTL; SETNX,
    GETSET, MSET, MSETNX) to keys of one pattern, between `count - error` and `count`, with one example."""

    pattern: bytes
    count: int
    error: int
    example: bytes
    example_command: str


@dataclass(frozen=True, slots=True)
class TtlShape:
    """Expiries set on keys of one pattern (EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, SETEX, PSETEX, SET and GETEX
    with EX, PX, EXAT or PXAT) and the most repeated value among them.

    `ttl_ms` is a time to live in milliseconds, or with `absolute` a moment (Unix milliseconds): the same
    value on many keys written close together is an expiry cliff being written. `writes` and `repeats` are
    between their count minus their error and their count. `burst` is the longest run of writes giving one
    TTL (to the second, `burst_ttl_ms`) to different keys of the pattern, each within 5 ms of the one before
    and all within a second, as a loop or a pipeline writes them (`sources.runtime.stream.TtlRuns`), and
    `burst_command` the command that gave it.
    """

    pattern: bytes
    writes: int
    writes_error: int
    ttl_ms: int
    absolute: bool
    repeats: int
    repeats_error: int
    example: bytes
    burst: int = 0
    burst_ttl_ms: int = 0
    burst_absolute: bool = False
    burst_command: str = ""


@dataclass(frozen=True, slots=True)
class BlockingShape:
    """Blocking reads of one command (BLPOP, BRPOP, BLMOVE, BZPOPMIN, XREAD and XREADGROUP with BLOCK, ...):
    how many, how many of them wait for ever (a timeout of 0), and the client and key of the first such."""

    command: str
    calls: int
    forever: int
    client: str
    key: bytes


@dataclass(frozen=True, slots=True)
class MonitorSample:
    """One MONITOR sample of a server.

    * `stopped`: why it stopped (STOP_*), with `error` the server's refusal or how the connection was lost;
    * `lines`, `bytes_read`: what was read (lines parsed, `malformed` the ones that could not be, a line cut
      by the end of the sample included); `seconds`: how long the reading lasted on this machine's clock;
    * `first_time`, `last_time`: the server's clock on the first and last command seen (`span`);
    * `commands`: calls per command (`get`, `client|list`), at most `COMMANDS_KEPT` names, the rest summed
      under `other_commands`;
    * `key_ops`, `key_bytes`: key accesses seen (a command on three keys is three) and the bytes of their
      commands' arguments (command name excluded, split evenly over the command's keys);
    * `hot_by_ops`, `hot_by_bytes`: the keys with the largest counts, from Space-Saving sketches of
      `sketch_capacity` counters; `ops_floor`/`bytes_floor`: what any key not listed can have at most
      (`hot_by_ops_exact`: the listed keys are exactly the true top ones);
    * `clients`: commands per client, largest first;
    * `arity`: multi-key commands and their numbers of keys; `transactions`: MULTI … EXEC per client
      (`transactions_untracked`: those of clients beyond the table);
    * `writes_without_ttl`, `ttls`: per key pattern, writes without an expiry and expiries set;
    * `blocking`: blocking reads per command, and those without a timeout;
    * `senders`: per command, the first clients seen sending it (at most four) and their calls.

    Keys of EVAL, EVALSHA and FCALL (commands flagged `skip_monitor`) are not counted: the commands the
    script runs follow them as `lua` lines and are counted instead.
    """

    stopped: str
    error: str | None = None
    lines: int = 0
    malformed: int = 0
    bytes_read: int = 0
    max_bytes: int = 0
    seconds: float = 0.0
    first_time: float | None = None
    last_time: float | None = None
    commands: Mapping[str, int] = field(default_factory=dict)
    other_commands: int = 0
    key_ops: int = 0
    key_bytes: int = 0
    sketch_capacity: int = 0
    hot_by_ops: tuple[KeyCount, ...] = ()
    hot_by_bytes: tuple[KeyCount, ...] = ()
    ops_floor: float = 0
    bytes_floor: float = 0
    hot_by_ops_exact: bool = True
    clients: tuple[ClientCount, ...] = ()
    arity: tuple[ArityShape, ...] = ()
    transactions: tuple[TransactionShape, ...] = ()
    transactions_untracked: int = 0
    writes_without_ttl: tuple[PatternCount, ...] = ()
    ttls: tuple[TtlShape, ...] = ()
    blocking: tuple[BlockingShape, ...] = ()
    senders: Mapping[str, tuple[ClientCount, ...]] = field(default_factory=dict)

    @property
    def span(self) -> float:
        """Seconds between the first and the last command seen, on the server's clock (0 for fewer than two)."""
        if self.first_time is None or self.last_time is None:
            return 0.0
        return self.last_time - self.first_time

    @property
    def complete(self) -> bool:
        """Whether the sample ran as long as asked (not cut by the byte budget, the parser's backlog, a Ctrl-C
        or a lost connection)."""
        return self.stopped == STOP_DURATION
