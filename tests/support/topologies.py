"""Servers in roles other than a lone master, for the live scan's tests: a Sentinel, a cluster, a replica.

All are real `redis-server` processes (the Debian Redis 7.0 binary) on free loopback ports, registered with
`servers` so that they are stopped by their PID like every other test server, even after a crash.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from tests.support.servers import (
    _RUNNING,
    HOST,
    ServerProcess,
    ServerStartError,
    ServerUnavailable,
    _wait_ready,
    binary_path,
    free_port,
    start_server,
)

SLOTS = 16384


def start_sentinel(monitored: Sequence[tuple[str, str, int]], kind: str = "redis70") -> ServerProcess:
    """A Sentinel (`redis-server sentinel.conf --sentinel`) monitoring each (name, host, port)."""
    binary = binary_path(kind)
    if binary is None:
        raise ServerUnavailable(f"{kind}: server binary not installed")
    workdir = Path(tempfile.mkdtemp(prefix="rediscipline-sentinel-"))
    port = free_port()
    lines = [f"port {port}", f"bind {HOST}", f"dir {workdir}", "daemonize no", 'logfile ""']
    lines += [f"sentinel monitor {name} {host} {master_port} 2" for name, host, master_port in monitored]
    config = workdir / "sentinel.conf"
    config.write_text("\n".join(lines) + "\n")
    command = (str(binary), str(config), "--sentinel")
    with (workdir / "server.log").open("wb") as log:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
    server = ServerProcess(
        kind=kind, flavor="redis", version="", port=port, pid=process.pid, workdir=workdir, command=command,
        _process=process,
    )  # fmt: skip
    _RUNNING[process.pid] = server
    try:
        _wait_ready(server, process, 20.0)
    except BaseException:
        server.stop()
        raise
    return server


def start_cluster(masters: int = 3, kind: str = "redis70", timeout: float = 60.0) -> list[ServerProcess]:
    """`masters` cluster-enabled servers sharing the 16,384 slots, joined with CLUSTER MEET, in state ok."""
    nodes: list[ServerProcess] = []
    bus_ports: list[int] = []
    try:
        for _ in range(masters):
            # the bus port is set apart: the default (port + 10000) is out of range for high ephemeral ports
            bus_ports.append(free_port())
            args = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"]
            nodes.append(start_server(kind, [*args, "--cluster-port", str(bus_ports[-1])]))
        for index, node in enumerate(nodes):
            low, high = index * SLOTS // masters, (index + 1) * SLOTS // masters - 1
            with node.client() as client:
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", low, high)
        with nodes[0].client() as client:
            for node, bus_port in zip(nodes[1:], bus_ports[1:], strict=True):
                client.execute_command("CLUSTER", "MEET", HOST, node.port, bus_port)
        deadline = time.monotonic() + timeout
        while not all(_cluster_ready(node, masters) for node in nodes):
            if time.monotonic() > deadline:
                raise ServerStartError(f"the {masters}-node cluster did not reach state ok in {timeout:.0f} s")
            time.sleep(0.1)
    except BaseException:
        for node in nodes:
            node.stop()
        raise
    return nodes


def _cluster_ready(node: ServerProcess, masters: int) -> bool:
    with node.client() as client:
        info = client.execute_command("CLUSTER", "INFO")
    text = info.decode() if isinstance(info, bytes) else str(info)
    fields = dict(line.split(":", 1) for line in text.split() if ":" in line)
    return fields.get("cluster_state") == "ok" and fields.get("cluster_size") == str(masters)


def slot_owner_key(nodes: Sequence[ServerProcess], node: ServerProcess, prefix: bytes) -> list[bytes]:
    """Key names under `prefix` that hash to `node`'s slots (CLUSTER KEYSLOT), one per tried suffix."""
    index = nodes.index(node)
    low, high = index * SLOTS // len(nodes), (index + 1) * SLOTS // len(nodes) - 1
    found = []
    with node.client() as client:
        for suffix in range(200):
            name = prefix + b"%d" % suffix
            if low <= int(client.execute_command("CLUSTER", "KEYSLOT", name)) <= high:
                found.append(name)
    return found
