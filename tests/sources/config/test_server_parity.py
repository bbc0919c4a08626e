"""The reader agrees with Redis itself: each case file is given to a real Redis 7.0 server (Debian's
redis-server), which is then asked what the fact claims: CONFIG GET for the settings the rules read,
ACL LIST for each user's state and passwords, and ACL DRYRUN for what the default user may run."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from rediscipline.model.server import ServerFact
from rediscipline.redis_meta.commands import DANGEROUS_COMMANDS
from rediscipline.sources.config import read_redis_conf
from tests.sources.config.support import CASES
from tests.support.servers import binary_path

#: case → (how to log in: user and password, or None; the name CONFIG answers to)
CASES_TO_START = {
    "default-7.0.conf": (None, "config"),
    "no-limits.conf": (("default", "tr0ub4dor&3"), "config"),
    "well-configured.conf": (("ops", "password"), "config"),
    "hardened/redis.conf": (("default", "s3cret"), "c0nf1g-7f3a"),
    "with-aclfile.conf": (None, "config"),
}
SETTINGS = (
    "maxmemory",
    "maxmemory-policy",
    "lazyfree-lazy-eviction",
    "lazyfree-lazy-expire",
    "lazyfree-lazy-server-del",
    "lazyfree-lazy-user-del",
    "lazyfree-lazy-user-flush",
    "replica-lazy-flush",
    "hz",
    "dynamic-hz",
    "enable-debug-command",
)
DRYRUN_ARGS = {"keys": ("*",), "debug": ("sleep", "0"), "config": ("set", "maxmemory", "0")}


def _started(conf: Path, workdir: Path, login: tuple[str, str] | None) -> Iterator[redis.Redis]:
    binary = binary_path("redis70")
    if binary is None:
        pytest.skip("Redis 7.0 server not installed (apt-get install redis-server)")
    socket_path = workdir / "s.sock"
    command = [str(binary), conf.name, "--port", "0", "--unixsocket", str(socket_path), "--daemonize", "no"]
    command += ["--logfile", "", "--pidfile", str(workdir / "p.pid"), "--save", "", "--dir", "."]
    process = subprocess.Popen(command, cwd=conf.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        user, password = login if login else (None, None)
        client = redis.Redis(unix_socket_path=str(socket_path), username=user, password=password)
        deadline = time.monotonic() + 10
        while not socket_path.exists() or not _pings(client):
            if process.poll() is not None or time.monotonic() > deadline:
                output = process.stdout.read().decode(errors="replace") if process.stdout else ""
                pytest.fail(f"redis-server did not start on {conf.name}: {output[-600:]}")
            time.sleep(0.05)
        yield client
        client.close()
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _call(client: redis.Redis, *args: str) -> Any:
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


def _config_get(client: redis.Redis, command: str, name: str) -> str:
    reply = _call(client, command, "GET", name)  # redis-py makes a dict of `config`'s reply only
    value = reply[name.encode()] if isinstance(reply, dict) else reply[1]
    return value.decode() if isinstance(value, bytes) else str(value)


def _pings(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


def _users(lines: object) -> dict[str, tuple[str, bool, list[str]]]:
    """name → (on/off, nopass, password hashes) from ACL LIST lines."""
    found = {}
    assert isinstance(lines, (list, tuple))
    for line in lines:
        tokens = (line.decode() if isinstance(line, bytes) else line).split()
        found[tokens[1]] = (tokens[2], "nopass" in tokens, sorted(t for t in tokens if t.startswith("#")))
    return found


def _dryrun(client: redis.Redis, command: str) -> bool:
    try:
        return bool(_call(client, "ACL", "DRYRUN", "default", command, *DRYRUN_ARGS.get(command, ())) == b"OK")
    except redis.ResponseError as error:
        assert "not found" in str(error) or "unknown command" in str(error).lower(), error
        return False


@pytest.mark.parametrize("case", list(CASES_TO_START))
def test_fact_matches_the_server(case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    conf = CASES / case
    monkeypatch.chdir(conf.parent)  # the server starts there too
    fact: ServerFact = read_redis_conf(conf.name)
    login, config_command = CASES_TO_START[case]
    with tempfile.TemporaryDirectory(prefix="rediscipline-conf-") as temp:
        for client in _started(conf, Path(temp), login):
            for name in SETTINGS:
                assert fact.config is not None and fact.config[name] == _config_get(client, config_command, name)
            assert _users(fact.acl_users) == _users(_call(client, "ACL", "LIST"))
            default_on = _users(fact.acl_users)["default"][0] == "on"
            debug_enabled = fact.config is not None and fact.config["enable-debug-command"] != "no"
            for command in DANGEROUS_COMMANDS:
                # DRYRUN knows neither whether the user is on nor enable-debug-command: both are added here.
                allowed = _dryrun(client, command) and default_on and (command != "debug" or debug_enabled)
                assert fact.callable[command] is allowed, command
    assert not os.path.exists(conf.parent / "dump.rdb")
