"""What a scan really sends: a MONITOR recorder, INFO commandstats deltas, and the forbidden-command check.

A live scan is a guest in production (DESIGN §5): it must never send KEYS, scripts, DEBUG, FLUSH*, whole-value
reads (SMEMBERS, HGETALL, HKEYS, HVALS, `LRANGE k 0 -1`, `ZRANGE k 0 -1`), `MEMORY USAGE … SAMPLES 0`,
MONITOR, or anything the server flags `write`.

MONITOR does not show administrative commands (DEBUG, CONFIG SET, …: Redis hides commands flagged `admin`),
so the tests pair it with a before/after diff of INFO commandstats, which counts every call by name.
"""

from __future__ import annotations

import contextlib
import re
import socket
import threading
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import TracebackType

import hiredis
import redis

from rediscipline.sources.traffic.monitor_line import parse_line
from tests.support.servers import ServerProcess

#: Commands a scan must never send, whatever their arguments.
FORBIDDEN = frozenset(
    {
        "keys", "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro", "script", "function",
        "debug", "flushall", "flushdb", "smembers", "hgetall", "hkeys", "hvals", "monitor",
    }
)  # fmt: skip


@dataclass(frozen=True)
class Recorded:
    """One command seen by MONITOR."""

    time: float
    db: int
    client: str  # "127.0.0.1:51234", "unix:/path/redis.sock" or "lua"
    args: tuple[bytes, ...]  # args[0] is the command name as the client sent it

    @property
    def name(self) -> str:
        return self.args[0].decode("latin-1").lower() if self.args else ""

    def show(self, limit: int = 120) -> str:
        text = " ".join(a.decode("utf-8", "backslashreplace") for a in self.args)
        return f"[{self.client}] {text[:limit]}"


def parse_monitor_line(line: bytes) -> Recorded | None:
    """Parse `1700000000.123456 [0 127.0.0.1:5555] "SET" "k" "v\\x00"` with the product's MONITOR line parser
    (`sources.traffic.monitor_line`, tested byte for byte against the server's quoting in tests/traffic)."""
    parsed = parse_line(line)
    if parsed is None:
        return None
    return Recorded(parsed.time, parsed.db, parsed.client, parsed.args)


def _resp(*args: bytes) -> bytes:
    return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(a), a) for a in args)


class MonitorRecorder:
    """Records every command the server executes, from `start()` until `stop()`, in a background thread.

    Uses its own socket and hiredis reader (redis-py drops a connection on a read timeout, which a poll loop
    needs). `stop()` sends a unique ECHO from another connection and reads up to it, so every command that
    ran before `stop()` was called is in `records`. If the server dies, recording ends quietly.
    """

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.records: list[Recorded] = []
        self.error: BaseException | None = None
        self._marker = b"rediscipline-monitor-stop-" + uuid.uuid4().hex.encode()
        self._done = threading.Event()
        self._stopping = threading.Event()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> MonitorRecorder:
        sock = socket.create_connection((self.server.host, self.server.port), timeout=10)
        reader = hiredis.Reader()
        if self.server.password is not None:
            sock.sendall(_resp(b"AUTH", self.server.password.encode()))
            self._expect_ok(sock, reader)
        sock.sendall(_resp(b"MONITOR"))
        self._expect_ok(sock, reader)
        sock.settimeout(0.2)
        self._sock = sock
        self._thread = threading.Thread(target=self._run, args=(sock, reader), name="monitor", daemon=True)
        self._thread.start()
        return self

    @staticmethod
    def _expect_ok(sock: socket.socket, reader: hiredis.Reader) -> None:
        while (reply := reader.gets()) is False:
            data = sock.recv(65536)
            if not data:
                raise ConnectionError("server closed the MONITOR connection")
            reader.feed(data)
        if reply != b"OK":
            raise RuntimeError(f"MONITOR setup failed: {reply!r}")

    def _run(self, sock: socket.socket, reader: hiredis.Reader) -> None:
        try:
            while True:
                try:
                    data = sock.recv(1 << 20)
                except TimeoutError:
                    if self._stopping.is_set() and self._done.wait(0):
                        return
                    continue
                if not data:
                    return
                reader.feed(data)
                while (reply := reader.gets()) is not False:
                    if not isinstance(reply, bytes):
                        continue
                    record = parse_monitor_line(reply)
                    if record is None:
                        continue
                    if record.args[1:2] == (self._marker,):
                        return
                    self.records.append(record)
        except OSError as error:  # the server went away, or stop() closed the socket
            if not self._stopping.is_set():
                self.error = error
        finally:
            self._done.set()

    def stop(self, timeout: float = 30.0) -> list[Recorded]:
        """Stop recording; returns every command recorded (the marker excluded)."""
        self._stopping.set()
        if self.server.alive:
            with contextlib.suppress(redis.RedisError), self.server.client(socket_timeout=5) as client:
                client.echo(self._marker)
        self._done.wait(timeout)
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
        if self._thread is not None:
            self._thread.join(5)
        return self.records

    def __enter__(self) -> MonitorRecorder:
        return self.start()

    def __exit__(
        self, _exc_type: type[BaseException] | None, _exc: BaseException | None, _tb: TracebackType | None
    ) -> None:
        self.stop()


# ---- command flags and commandstats -----------------------------------------------------------------------


def _raw(client: redis.Redis, *args: object) -> object:
    """Send a command without redis-py's reply callbacks (COMMAND INFO's callback fails on unknown names)."""
    connection = client.connection_pool.get_connection()
    try:
        connection.send_command(*args)
        return connection.read_response()
    finally:
        client.connection_pool.release(connection)


def command_flags(client: redis.Redis, names: Iterable[str]) -> dict[str, frozenset[str]]:
    """COMMAND INFO flags by name (`config|get` on Redis ≥ 7; the container on 6.2); unknown names absent."""
    wanted = sorted(set(names))
    if not wanted:
        return {}
    reply = _raw(client, "COMMAND", "INFO", *wanted)
    assert isinstance(reply, list)
    out: dict[str, frozenset[str]] = {}
    for name, info in zip(wanted, reply, strict=True):
        if info:
            out[name] = frozenset(flag.decode() if isinstance(flag, bytes) else str(flag) for flag in info[2])
    return out


def _full_names(record: Recorded) -> list[str]:
    """The names to look a command up by: `config|get` first (when there is a second word), then `config`."""
    if len(record.args) >= 2:
        sub = record.args[1].decode("latin-1").lower()
        if re.fullmatch(r"[a-z-]+", sub):
            return [f"{record.name}|{sub}", record.name]
    return [record.name]


def forbidden_commands(records: Iterable[Recorded], client: redis.Redis) -> list[str]:
    """The recorded commands a scan must never send, each shown as one line (empty: all good)."""
    records = list(records)
    flags = command_flags(client, {name for r in records for name in _full_names(r)})
    problems = []
    for record in records:
        name, args = record.name, record.args
        reason = ""
        if name in FORBIDDEN:
            reason = "forbidden command"
        elif name in ("lrange", "zrange") and args[2:4] == (b"0", b"-1"):
            reason = "reads the whole value"
        elif name == "memory" and args[1:2] and args[1].lower() == b"usage":
            options = [a.lower() for a in args[3:]]
            if any(options[i : i + 2] == [b"samples", b"0"] for i in range(len(options))):
                reason = "MEMORY USAGE SAMPLES 0 walks the whole value"
        else:
            found = next((flags[n] for n in _full_names(record) if n in flags), frozenset())
            if "write" in found:
                reason = "write command"
        if reason:
            problems.append(f"{reason}: {record.show()}")
    return problems


def commandstats(client: redis.Redis) -> dict[str, int]:
    """Calls per command (`config|get` on Redis ≥ 7) from INFO commandstats."""
    stats = client.info("commandstats")
    return {str(name).removeprefix("cmdstat_"): int(value["calls"]) for name, value in stats.items()}


def calls_between(before: Mapping[str, int], after: Mapping[str, int]) -> dict[str, int]:
    """Commands called between two `commandstats` snapshots, with how many calls."""
    return {name: n - before.get(name, 0) for name, n in after.items() if n > before.get(name, 0)}


def forbidden_in_stats(calls: Mapping[str, int], client: redis.Redis) -> list[str]:
    """Forbidden or write commands among commandstats deltas (catches admin commands MONITOR hides)."""
    flags = command_flags(client, calls)
    problems = []
    for name, count in sorted(calls.items()):
        base = name.split("|", 1)[0]
        if base in FORBIDDEN or "write" in flags.get(name, frozenset()):
            problems.append(f"{name} called {count} times")
    return problems
