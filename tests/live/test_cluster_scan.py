"""A whole cluster scanned from one address: real 3-master/3-replica clusters of Redis 7.0 and Valkey 9.1,
loaded with a skewed shard, a dominant hashtag and big keys on known shards.

The report must name each with the right shard, agree with the union of the nodes scanned one by one, read
replicas when asked, and finish (with notes naming the shard) when a node dies or fails over meanwhile.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from redis.crc import key_slot

from rediscipline.api.executors import InlineExecutor
from rediscipline.api.live import ClusterOptions, LiveScanOptions, scan_live
from rediscipline.api.parts import PartTask, run_part
from rediscipline.model.report import Report
from rediscipline.render.json_output import report_to_dict
from rediscipline.sources.errors import SourceError
from tests.live.conftest import run_scan
from tests.render.html.page_parts import render
from tests.support.kinds import require_kind
from tests.support.servers import ServerProcess
from tests.support.topologies import Cluster, hashtag_for, start_cluster

T = TypeVar("T")
R = TypeVar("R")

#: Extra keys on shard 2, spread over 1,500 of its slots (no tag dominates): that shard holds about twice the mean.
SKEW_KEYS = 9_000
#: Keys on one hashtag of shard 1.
TAG_KEYS = 3_000
BIG_STRING = 100_000
BIG_HASH = 6_000


@dataclass
class Loaded:
    cluster: Cluster
    tag: bytes  # the dominant hashtag, on shard 1
    big_string: bytes  # on shard 0
    big_hash: bytes  # on shard 1

    def address(self, shard: int) -> str:
        return f"127.0.0.1:{self.cluster.shards[shard].master.port}"


def _tag_in(cluster: Cluster, shard: int, offset: int) -> bytes:
    """A hashtag (with its braces) whose slot shard `shard` serves."""
    first, _last = cluster.shards[shard].slots[0]
    return hashtag_for(first + offset)


def _load(cluster: Cluster) -> Loaded:
    """Every TTL sits well inside one bucket of the TTL histogram (1 min–1 h, 1–24 h, 1–7 d), so scans a few
    minutes apart count the same keys in each."""
    pipes = {shard.master.port: shard.master.client().pipeline(transaction=False) for shard in cluster.shards}

    def pipe_for(key: bytes) -> Any:
        return pipes[cluster.shard_serving(key_slot(key)).master.port]

    for index in range(1_500):
        pipe_for(b"user:%d:profile" % index).set(b"user:%d:profile" % index, b"x" * 40, ex=7_200 + index % 600)
        order = b"order:%d:items" % index
        pipe_for(order).hset(order, mapping={b"sku": b"a1", b"qty": b"2"})
        pipe_for(order).expire(order, 7_200 + index % 900)
    for index in range(SKEW_KEYS):
        key = b"feed:" + _tag_in(cluster, 2, index % 1_500) + b":%d" % index
        pipe_for(key).set(key, b"y" * 60, ex=172_800 + index % 3_000)
    tag = _tag_in(cluster, 1, 77)
    for index in range(TAG_KEYS):
        key = b"rank:" + tag + b":user:%d" % index
        pipe_for(key).set(key, b"1", ex=1_800 + index % 300)
    big_string = b"blob:" + _tag_in(cluster, 0, 5) + b":image"
    pipe_for(big_string).set(big_string, b"z" * BIG_STRING, ex=7_200)
    big_hash = b"cart:" + _tag_in(cluster, 1, 9) + b":lines"
    for start in range(0, BIG_HASH, 1_000):
        fields = {b"line:%d" % i: b"v" for i in range(start, start + 1_000)}
        pipe_for(big_hash).hset(big_hash, mapping=fields)
    pipe_for(big_hash).expire(big_hash, 7_200)
    for pipe in pipes.values():
        pipe.execute()
    cluster.wait_agreement()  # replicas have caught up
    return Loaded(cluster, tag.strip(b"{}"), big_string, big_hash)


@pytest.fixture(scope="module", params=["redis70", "valkey91"])
def loaded(request: pytest.FixtureRequest) -> Iterator[Loaded]:
    kind: str = request.param
    require_kind(kind)
    with start_cluster(3, 1, kind) as cluster:
        yield _load(cluster)


def _scan(url: str, cluster: ClusterOptions | None = None, **options: Any) -> Report:
    return scan_live(LiveScanOptions(url=url, **options), cluster=cluster or ClusterOptions())


def _dbsize(node: ServerProcess) -> int:
    with node.client() as client:
        return int(client.dbsize())


def _findings(report: Report, rule: str) -> list[Any]:
    return [f for f in report.findings if f.rule_id == rule]


def test_one_address_scans_every_shard_and_names_what_only_a_cluster_shows(loaded: Loaded) -> None:
    cluster = loaded.cluster
    report = _scan(cluster.replicas[1].url)  # any node will do, a replica too
    view = report.stats.cluster
    assert view is not None
    shards = [(s.address, s.scanned_role, s.slots, s.replicas, s.status) for s in view.shards]
    assert shards == [(loaded.address(i), "master", tuple(cluster.shards[i].slots), 1, "complete") for i in range(3)]
    assert [s.keys for s in view.shards] == [_dbsize(shard.master) for shard in cluster.shards]
    assert report.stats.keys == sum(_dbsize(shard.master) for shard in cluster.shards)

    (skew,) = [f for f in _findings(report, "CLU001") if f.code == "keys"]
    assert skew.subject == f"shard {loaded.address(2)}"
    (share,) = [f for f in _findings(report, "CLU002") if f.code == "keys"]
    assert [e.name for e in share.examples] == [loaded.tag]
    assert loaded.address(1) in share.message.en

    data = report_to_dict(report)
    top = {item["key"]: item for item in data["keyspace"]["top_by_memory"]}
    assert top[loaded.big_string.decode()]["shard"] == loaded.address(0)
    assert top[loaded.big_string.decode()]["slot"] == key_slot(loaded.big_string)
    longest = data["keyspace"]["top_by_length"][0]
    assert (longest["key"], longest["shard"], longest["length"]) == (
        loaded.big_hash.decode(),
        loaded.address(1),
        BIG_HASH,
    )
    (big,) = _findings(report, "VAL001")
    assert [e.name for e in big.examples] == [loaded.big_string]
    hashtags = {h["tag"]: h for h in data["cluster"]["hashtags"]}
    assert hashtags[loaded.tag.decode()]["keys"] == TAG_KEYS
    assert hashtags[loaded.tag.decode()]["shard"] == 1
    assert [row["address"] for row in data["shards"]] == [loaded.address(i) for i in range(3)]


def test_the_cluster_report_is_the_union_of_its_nodes_scanned_one_by_one(loaded: Loaded) -> None:
    cluster = loaded.cluster
    whole = _scan(cluster.masters[0].url)
    nodes = [_scan(shard.master.url, ClusterOptions(cluster=False)) for shard in cluster.shards]
    assert whole.stats.keys == sum(node.stats.keys for node in nodes)
    per_key = ("VAL", "TTL001", "KEY0")  # rules judging each key on its own add up over the nodes

    def counts(reports: Sequence[Report]) -> Counter[tuple[str, str, bytes | None]]:
        total: Counter[tuple[str, str, bytes | None]] = Counter()
        for report in reports:
            for f in report.findings:
                if f.pattern is not None and f.rule_id.startswith(per_key):
                    total[(f.rule_id, f.code, f.pattern)] += f.count
        return total

    assert counts([whole]) == counts(nodes)
    patterns: Counter[bytes] = Counter()
    for node in nodes:
        for stat in node.stats.pattern_stats:
            patterns[stat.pattern] += stat.count
    assert {stat.pattern: stat.count for stat in whole.stats.pattern_stats} == dict(patterns)
    memory = [node.stats.keyspace.memory for node in nodes if node.stats.keyspace is not None]
    assert whole.stats.keyspace is not None and whole.stats.keyspace.memory == sum(memory)
    sizes: Counter[tuple[int, int, str]] = Counter()  # the key-size histogram: MEMORY USAGE does not move
    for node in nodes:
        assert node.stats.keyspace is not None
        for bucket in node.stats.keyspace.size_buckets:
            sizes[(bucket.low, bucket.high, "keys")] += bucket.keys
            sizes[(bucket.low, bucket.high, "memory")] += bucket.memory
    whole_sizes = whole.stats.keyspace.size_buckets
    assert {(b.low, b.high, "keys"): b.keys for b in whole_sizes if b.keys} == {
        k: n for k, n in sizes.items() if k[2] == "keys" and n
    }
    assert {(b.low, b.high, "memory"): b.memory for b in whole_sizes if b.keys} == {
        k: n for k, n in sizes.items() if k[2] == "memory" and n
    }
    assert len([b for b in whole_sizes if b.keys]) >= 4
    view = whole.stats.cluster
    assert view is not None
    assert [s.memory for s in view.shards] == memory


def test_prefer_replicas_reads_a_replica_of_every_shard(loaded: Loaded) -> None:
    cluster = loaded.cluster
    report = _scan(cluster.masters[2].url, ClusterOptions(prefer="replicas"))
    view = report.stats.cluster
    assert view is not None
    expected = [(f"127.0.0.1:{shard.replicas[0].port}", "replica") for shard in cluster.shards]
    assert [(s.address, s.scanned_role) for s in view.shards] == expected
    assert [s.keys for s in view.shards] == [_dbsize(shard.master) for shard in cluster.shards]
    assert not [n for n in report.notes if n.code.startswith("cluster-")]


def test_the_command_line_writes_the_shards_table_and_section(loaded: Loaded, tmp_path: Path) -> None:
    url = loaded.cluster.masters[0].url
    result = run_scan(url, "--executor", "inline", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert [row["status"] for row in data["shards"]] == ["complete"] * 3
    text = run_scan(url, "--executor", "inline", cwd=tmp_path, fmt="text").stdout.decode()
    assert "Shards (3)" in text
    for index in range(3):
        assert loaded.address(index) in text
    alone = run_scan(url, "--no-cluster", cwd=tmp_path)
    assert alone.returncode == 1
    assert json.loads(alone.stdout)["shards"] is None


# ---- a cluster changing under the scan ------------------------------------------------------------------------------


class Between(InlineExecutor):
    """Runs the shards' jobs here, one after another, and changes the cluster after the first: the state a
    node dying or failing over in the middle of a scan leaves behind."""

    def __init__(self, change: Callable[[], None]) -> None:
        self.change = change

    def map_unordered(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
        for index, item in enumerate(items):
            if index == 1:
                self.change()
            yield index, fn(item)


@pytest.fixture
def small(request: pytest.FixtureRequest) -> Iterator[Cluster]:
    require_kind("redis70")
    with start_cluster(3, 1, "redis70") as cluster:
        client_keys = {shard.master.port: shard.master.client() for shard in cluster.shards}
        for index in range(600):
            key = b"item:%d" % index
            client_keys[cluster.shard_serving(key_slot(key)).master.port].set(key, b"v", ex=600)
        cluster.wait_agreement()
        yield cluster


def test_a_node_that_dies_mid_scan_leaves_a_report_naming_its_shard(small: Cluster) -> None:
    victim = small.shards[1].master
    report = scan_live(
        LiveScanOptions(url=small.masters[0].url, retries=1, timeout=2),
        cluster=ClusterOptions(),
        executor=Between(victim.kill),
    )
    view = report.stats.cluster
    assert view is not None
    statuses = [(s.address, s.status) for s in view.shards]
    dead = f"127.0.0.1:{victim.port}"
    assert statuses[0] == (f"127.0.0.1:{small.shards[0].master.port}", "complete")
    assert statuses[1] == (dead, "failed")
    assert statuses[2][1] == "complete"
    missed = [n for n in report.notes if n.code == "cluster-shard-missed"]
    assert [n.params["shard"] for n in missed] == [dead]
    assert report.stats.keys == sum(s.keys for s in view.shards)
    assert report.stats.server is not None and "other-shards" in report.stats.server.partial


def test_a_failover_during_the_scan_is_noted(small: Cluster) -> None:
    replica = small.shards[2].replicas[0]
    report = scan_live(
        LiveScanOptions(url=small.masters[0].url),
        cluster=ClusterOptions(),
        executor=Between(lambda: small.failover(replica)),
    )
    failovers = [n for n in report.notes if n.code == "cluster-failover"]
    assert [n.params["master"] for n in failovers] == [f"127.0.0.1:{replica.port}"]
    view = report.stats.cluster
    assert view is not None and [s.status for s in view.shards] == ["complete"] * 3
    assert report.stats.keys == 600


def test_a_migrating_slot_is_noted(small: Cluster) -> None:
    slot = key_slot(b"item:7")
    target = next(shard for shard in small.shards if shard is not small.shard_serving(slot))
    small.begin_migration(slot, target)
    report = _scan(small.masters[0].url)
    (migrating,) = [n for n in report.notes if n.code == "cluster-slots-migrating"]
    assert slot in migrating.params["slots"]


def test_a_master_down_at_the_start_is_read_from_its_replica(small: Cluster) -> None:
    shard = small.shards[0]
    small.kill(shard.master)  # no replica takes over (the fixture's nodes never fail over by themselves)
    report = _scan(small.masters[1].url)
    view = report.stats.cluster
    assert view is not None
    assert (view.shards[0].address, view.shards[0].scanned_role) == (f"127.0.0.1:{shard.replicas[0].port}", "replica")
    codes = [n.code for n in report.notes if n.code.startswith("cluster-")]
    assert codes == ["cluster-master-failed"] + ["cluster-shard-missed"] * 3
    # its slots are served by nobody, so the cluster is down: every node refuses to read keys, and says so
    refused = [n.params["reason"] for n in report.notes if n.code == "refused" and n.params["check"] == "key reads"]
    assert refused == ["CLUSTERDOWN The cluster is down"]
    assert [(f.rule_id, f.worst) for f in report.findings if f.rule_id == "CLU006"] == [("CLU006", 5461)]
    assert report.stats.keys == 600


def test_cluster_on_a_lone_server_is_one_line(tmp_path: Path) -> None:
    require_kind("redis70")
    from tests.support.servers import start_server

    with start_server("redis70") as server:
        result = run_scan(server.url, "--cluster", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.decode().strip() == (
        f"rediscipline: error: redis://127.0.0.1:{server.port} is not a cluster node (cluster_enabled:0): "
        "leave out --cluster"
    )


def test_a_part_task_pickles(small: Cluster) -> None:
    import pickle

    from rediscipline.api.defaults import settings_for
    from rediscipline.api.parts import EngineSpec
    from rediscipline.sources.live.cluster_source import open_live

    source = open_live(LiveScanOptions(url=small.masters[0].url))
    settings = settings_for()
    spec = EngineSpec(tuple(settings.rules), (), {}, 1000, False, {}, frozenset(), None)
    jobs = source.jobs(spec.engine(0).plan)  # type: ignore[union-attr]
    task = pickle.loads(pickle.dumps(PartTask(jobs[0], spec, 0, 1, True)))
    result = pickle.loads(pickle.dumps(run_part(task)))
    assert result.report.keys == _dbsize(small.shards[0].master)


def test_tls_and_an_acl_user_reach_every_node(tmp_path: Path) -> None:
    from tests.support.servers import supports_tls, tls_files

    require_kind("redis70")
    if not supports_tls("redis70"):
        pytest.skip("this redis-server build has no TLS")
    with start_cluster(3, 0, "redis70", tls=True) as cluster:
        for node in cluster:
            with node.client() as client:
                client.execute_command(
                    "ACL", "SETUSER", "audit", "on", ">s3cret", "~*", "&*", "-@all", "+@read", "+@connection",
                    "+info", "+config|get", "+cluster", "+client", "+readonly", "+memory|usage", "+object",
                )  # fmt: skip
        for index in range(300):
            key = b"k:%d" % index
            with cluster.shard_serving(key_slot(key)).master.client() as client:
                client.set(key, b"v")
        keys = 0
        for shard in cluster.shards:
            with shard.master.client() as client:
                keys += int(client.dbsize())
        url = f"rediss://audit@127.0.0.1:{cluster.masters[1].tls_port}"
        env = {"AUDIT_PW": "s3cret", "SSL_CERT_FILE": str(tls_files().cert)}
        result = run_scan(url, "--password-env", "AUDIT_PW", cwd=tmp_path, env=env)
        assert result.returncode in (0, 1), result.describe()
        data = result.report
        assert [row["address"] for row in data["shards"]] == [f"127.0.0.1:{s.master.tls_port}" for s in cluster.shards]
        assert [row["status"] for row in data["shards"]] == ["complete"] * 3
        assert data["summary"]["keys"] == keys
        assert b"s3cret" not in result.stdout + result.stderr


def test_shards_read_apart_and_merged_report_what_one_engine_fed_every_shard_reports(loaded: Loaded) -> None:
    """The merge law on a real cluster: each shard's engine in its own part, merged, against one engine fed
    every shard's facts in shard order (with the same view of the cluster at the end)."""
    from itertools import chain

    from rediscipline.api.defaults import settings_for
    from rediscipline.api.driver import run
    from rediscipline.api.parts import EngineSpec
    from rediscipline.engine.libraries import LibraryPolicy, default_catalog
    from rediscipline.model.cluster import ClusterView
    from rediscipline.rules import default_registry
    from rediscipline.sources.live.cluster_source import ClusterSource, open_live

    settings = settings_for()
    url = loaded.cluster.masters[0].url
    source = open_live(LiveScanOptions(url=url))
    assert isinstance(source, ClusterSource)
    merged = run([source], settings, command="scan")
    view = merged.stats.cluster
    assert view is not None

    registry = default_registry()
    spec = EngineSpec(
        tuple(settings.rules),
        tuple(settings.namespaces),
        dict(settings.key_ignores),
        settings.pattern_cap,
        False,
        {cls.meta.id: cls.meta for cls in registry},
        frozenset(r.id for r in settings.rules),
        LibraryPolicy(default_catalog(None), settings.library_keys, settings.library_modes),
    )
    engine = spec.engine(1, sharded=True)
    jobs = open_live(LiveScanOptions(url=url)).jobs(engine.plan)  # type: ignore[union-attr]
    engine.consume(chain.from_iterable(job.open().facts(engine.plan) for job in jobs))
    # the view the source settles with: its shards, and the servers' own slot figures when they had them
    given = view.slots if view.slots_from != "scan" else ()
    engine.consume([ClusterView(view.shards, given, (), view.slots_from, None, view.uncovered_slots, view.origin)])
    one = engine.finish("live")

    def keyed(findings: Sequence[Any]) -> list[tuple[Any, ...]]:
        rows = [
            (f.rule_id, f.code, f.pattern, f.subject, f.count, f.worst, tuple(e.name for e in f.examples))
            for f in findings
            if f.pattern is not None or f.rule_id.startswith("CLU")
        ]
        return sorted(rows, key=repr)

    assert keyed(merged.findings) == keyed(one.findings)
    assert merged.stats.cluster == one.stats.cluster
    assert merged.stats.pattern_stats == one.stats.pattern_stats
    assert _ttl_free(merged.stats.keyspace) == _ttl_free(one.stats.keyspace)


def _ttl_free(keyspace: Any) -> Any:
    """Keyspace statistics without the TTLs left of the top keys and the minutes, hours and busiest seconds of
    the expiry timeline (two scans read them at other moments: a key due in 7,200 s is in hour 2, read a second later in
    hour 1); the keys the timeline counts, and when, stay."""
    from dataclasses import replace

    def keys(top: Any) -> Any:
        return tuple(replace(key, ttl_ms=None) for key in top)

    expiry = replace(keyspace.expiry, per_minute=(), per_hour=(), peak_second=())
    return replace(
        keyspace, top_by_memory=keys(keyspace.top_by_memory), top_by_length=keys(keyspace.top_by_length), expiry=expiry
    )


def test_progress_counts_the_keys_of_the_shards_read(loaded: Loaded) -> None:
    seen: list[tuple[int, int]] = []
    report = scan_live(
        LiveScanOptions(url=loaded.cluster.masters[0].url),
        cluster=ClusterOptions(),
        progress=lambda done, total: seen.append((done, total)),
    )
    keys = [_dbsize(shard.master) for shard in loaded.cluster.shards]
    assert seen == [(keys[0], sum(keys)), (keys[0] + keys[1], sum(keys)), (sum(keys), sum(keys))]
    assert report.stats.keys == sum(keys)


def test_a_user_refused_cluster_shards_falls_back_and_says_so(small: Cluster) -> None:
    for node in small:
        with node.client() as client:
            client.execute_command("ACL", "SETUSER", "reader", "on", ">pw", "~*", "&*", "+@all", "-cluster|shards")
    url = f"redis://reader:pw@127.0.0.1:{small.masters[0].port}"
    report = _scan(url)
    (refused,) = [n for n in report.notes if n.code == "cluster-topology-refused"]
    assert refused.params["used"] == "CLUSTER SLOTS"
    assert [r.split(":")[0] for r in refused.params["refused"]] == ["CLUSTER SHARDS"]  # type: ignore[union-attr]
    view = report.stats.cluster
    assert view is not None and [s.status for s in view.shards] == ["complete"] * 3
    assert report.stats.keys == 600


def test_map_sends_each_announced_address_where_it_is_reachable(small: Cluster) -> None:
    mapped = [f"127.0.0.1:{shard.master.port}=localhost:{shard.master.port}" for shard in small.shards[1:]]
    report = _scan(small.masters[0].url, ClusterOptions(address_map=tuple(mapped)))
    view = report.stats.cluster
    assert view is not None
    expected = [f"127.0.0.1:{small.shards[0].master.port}"]
    expected += [f"localhost:{shard.master.port}" for shard in small.shards[1:]]
    assert [s.address for s in view.shards] == expected
    assert report.stats.keys == 600
    with pytest.raises(SourceError) as bad:
        _scan(small.masters[0].url, ClusterOptions(address_map=("127.0.0.1:7000",)))
    assert str(bad.value) == (
        "--map '127.0.0.1:7000': expected HOST:PORT=HOST:PORT, an IPv6 address in brackets ([::1]:7000)"
    )


def test_html_report_has_a_bar_per_shard(loaded: Loaded) -> None:
    report = _scan(f"redis://{loaded.address(0)}")
    shards = report_to_dict(report)["shards"]
    page = render(report)
    assert page.values("shards-keys") == [shard["keys"] for shard in shards]
    assert page.values("shards-memory") == [shard["memory"] for shard in shards]
    assert len(shards) == 3 and all(shard["keys"] for shard in shards)
