"""Reading a cluster's topology from the replies of real nodes (captured byte for byte into tests/data/cluster/
by scripts/capture_cluster_replies.py, with what the test cluster really was in truth.json), and from replies
written by hand for what the test clusters cannot announce: hostnames as endpoints in NODES, IPv6 addresses,
nodes in handshake or without an address, slots given one by one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import hiredis
import pytest

from rediscipline.model.cluster import ClusterNode, Shard, Topology
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.cluster_topology import (
    NODES,
    SHARDS,
    SLOTS,
    is_cluster,
    mapped,
    merge_ranges,
    parse_address_map,
    parse_nodes,
    parse_shards,
    parse_slot_stats,
    parse_slots,
    topology_from_replies,
)
from tests.support.cluster_truth import expected_migrating, expected_shards

DATA = Path(__file__).resolve().parent.parent / "data" / "cluster"
CAPTURES = sorted(path for path in DATA.glob("*/*") if path.name != "refused" and (path / "truth.json").is_file())
KINDS = sorted(path.name for path in DATA.iterdir() if path.is_dir())


def resp(path: Path) -> Any:
    """The one reply a .resp file holds, parsed by hiredis as the wire parses it."""
    reader = hiredis.Reader()
    reader.feed(path.read_bytes())
    reply = reader.gets()
    assert reply is not False, f"{path}: an incomplete reply"
    assert reader.gets() is False, f"{path}: more than one reply"
    return reply


def truth_of(folder: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / "truth.json").read_text())
    return data


def refusal(kind: str, name: str) -> Any:
    return resp(DATA / kind / "refused" / f"{name}.resp")


def test_the_captures_are_there() -> None:
    assert {"redis70", "valkey91"} <= set(KINDS)
    for kind in KINDS:
        names = {path.name for path in (DATA / kind).iterdir()}
        assert {"steady", "replica", "migrating-source", "migrating-target", "failover", "killed-replica"} <= names


# ---- the captured replies, command by command ---------------------------------------------------------------------

# (command read, the commands refused before it, whether NODES answered too)
READINGS = [
    (SHARDS, (), True),
    (SHARDS, (), False),
    (SLOTS, (SHARDS,), True),
    (SLOTS, (SHARDS,), False),
    (NODES, (SHARDS, SLOTS), True),
]


@pytest.mark.parametrize(
    ("read_with", "refused", "nodes_read"), READINGS, ids=["shards+nodes", "shards", "slots+nodes", "slots", "nodes"]
)
@pytest.mark.parametrize("folder", CAPTURES, ids=lambda path: f"{path.parent.name}-{path.name}")
def test_captured_topology(folder: Path, read_with: str, refused: tuple[str, ...], nodes_read: bool) -> None:
    truth = truth_of(folder)
    names = {SHARDS: "shards", SLOTS: "slots", NODES: "nodes"}
    replies = {command: refusal(folder.parent.name, names[command]) for command in refused}
    replies[read_with] = resp(folder / f"{names[read_with]}.resp")
    if nodes_read:
        replies[NODES] = resp(folder / "nodes.resp")
    topology = topology_from_replies(replies)
    assert topology.read_with == read_with
    assert topology.shards == expected_shards(truth, read_with, nodes_read)
    assert topology.migrating == expected_migrating(truth, nodes_read)
    assert [command for command, _words in topology.refused] == list(refused)
    for command, words in topology.refused:
        assert words.startswith("NOPERM") and f"'cluster|{names[command]}'" in words, words


def test_steady_cluster_read_from_redis70_exactly() -> None:
    """One reading spelt out, so that a mistake shared by the parser and tests/support/cluster_truth.py shows."""
    folder = DATA / "redis70" / "steady"
    truth = truth_of(folder)
    topology = topology_from_replies({SHARDS: resp(folder / "shards.resp"), NODES: resp(folder / "nodes.resp")})
    assert topology.read_with == SHARDS and topology.refused == () and topology.migrating == ()
    assert [shard.slots for shard in topology.shards] == [((0, 5460),), ((5461, 10921),), ((10922, 16383),)]
    for shard, entry in zip(topology.shards, truth["shards"], strict=True):
        assert shard.master == ClusterNode(entry["master"]["id"], "127.0.0.1", entry["master"]["port"], "master")
        (replica,) = entry["replicas"]
        assert shard.replicas == (ClusterNode(replica["id"], "127.0.0.1", replica["port"], "replica"),)
        assert shard.shard_id == entry["master"]["id"]
    assert topology.uncovered == 0


def test_valkey_names_its_shards() -> None:
    folder = DATA / "valkey91" / "steady"
    truth = truth_of(folder)
    shards = parse_shards(resp(folder / "shards.resp"))
    assert [shard.shard_id for shard in shards] == [entry["shard_id"] for entry in truth["shards"]]
    assert all(len(shard.shard_id) == 40 and shard.shard_id != shard.master.node_id for shard in shards if shard.master)


def test_killed_replica_is_failed_in_shards_and_nodes_and_absent_from_slots() -> None:
    for kind in KINDS:
        folder = DATA / kind / "killed-replica"
        (dead,) = truth_of(folder)["killed"]
        by_shards = {
            node.node_id: node for shard in parse_shards(resp(folder / "shards.resp")) for node in shard.replicas
        }
        assert by_shards[dead].health == "failed", kind
        assert parse_nodes(resp(folder / "nodes.resp")).nodes[dead].health == "failed"
        assert dead not in {
            node.node_id for shard in parse_slots(resp(folder / "slots.resp")) for node in shard.replicas
        }


def test_migration_is_seen_from_both_ends() -> None:
    for kind in KINDS:
        for end in ("migrating-source", "migrating-target"):
            folder = DATA / kind / end
            ((slot, source, target),) = truth_of(folder)["migrating"]
            assert parse_nodes(resp(folder / "nodes.resp")).migrating == ((slot, source, target),)
        # Valkey's replicas announce their master's migration too (SETSLOT is replicated); Redis' do not
        folder = DATA / kind / "migrating-replica"
        announced = parse_nodes(resp(folder / "nodes.resp")).migrating
        assert announced == (((slot, source, target),) if kind == "valkey91" else ())
        assert announced == expected_migrating(truth_of(folder))
        # the slot still belongs to the source until CLUSTER SETSLOT NODE: the shards do not change
        migrated = parse_shards(resp(DATA / kind / "migrated" / "shards.resp"))
        assert [shard.slots for shard in migrated] == [
            ((0, 99), (101, 5460)),
            ((100, 100), (5461, 10921)),
            ((10922, 16383),),
        ]


def test_unknown_endpoint_falls_back_to_the_announced_ip() -> None:
    folder = DATA / "redis70" / "unknown-endpoint"
    shards = parse_shards(resp(folder / "shards.resp"))
    assert {node.host for shard in shards for node in (shard.master, *shard.replicas) if node} == {"127.0.0.1"}
    slots = parse_slots(resp(folder / "slots.resp"))
    assert {node.host for shard in slots for node in (shard.master, *shard.replicas) if node} == {"127.0.0.1"}


def test_tls_ports_are_read_from_shards() -> None:
    folder = DATA / "redis70" / "tls"
    truth = truth_of(folder)
    shards = parse_shards(resp(folder / "shards.resp"))
    assert [shard.master.tls_port for shard in shards if shard.master] == [
        entry["master"]["tls_port"] for entry in truth["shards"]
    ]
    node = shards[0].master
    assert node is not None and node.tls_port is not None
    assert mapped(node, {}, tls=True) == ("127.0.0.1", node.tls_port)
    assert mapped(node, {}) == ("127.0.0.1", node.port)


# ---- refusals -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_every_command_refused_is_one_line(kind: str) -> None:
    replies = {
        command: refusal(kind, name) for command, name in ((SHARDS, "shards"), (SLOTS, "slots"), (NODES, "nodes"))
    }
    with pytest.raises(SourceError) as caught:
        topology_from_replies(replies, "redis://127.0.0.1:7000")
    message = str(caught.value)
    assert "\n" not in message
    user = "this user" if kind == "redis70" else "User capture-refused"
    assert message == (
        "redis://127.0.0.1:7000 refused every command that describes its cluster: "
        f"CLUSTER SHARDS (NOPERM {user} has no permissions to run the 'cluster|shards' command); "
        f"CLUSTER SLOTS (NOPERM {user} has no permissions to run the 'cluster|slots' command); "
        f"CLUSTER NODES (NOPERM {user} has no permissions to run the 'cluster|nodes' command)"
    )


def test_nodes_refused_after_shards_is_recorded() -> None:
    folder = DATA / "valkey91" / "migrating-source"
    topology = topology_from_replies({SHARDS: resp(folder / "shards.resp"), NODES: refusal("valkey91", "nodes")})
    assert topology.read_with == SHARDS
    assert topology.migrating == ()  # unknown: NODES alone says it
    assert topology.refused == (
        (NODES, "NOPERM User capture-refused has no permissions to run the 'cluster|nodes' command"),
    )


def test_a_reply_of_the_wrong_shape_falls_back() -> None:
    folder = DATA / "redis70" / "steady"
    topology = topology_from_replies({SHARDS: [b"not", b"shards"], SLOTS: resp(folder / "slots.resp")})
    assert topology.read_with == SLOTS
    ((command, words),) = topology.refused
    assert command == SHARDS and words.startswith("unreadable reply: ")


def test_server_words_are_made_inert() -> None:
    error = hiredis.Reader()
    error.feed(b"-ERR renamed\x1b[31m by the provider\r\n")
    topology = topology_from_replies({SHARDS: error.gets(), NODES: resp(DATA / "redis70" / "steady" / "nodes.resp")})
    assert topology.refused == ((SHARDS, "ERR renamed\\x1b[31m by the provider"),)


# ---- slot statistics ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [kind for kind in KINDS if kind != "redis70"])
def test_slot_stats_reply(kind: str) -> None:
    folder = DATA / kind / "refused"
    stats = parse_slot_stats(resp(folder / "slot-stats.resp"))
    assert {slot: keys for slot, (keys, _cpu, _net) in stats.items()} == {
        int(slot): count for slot, count in truth_of(folder)["keys_in_slot"].items()
    }
    busy = stats[100]
    assert busy[1] is not None and busy[1] > 0  # cpu-usec, collected: cluster-slot-stats-enabled yes
    assert busy[2] is not None and busy[2] > 0  # network bytes in + out


def test_slot_stats_without_cpu_and_network() -> None:
    assert parse_slot_stats([[7, [b"key-count", 3]], [8, [b"key-count", 0]]]) == {
        7: (3, None, None),
        8: (0, None, None),
    }
    assert parse_slot_stats(
        [[7, [b"key-count", 3, b"cpu-usec", 11, b"network-bytes-in", 40, b"network-bytes-out", 2]]]
    ) == {7: (3, 11, 42)}


# ---- written by hand ----------------------------------------------------------------------------------------------

ID_A, ID_B, ID_C, ID_D, ID_E = (c * 40 for c in "abcde")


def test_nodes_with_hostnames_ipv6_single_slots_and_odd_nodes() -> None:
    text = (
        f"{ID_A} ::1:7000@17000,cache-a.internal myself,master - 0 0 1 connected 0-99 100 200-300 [101->-{ID_B}]\n"
        f"{ID_B} 10.0.0.2:7000@17000,cache-b.internal master - 0 1700000000000 2 connected 101-199 [102-<-{ID_C}]\n"
        f"{ID_C} 10.0.0.3:7000@17000 slave,fail? {ID_A} 0 1700000000000 1 connected\n"
        f"{ID_D} :0@0 master,fail,noaddr - 1700000000000 1700000000000 0 disconnected\n"
        f"{ID_E} 10.0.0.9:7000@17000 handshake - 0 0 0 connected\n"
        f"{'f' * 40} 10.0.0.4:7000@17000,,tls-port=7443,shard-id={'9' * 40} slave {ID_B} 0 0 2 connected\n"
    ).encode()
    view = parse_nodes(text)
    assert view.shards == (
        Shard(
            ID_A,
            ((0, 100), (200, 300)),
            ClusterNode(ID_A, "::1", 7000, "master"),
            (ClusterNode(ID_C, "10.0.0.3", 7000, "replica", "failed"),),
        ),
        Shard(
            ID_B,
            ((101, 199),),
            ClusterNode(ID_B, "10.0.0.2", 7000, "master"),
            (ClusterNode("f" * 40, "10.0.0.4", 7000, "replica", tls_port=7443),),
        ),
        Shard(ID_D, (), ClusterNode(ID_D, "", 0, "master", "failed")),
    )
    # only the answering node's own migrations are listed; B's importing entry is not on a `myself` line
    assert view.migrating == ((101, ID_A, ID_B),)
    assert ID_E not in view.nodes
    assert view.shards[0].master is not None and view.shards[0].master.address == "[::1]:7000"


def test_shards_with_hostnames_and_ipv6() -> None:
    def node(node_id: str, endpoint: bytes, ip: bytes, port: int, *, role: bytes, health: bytes) -> list[Any]:
        return [b"id", node_id.encode(), b"port", port, b"ip", ip, b"endpoint", endpoint, b"hostname", b"h",
                b"role", role, b"replication-offset", 10, b"health", health]  # fmt: skip

    reply = [
        [
            b"slots",
            [8192, 16383],
            b"nodes",
            [node(ID_B, b"cache-b.internal", b"10.0.0.2", 7000, role=b"master", health=b"online")],
        ],
        [
            b"slots",
            [0, 8191],
            b"nodes",
            [
                node(ID_C, b"fe80::3", b"fe80::3", 7001, role=b"replica", health=b"loading"),
                node(ID_A, b"fe80::1", b"fe80::1", 7000, role=b"master", health=b"online"),
            ],
        ],
    ]
    assert parse_shards(reply) == (
        Shard(ID_A, ((0, 8191),), ClusterNode(ID_A, "fe80::1", 7000, "master"),
              (ClusterNode(ID_C, "fe80::3", 7001, "replica", "loading"),)),
        Shard(ID_B, ((8192, 16383),), ClusterNode(ID_B, "cache-b.internal", 7000, "master")),
    )  # fmt: skip


def test_slots_with_hostnames_ipv6_and_old_servers() -> None:
    reply = [
        [0, 10, [b"cache-a.internal", 7000, ID_A.encode(), [b"ip", b"10.0.0.1"]], [b"::3", 7001, ID_C.encode()]],
        [11, 20, [b"10.0.0.2", 7000]],  # Redis 3: no node id
        [21, 30, [None, 7000, ID_A.encode(), [b"ip", b"10.0.0.1", b"hostname", b"cache-a.internal"]]],
    ]
    assert parse_slots(reply) == (
        Shard(ID_A, ((0, 10), (21, 30)), ClusterNode(ID_A, "cache-a.internal", 7000, "master"),
              (ClusterNode(ID_C, "::3", 7001, "replica"),)),
        Shard("10.0.0.2:7000", ((11, 20),), ClusterNode("10.0.0.2:7000", "10.0.0.2", 7000, "master")),
    )  # fmt: skip


def test_topology_counts_uncovered_slots() -> None:
    topology = Topology(parse_slots([[0, 99, [b"10.0.0.1", 7000, ID_A.encode()]]]), SLOTS)
    assert topology.uncovered == 16384 - 100


def test_merge_ranges() -> None:
    assert merge_ranges([(5, 9), (0, 4), (11, 11), (12, 20), (30, 30)]) == ((0, 9), (11, 20), (30, 30))


# ---- addresses and cluster mode ------------------------------------------------------------------------------------


def test_address_map() -> None:
    address_map = parse_address_map(
        ["10.0.0.1:7000=127.0.0.1:17000", "[FE80::0:1]:7000=[::1]:7001", "Cache-B:7000=b:1"]
    )
    assert address_map == {
        ("10.0.0.1", 7000): ("127.0.0.1", 17000),
        ("fe80::1", 7000): ("::1", 7001),
        ("cache-b", 7000): ("b", 1),
    }
    assert mapped(ClusterNode(ID_A, "fe80::1", 7000, "master"), address_map) == ("::1", 7001)
    assert mapped(ClusterNode(ID_A, "CACHE-B", 7000, "master"), address_map) == ("b", 1)
    assert mapped(ClusterNode(ID_A, "10.0.0.1", 7001, "master"), address_map) == ("10.0.0.1", 7001)
    assert mapped(ClusterNode(ID_A, "10.0.0.1", 6999, "master", tls_port=7000), address_map, tls=True) == (
        "127.0.0.1",
        17000,
    )


@pytest.mark.parametrize(
    ("entry", "shown"),
    [
        ("10.0.0.1:7000", "'10.0.0.1:7000'"),
        ("10.0.0.1=127.0.0.1:7000", "'10.0.0.1=127.0.0.1:7000'"),
        ("::1:7000=127.0.0.1:7000", "'::1:7000=127.0.0.1:7000'"),
        ("[nothex]:7000=127.0.0.1:7000", "'[nothex]:7000=127.0.0.1:7000'"),
        ("a:70000=b:1", "'a:70000=b:1'"),
        ("a:0=b:1", "'a:0=b:1'"),
        ("a:1=b:2=c:3", "'a:1=b:2=c:3'"),
        ("evil\x1b[2J:1=b:1", "'evil\\x1b[2J:1=b:1'"),
    ],
)
def test_malformed_address_map_entry(entry: str, shown: str) -> None:
    with pytest.raises(SourceError) as caught:
        parse_address_map(["10.0.0.9:1=10.0.0.9:2", entry])
    assert str(caught.value) == (
        f"--map {shown}: expected HOST:PORT=HOST:PORT, an IPv6 address in brackets ([::1]:7000)"
    )


def test_address_mapped_twice() -> None:
    with pytest.raises(SourceError) as caught:
        parse_address_map(["10.0.0.1:7000=a:1", "10.0.0.1:7000=b:1"])
    assert str(caught.value) == "--map '10.0.0.1:7000=b:1': '10.0.0.1:7000' is mapped twice"
    assert parse_address_map(["10.0.0.1:7000=a:1", "10.0.0.1:7000=a:1"]) == {("10.0.0.1", 7000): ("a", 1)}


def test_is_cluster() -> None:
    assert is_cluster({"cluster_enabled": "1"})
    assert not is_cluster({"cluster_enabled": "0", "redis_mode": "cluster"})
    assert is_cluster({"redis_mode": "cluster"})
    assert not is_cluster({"redis_mode": "standalone"})
    assert not is_cluster({})
