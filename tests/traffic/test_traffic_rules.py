"""The traffic rules on what `rediscipline traffic` reads from real servers: connections that never read their
replies, their output buffers growing at the server, judged with the limits CONFIG GET gave.

The rules themselves are pinned on views written by hand (tests/rules/cases/PUB003.toml, PUB004.toml); these
tests pin that a real server's CLIENT LIST and `client-output-buffer-limit` reach them as the cases assume.
Each slow client is a raw socket with a small receive buffer that sends its commands and never reads, so its
replies pile up in the server's output buffer for it (what the kernel buffers hold is not counted in `omem`).
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
import redis

from rediscipline.api.defaults import settings_for
from rediscipline.api.traffic import TrafficOptions, observe_traffic
from rediscipline.model.finding import Finding
from rediscipline.model.report import Report
from rediscipline.model.traffic import ClientInfo
from rediscipline.settings.loader import Overrides
from tests.support.kinds import running
from tests.support.servers import KINDS, ServerProcess

MB = 1024**2
#: What the slow clients are sent: far more than the kernel's socket buffers on both ends can hold.
PILED = 32 * MB
#: The size of each message: below the size from which Valkey 9 keeps a string reply by reference (measured:
#: 8 KB copied, 16 KB not), which `omem` does not count.
CHUNK = 8 * 1024
BY_REFERENCE = 64 * 1024


@pytest.fixture(params=KINDS)
def server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    with running(request.param) as started:
        yield started


def resp(*args: str | bytes) -> bytes:
    """One command in RESP."""
    parts = [arg.encode() if isinstance(arg, str) else arg for arg in args]
    return f"*{len(parts)}\r\n".encode() + b"".join(b"$%d\r\n%s\r\n" % (len(part), part) for part in parts)


class SlowClient:
    """A connection that sends `commands` and never reads a reply."""

    def __init__(self, server: ServerProcess, *commands: bytes) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting: a small window
        self.sock.connect(("127.0.0.1", server.port))
        self.sock.sendall(b"".join(commands))

    def close(self) -> None:
        self.sock.close()


def publish(server: ServerProcess, channel: str, size: int) -> None:
    """PILED bytes of messages of `size` bytes each, published to `channel` in pipelines."""
    admin = redis.Redis(port=server.port)
    payload = b"x" * size
    for _ in range(PILED // size // 256):
        pipe = admin.pipeline(transaction=False)
        for _ in range(256):
            pipe.publish(channel, payload)
        pipe.execute()


def settled(server: ServerProcess, name: str) -> None:
    """Wait until the server has run every command the client `name` sent (its last one is the one shown)."""
    probe = redis.Redis(port=server.port)
    for _ in range(200):
        listed = [c for c in probe.client_list() if c.get("name") == name]
        if listed and int(listed[0]["omem"]) > 0:
            return
        probe.ping()
    raise AssertionError(f"{name} never showed an output buffer")


def observe(server: ServerProcess, rules: dict[str, dict[str, int]] | None = None) -> Report:
    overrides = Overrides(isolated=True, extra={"rules": rules} if rules else {})
    return observe_traffic(TrafficOptions(url=server.url, duration=0.5), settings_for(overrides))


def client_named(report: Report, name: str) -> ClientInfo:
    [view] = report.stats.traffic
    [client] = [client for client in view.clients if client.name == name]
    return client


def findings_of(report: Report, rule_id: str) -> list[Finding]:
    return [finding for finding in report.findings if finding.rule_id == rule_id]


def test_a_subscriber_that_does_not_read_is_reported_for_its_channels_and_its_buffer(server: ServerProcess) -> None:
    admin = redis.Redis(port=server.port)
    admin.config_set("client-output-buffer-limit", "pubsub 0 4mb 3600")  # no hard limit: it is never cut off
    channels = [f"room:{n}" for n in range(51)]
    subscriber = SlowClient(server, resp("CLIENT", "SETNAME", "slow-reader"), resp("SUBSCRIBE", *channels))
    try:
        for _ in range(200):
            if admin.pubsub_numsub("room:0") == [(b"room:0", 1)]:
                break
        publish(server, "room:0", CHUNK)
        settled(server, "slow-reader")
        report = observe(server)
    finally:
        subscriber.close()
    client = client_named(report, "slow-reader")
    assert (client.sub, client.output_class) == (51, "pubsub")
    assert client.omem > 2 * MB  # past half of the 4 MB soft limit: the rest of the 32 MB is not in the kernel
    subject = f"client {client.addr} (slow-reader)"
    [channels_finding] = findings_of(report, "PUB003")
    assert (channels_finding.code, channels_finding.subject, channels_finding.worst) == ("channels", subject, 51)
    assert channels_finding.message.en.startswith(f"{subject} is subscribed to 51 channels, more than 50:")
    [buffer_finding] = findings_of(report, "PUB004")
    assert (buffer_finding.code, buffer_finding.subject, buffer_finding.worst) == ("pubsub", subject, client.omem)
    limit = "of the soft limit of client-output-buffer-limit pubsub (soft 4.0 MB for 3600 s)"
    assert limit in buffer_finding.message.en


def test_a_monitor_that_does_not_read_is_reported_in_the_unlimited_normal_class(server: ServerProcess) -> None:
    monitor = SlowClient(server, resp("CLIENT", "SETNAME", "watcher"), resp("MONITOR"))
    admin = redis.Redis(port=server.port)
    try:
        for _ in range(200):
            if any(c.get("name") == "watcher" and c["cmd"] == "monitor" for c in admin.client_list()):
                break
        pipe = admin.pipeline(transaction=False)
        for _ in range(PILED // CHUNK):
            pipe.set("blob", b"x" * CHUNK)
        pipe.execute()
        settled(server, "watcher")
        report = observe(server, {"output-buffer-near-limit": {"max-unlimited-bytes": MB}})
    finally:
        monitor.close()
    client = client_named(report, "watcher")
    assert ("O" in client.flags, client.output_class) == (True, "normal")
    [finding] = findings_of(report, "PUB004")
    subject = f"client {client.addr} (watcher)"
    assert (finding.code, finding.subject, finding.worst) == ("unlimited", subject, client.omem)
    assert finding.message.en.startswith(f"MONITOR client {client.addr} (watcher) holds ")
    assert "more than 1.0 MB, and client-output-buffer-limit normal sets no limit (0 0 0)" in finding.message.en
    assert findings_of(report, "PUB003") == []


@pytest.mark.parametrize("server", ["valkey91"], indirect=True)
def test_valkey_keeps_big_messages_out_of_omem_and_of_the_limit(server: ServerProcess) -> None:
    """What PUB004 cannot see, as its documentation says: Valkey 9 queues a big string reply by reference, and
    neither `omem` nor `client-output-buffer-limit` counts it. A subscriber holding 32 MB of 64 KB messages
    shows less than 1 MB and is never disconnected by a 4 MB hard limit (Redis cuts it off)."""
    admin = redis.Redis(port=server.port)
    admin.config_set("client-output-buffer-limit", "pubsub 4mb 0 0")
    subscriber = SlowClient(server, resp("CLIENT", "SETNAME", "big-reader"), resp("SUBSCRIBE", "blobs"))
    try:
        for _ in range(200):
            if admin.pubsub_numsub("blobs") == [(b"blobs", 1)]:
                break
        publish(server, "blobs", BY_REFERENCE)
        settled(server, "big-reader")
        report = observe(server)
    finally:
        subscriber.close()
    assert client_named(report, "big-reader").omem < MB
    assert int(admin.info("stats")["client_output_buffer_limit_disconnections"]) == 0
    assert findings_of(report, "PUB004") == []
