"""Servers in roles other than a lone master, for the live scan's tests: a Sentinel, a cluster with replicas.

All are real server processes (a Sentinel of Debian Redis 7.0; clusters of any kind from `servers` with
`--cluster-port`, Redis 7.0+ and Valkey) on free loopback ports, registered with `servers` so that they are
stopped by their PID like every other test server, even after a crash. A cluster is a `Cluster`: its nodes,
which shard each serves and in which role, and the changes a test makes to it (kill a node, fail over, move
a slot), each waiting until every live node agrees.
"""

from __future__ import annotations

import functools
import itertools
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import overload

import redis

from rediscipline.redis_meta.keyslot import hash_slot
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


# ---- clusters --------------------------------------------------------------------------------------------------------


class ClusterNotReady(ServerStartError):
    """The cluster's nodes did not reach the state a fixture step waits for (agreement, a failure noticed)."""


@dataclass
class ClusterShard:
    """One shard as the fixture made it and as it stands after the fixture's own failovers and migrations:
    the ground truth the tests compare a topology read against (never read back from the servers)."""

    master: ServerProcess
    replicas: list[ServerProcess]
    slots: list[tuple[int, int]]  # sorted, inclusive, adjacent ranges merged


class Cluster(Sequence[ServerProcess]):
    """A running cluster: a sequence of all its nodes in the order they were started (the first masters, one
    per shard, then the replicas of shard 0, 1, ...), with `shards` saying who serves what now.

    Every change goes through the fixture (`failover`, `migrate_slot`, `kill`) so `shards` stays true; each
    returns once every live node agrees. `stop()` (or the `with` block) stops every node by its PID.
    """

    def __init__(self, kind: str, nodes: list[ServerProcess], bus_ports: dict[int, int], replicas: int) -> None:
        self.kind = kind
        self.nodes = nodes
        self.bus_ports = bus_ports  # client port -> cluster bus port
        self.node_ids: dict[int, str] = {}  # client port -> node id
        masters = len(nodes) // (1 + replicas)
        self.shards = [
            ClusterShard(
                master=nodes[index],
                replicas=[nodes[masters + index * replicas + r] for r in range(replicas)],
                slots=[(index * SLOTS // masters, (index + 1) * SLOTS // masters - 1)],
            )
            for index in range(masters)
        ]
        self.killed: list[ServerProcess] = []
        self.killed_as: dict[int, str] = {}  # client port of a killed node -> its role when it was killed

    # -- the sequence and what each node is

    @overload
    def __getitem__(self, index: int) -> ServerProcess: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[ServerProcess]: ...
    def __getitem__(self, index: int | slice) -> ServerProcess | Sequence[ServerProcess]:
        return self.nodes[index]

    def __len__(self) -> int:
        return len(self.nodes)

    @property
    def masters(self) -> list[ServerProcess]:
        return [shard.master for shard in self.shards]

    @property
    def replicas(self) -> list[ServerProcess]:
        return [node for shard in self.shards for node in shard.replicas]

    @property
    def live(self) -> list[ServerProcess]:
        return [node for node in self.nodes if node not in self.killed]

    @property
    def flavor(self) -> str:
        return self.nodes[0].flavor

    def node_id(self, node: ServerProcess) -> str:
        return self.node_ids[node.port]

    def my_shard_id(self, node: ServerProcess) -> str | None:
        """`CLUSTER MYSHARDID` (Valkey 8+, Redis 7.2+); None where the server has no shard ids."""
        with node.client() as client:
            try:
                return str(client.execute_command("CLUSTER", "MYSHARDID").decode())
            except redis.ResponseError:
                return None

    def shard_of(self, node: ServerProcess) -> ClusterShard:
        return next(shard for shard in self.shards if node is shard.master or node in shard.replicas)

    def shard_serving(self, slot: int) -> ClusterShard:
        return next(shard for shard in self.shards if any(lo <= slot <= hi for lo, hi in shard.slots))

    def slot_of(self, key: bytes) -> int:
        """The hash slot of `key` (CLUSTER KEYSLOT on a live node)."""
        with self.live[0].client() as client:
            return int(client.execute_command("CLUSTER", "KEYSLOT", key))

    def master_for(self, key: bytes) -> ServerProcess:
        """The master serving `key`'s slot, to write the key there."""
        return self.shard_serving(self.slot_of(key)).master

    def role(self, node: ServerProcess) -> str:
        """`master` or `replica`, as the fixture arranged it."""
        return "master" if node is self.shard_of(node).master else "replica"

    # -- changes

    def kill(self, node: ServerProcess, timeout: float = 60.0) -> None:
        """SIGKILL one node by its PID and return once every live node flags it `fail`."""
        self.killed_as[node.port] = self.role(node)
        node.kill()
        self.killed.append(node)
        node_id = self.node_id(node)
        self._until(lambda: all("fail" in _nodes_view(peer)[node_id][0] for peer in self.live), timeout, "fail")

    def failover(self, replica: ServerProcess, option: str | None = None, timeout: float = 60.0) -> None:
        """`CLUSTER FAILOVER [FORCE|TAKEOVER]` on `replica` (without an option a manual, coordinated failover:
        the master must be alive); returns once it is the master of its shard, the old master its replica with
        its link up (unless killed), and every live node agrees."""
        shard = self.shard_of(replica)
        if replica is shard.master:
            raise ValueError(f"{replica.port} is already the master of its shard")
        with replica.client() as client:
            client.execute_command("CLUSTER", "FAILOVER", *([option] if option else []))
        shard.replicas = [shard.master, *(node for node in shard.replicas if node is not replica)]
        shard.master = replica
        self.wait_agreement(timeout)

    def begin_migration(self, slot: int, target: ClusterShard) -> None:
        """`CLUSTER SETSLOT slot IMPORTING` on the target master and `MIGRATING` on the slot's master: the
        state of a migration in progress, keys not moved yet."""
        source = self.shard_serving(slot)
        if source is target:
            raise ValueError(f"slot {slot} is already served by that shard")
        with target.master.client() as client:
            client.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", self.node_id(source.master))
        with source.master.client() as client:
            client.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", self.node_id(target.master))

    def finish_migration(self, slot: int, target: ClusterShard, timeout: float = 60.0) -> None:
        """MIGRATE the slot's keys to the target master, then `CLUSTER SETSLOT slot NODE` on both masters and
        the others; returns once every live node agrees."""
        source = self.shard_serving(slot)
        with source.master.client() as client:
            while keys := client.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100):
                client.execute_command("MIGRATE", HOST, target.master.port, "", 0, 10_000, "KEYS", *keys)
        target_id = self.node_id(target.master)
        for master in [target.master, source.master, *(s.master for s in self.shards if s not in (source, target))]:
            if master not in self.killed:
                with master.client() as client:
                    client.execute_command("CLUSTER", "SETSLOT", slot, "NODE", target_id)
        source.slots = _without(source.slots, slot)
        target.slots = _merged([*target.slots, (slot, slot)])
        self.wait_agreement(timeout)

    def migrate_slot(self, slot: int, target: ClusterShard, timeout: float = 60.0) -> None:
        """Move one slot and its keys to `target`, as `redis-cli --cluster reshard` does."""
        self.begin_migration(slot, target)
        self.finish_migration(slot, target, timeout)

    # -- waiting

    def wait_agreement(self, timeout: float = 60.0) -> None:
        """Until every live node reads the fixture's `shards` in CLUSTER NODES (no node failing but the
        killed ones), each live replica has `master_link_status:up` and the cluster state is ok."""
        self._until(self._agreed, timeout, "agree on the topology")

    def wait_hostnames(self, hostnames: dict[str, str], timeout: float = 60.0) -> None:
        """Until every live node lists each live node with its announced hostname (node id -> hostname)."""

        def announced() -> bool:
            expected = {self.node_id(node): hostnames[self.node_id(node)] for node in self.live}
            return all(_hostnames(peer).items() >= expected.items() for peer in self.live)

        self._until(announced, timeout, "announce the hostnames")

    def _agreed(self) -> bool:
        expected: dict[str, tuple[str, str, tuple[tuple[int, int], ...]]] = {}
        for shard in self.shards:
            master_id = self.node_id(shard.master)
            expected[master_id] = ("master", "-", tuple(shard.slots))
            for node in shard.replicas:
                expected[self.node_id(node)] = ("slave", master_id, ())
        for node in self.live:
            view = _nodes_view(node)
            if set(view) != set(expected):
                return False
            for node_id, (flags, master, slots) in view.items():
                if node_id in self._dead_ids:  # a killed node: flagged failed, whatever role it had
                    if "fail" not in flags:
                        return False
                    continue
                role = "master" if "master" in flags else "slave"
                if (role, master, slots) != expected[node_id] or flags & {"fail", "fail?"}:
                    return False
            health = _health(node)  # Redis 7.0 says `fail`, later servers `failed`
            dead = {"fail", "failed"}
            if any((health.get(node_id) in dead) != (node_id in self._dead_ids) for node_id in view):
                return False
            if any(health.get(node_id) == "loading" for node_id in view):
                return False
            info = _fields(node, "CLUSTER", "INFO") | _fields(node, "INFO", "replication")
            master_alive = node in self.replicas and self.shard_of(node).master not in self.killed
            if master_alive and info.get("master_link_status") != "up":
                return False
            if info.get("cluster_state", "ok") != "ok" and not self.killed:
                return False
        return True

    @property
    def _dead_ids(self) -> set[str]:
        return {self.node_id(node) for node in self.killed}

    def _until(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise ClusterNotReady(f"the cluster did not {what} in {timeout:.0f} s")
            time.sleep(0.05)

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def start_cluster(
    masters: int = 3,
    replicas: int = 0,
    kind: str = "redis70",
    *,
    node_timeout_ms: int = 2000,
    extra_args: Sequence[str] = (),
    tls: bool = False,
    timeout: float = 60.0,
) -> Cluster:
    """`masters` shards sharing the 16,384 slots in equal ranges, each master with `replicas` replicas, joined
    with CLUSTER MEET; returns once every node agrees on the topology and every replica is in sync.

    Nodes announce 127.0.0.1 and a cluster bus port set apart (`--cluster-port`: the default, port + 10000,
    is out of range for high ephemeral ports). A replica never fails over by itself
    (`cluster-replica-no-failover`: a slow machine must not change the topology under a test); `failover`
    forces it. `cluster-node-timeout` is short so a killed node is flagged `fail` in seconds. `tls` also
    opens a TLS client port on every node, announced as `tls-port` (the bus and replication use TLS too);
    `extra_args` go to every node (`--cluster-announce-hostname` is per node: set it with CONFIG SET).
    """
    nodes: list[ServerProcess] = []
    bus_ports: dict[int, int] = {}
    try:
        for _ in range(masters * (1 + replicas)):
            node, bus_ports_of = _start_node(kind, node_timeout_ms, extra_args, tls)
            nodes.append(node)
            bus_ports[node.port] = bus_ports_of
        cluster = Cluster(kind, nodes, bus_ports, replicas)
        for node in nodes:
            with node.client() as client:
                cluster.node_ids[node.port] = client.execute_command("CLUSTER", "MYID").decode()
        for shard in cluster.shards:
            with shard.master.client() as client:
                client.execute_command("CLUSTER", "ADDSLOTSRANGE", *shard.slots[0])
        with nodes[0].client() as client:
            for node in nodes[1:]:
                client.execute_command("CLUSTER", "MEET", HOST, node.port, bus_ports[node.port])
        cluster._until(lambda: all(len(_nodes_view(node)) == len(nodes) for node in nodes), timeout, "meet")
        for shard in cluster.shards:
            for node in shard.replicas:
                with node.client() as client:
                    client.execute_command("CLUSTER", "REPLICATE", cluster.node_id(shard.master))
        cluster.wait_agreement(timeout)
    except BaseException:
        for node in nodes:
            node.stop()
        raise
    return cluster


def _start_node(kind: str, node_timeout_ms: int, extra_args: Sequence[str], tls: bool) -> tuple[ServerProcess, int]:
    last: ServerStartError | None = None
    for _ in range(3):  # the bus port can be taken between free_port() and the bind
        bus_port = free_port()
        args = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-port", str(bus_port)]
        args += ["--cluster-announce-ip", HOST, "--cluster-node-timeout", str(node_timeout_ms)]
        args += ["--cluster-replica-no-failover", "yes", "--repl-diskless-sync-delay", "0"]
        args += ["--repl-ping-replica-period", "1", *extra_args]
        try:
            if tls:  # the TLS ports are announced only when the bus and replication use TLS too
                args += ["--tls-cluster", "yes", "--tls-replication", "yes"]
            return start_server(kind, args, tls=tls), bus_port
        except ServerStartError as error:
            last = error
    assert last is not None
    raise last


def _nodes_view(node: ServerProcess) -> dict[str, tuple[set[str], str, tuple[tuple[int, int], ...]]]:
    """CLUSTER NODES of `node` without the nodes in handshake: id -> (flags, master id, slot ranges)."""
    with node.client() as client:
        text = client.execute_command("CLUSTER", "NODES").decode()
    view = {}
    for line in text.splitlines():
        fields = line.split()
        flags = set(fields[2].split(","))
        if "handshake" in flags:
            continue
        ranges = []
        for token in fields[8:]:
            if not token.startswith("["):
                low, _sep, high = token.partition("-")
                ranges.append((int(low), int(high or low)))
        view[fields[0]] = (flags, fields[3], tuple(_merged(ranges)))
    return view


def _hostnames(node: ServerProcess) -> dict[str, str]:
    """Node id -> the hostname CLUSTER NODES of `node` shows after the bus port (`ip:port@bus,hostname`)."""
    with node.client() as client:
        text = client.execute_command("CLUSTER", "NODES").decode()
    names = {}
    for line in text.splitlines():
        fields = line.split()
        extras = fields[1].partition("@")[2].split(",")
        names[fields[0]] = extras[1] if len(extras) > 1 else ""
    return names


def _health(node: ServerProcess) -> dict[str, str]:
    """Each node's health as CLUSTER SHARDS gives it (a replica whose replication offset has not reached
    this node yet reads `loading`)."""
    with node.client() as client:
        shards = client.execute_command("CLUSTER", "SHARDS")
    return {entry[b"id"].decode(): entry[b"health"].decode() for shard in shards for entry in shard[b"nodes"]}


def _fields(node: ServerProcess, *command: str) -> dict[str, str]:
    """The `name:value` lines of INFO or CLUSTER INFO (redis-py parses some replies into a dict already)."""
    with node.client() as client:
        reply = client.execute_command(*command)
    if isinstance(reply, dict):
        return {str(name): str(value) for name, value in reply.items()}
    text = reply.decode() if isinstance(reply, bytes) else str(reply)
    return dict(line.strip().split(":", 1) for line in text.splitlines() if ":" in line)


def _merged(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for low, high in sorted(ranges):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(high, merged[-1][1]))
        else:
            merged.append((low, high))
    return merged


def _without(ranges: Sequence[tuple[int, int]], slot: int) -> list[tuple[int, int]]:
    kept: list[tuple[int, int]] = []
    for low, high in ranges:
        kept += [(a, b) for a, b in ((low, min(high, slot - 1)), (max(low, slot + 1), high)) if a <= b]
    return kept


def hashtag_for(slot: int) -> bytes:
    """A hashtag (`{t}`) whose keys all hash to `slot`: `b"{t}" + anything` lands there (the smallest number
    that does, from a table of every slot built once)."""
    return _hashtags()[slot]


@functools.cache
def _hashtags() -> tuple[bytes, ...]:
    """The smallest decimal tag of each slot: one pass over the numbers until every slot has one (about 170,000
    numbers: searching slot by slot instead costs a test module minutes)."""
    found: dict[int, bytes] = {}
    for number in itertools.count():
        tag = b"%d" % number
        found.setdefault(hash_slot(tag), b"{" + tag + b"}")
        if len(found) == SLOTS:
            return tuple(found[slot] for slot in range(SLOTS))
    raise AssertionError("unreachable")


def slot_owner_key(nodes: Sequence[ServerProcess], node: ServerProcess, prefix: bytes) -> list[bytes]:
    """Key names under `prefix` that hash to the slots `node` serves (CLUSTER KEYSLOT), one per tried suffix."""
    if isinstance(nodes, Cluster):
        ranges = nodes.shard_of(node).slots
    else:
        index = nodes.index(node)
        ranges = [(index * SLOTS // len(nodes), (index + 1) * SLOTS // len(nodes) - 1)]
    found = []
    with node.client() as client:
        for suffix in range(200):
            name = prefix + b"%d" % suffix
            slot = int(client.execute_command("CLUSTER", "KEYSLOT", name))
            if any(low <= slot <= high for low, high in ranges):
                found.append(name)
    return found
