"""Shared plumbing of the library keyspace generators: a throwaway server, reading a keyspace, the corpus file.

The generators run real libraries against a real `redis-server` and write what those libraries left behind as a
labelled corpus (one key a line, see FORMAT below). This module knows nothing about any library: it starts and
stops the server, reads every key with its type and TTL, labels keys with a table of family regexes (a key with
no family or with two is an error, never a guess) and writes the TSV.

Corpus format: `#` comment lines first (generator, server, libraries and options), then one line per key:
`library<TAB>family<TAB>type<TAB>ttl<TAB>key`, ttl is PTTL in ms or -1, and the key is escaped by `escape_key`.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import redis  # imported where used: the generator itself starts under an interpreter without redis-py

REDIS_SERVER = Path("/usr/bin/redis-server")
HOST = "127.0.0.1"
START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class Server:
    """A running redis-server: stop it with `stop_server` (by its PID)."""

    pid: int
    port: int
    workdir: Path
    process: subprocess.Popen[bytes]

    def url(self, db: int = 0) -> str:
        return f"redis://{HOST}:{self.port}/{db}"

    def client(self, db: int = 0) -> redis.Redis:
        import redis

        return redis.Redis(host=HOST, port=self.port, db=db)


@dataclass(frozen=True)
class KeyRow:
    """One key as read from the server."""

    key: bytes
    type: str
    ttl_ms: int


@dataclass(frozen=True)
class Family:
    """A family of keys: its name and the regex (fullmatch, on the key bytes) that recognises its keys."""

    name: str
    pattern: re.Pattern[bytes]


def family(name: str, regex: str) -> Family:
    """A family from a regex written as text (compiled as a bytes pattern, matched against the whole key)."""
    return Family(name, re.compile(regex.encode("utf-8"), re.DOTALL))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def start_server(binary: Path = REDIS_SERVER) -> Server:
    """Start `binary` on a free loopback port with persistence off and wait until it answers PING."""
    import redis

    if not binary.exists():
        raise SystemExit(f"{binary} not found (apt-get install -y redis-server)")
    workdir = Path(tempfile.mkdtemp(prefix="libkeys-redis-"))
    port = _free_port()
    args = [str(binary), "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"]
    args += ["--dir", str(workdir), "--daemonize", "no", "--logfile", str(workdir / "redis.log")]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = Server(process.pid, port, workdir, process)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        try:
            if server.client().ping():
                return server
        except redis.ConnectionError:
            time.sleep(0.05)
    log = (workdir / "redis.log").read_text(errors="replace") if (workdir / "redis.log").exists() else ""
    stop_server(server)
    raise SystemExit(f"redis-server did not start on port {port}:\n{log}")


def stop_server(server: Server) -> None:
    """Stop the server by its PID (SIGTERM, SIGKILL after a timeout) and remove its working directory."""
    if server.process.poll() is None:
        os.kill(server.pid, signal.SIGTERM)
        try:
            server.process.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.kill(server.pid, signal.SIGKILL)
            server.process.wait()
    shutil.rmtree(server.workdir, ignore_errors=True)


def server_version(client: redis.Redis) -> str:
    info = client.info("server")
    return f"redis {info['redis_version']}"


def read_keys(client: redis.Redis) -> list[KeyRow]:
    """Every key of the client's database with its TYPE and PTTL, sorted by key bytes."""
    keys = sorted(set(client.scan_iter(count=1000)))
    rows: list[KeyRow] = []
    for start in range(0, len(keys), 500):
        chunk = keys[start : start + 500]
        pipe = client.pipeline(transaction=False)
        for key in chunk:
            pipe.type(key)
            pipe.pttl(key)
        replies = pipe.execute()
        for index, key in enumerate(chunk):
            kind, ttl = replies[2 * index], replies[2 * index + 1]
            kind = kind.decode("ascii") if isinstance(kind, bytes) else str(kind)
            rows.append(KeyRow(key, kind, -1 if ttl < 0 else int(ttl)))
    return rows


def escape_key(key: bytes) -> str:
    """Bytes 0x21-0x7e as themselves except `\\` (doubled); every other byte as `\\xHH`."""
    out: list[str] = []
    for byte in key:
        if byte == 0x5C:
            out.append("\\\\")
        elif 0x21 <= byte <= 0x7E:
            out.append(chr(byte))
        else:
            out.append(f"\\x{byte:02x}")
    return "".join(out)


def label(keys: Iterable[bytes], families: Sequence[Family]) -> list[str]:
    """The family of each key; raises ValueError naming every key with no family or with several."""
    names: list[str] = []
    problems: list[str] = []
    for key in keys:
        hits = [fam.name for fam in families if fam.pattern.fullmatch(key)]
        if len(hits) != 1:
            problems.append(f"{escape_key(key)}: {'no family' if not hits else 'families ' + ', '.join(hits)}")
        names.append(hits[0] if hits else "")
    if problems:
        shown = "\n  ".join(problems[:40])
        more = f"\n  ... and {len(problems) - 40} more" if len(problems) > 40 else ""
        raise ValueError(f"{len(problems)} keys not labelled with exactly one family:\n  {shown}{more}")
    return names


def write_corpus(path: Path, header_lines: Sequence[str], rows: Iterable[tuple[str, str, str, int, bytes]]) -> int:
    """Write the TSV: `# ` + each header line, then `library, family, type, ttl, escaped key` rows. Returns rows."""
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for line in header_lines:
            out.write(f"# {line}\n")
        for library, fam, kind, ttl, key in rows:
            for field in (library, fam, kind):
                if "\t" in field or "\n" in field:
                    raise ValueError(f"tab or newline in corpus field {field!r}")
            out.write(f"{library}\t{fam}\t{kind}\t{ttl}\t{escape_key(key)}\n")
            count += 1
    return count
