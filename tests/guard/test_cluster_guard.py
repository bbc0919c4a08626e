"""The guard on redis-py's cluster clients (sync and asyncio) against a real 3-master cluster: each seeded
break of a sample application is reported at its call site, nothing on the clean paths, `raise` mode sends
nothing it refuses to any shard, and the commands redis-py splits across slots (mget_nonatomic,
mset_nonatomic, a multi-key DEL) give the data they give unguarded, with every fix on."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio.cluster as acluster
from redis.cluster import RedisCluster

from rediscipline.guard import ConventionViolation, guard, guard_report, new_collector
from rediscipline.guard.collector import Collector
from rediscipline.model.report import Report
from tests.guard.apps import shop_cluster, shop_cluster_async
from tests.guard.conftest import APPS, seeded
from tests.support.kinds import require_kind
from tests.support.topologies import Cluster, start_cluster

SHOP = APPS / "shop_cluster.py"
SHOP_ASYNC = APPS / "shop_cluster_async.py"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    require_kind("redis70")
    started = start_cluster(3)
    try:
        yield started
    finally:
        started.stop()


@pytest.fixture
def nodes(cluster: Cluster) -> Iterator[list[redis.Redis]]:
    """Unguarded clients of every master, on an emptied cluster with its command counts reset."""
    clients = [master.client() for master in cluster.masters]
    for client in clients:
        client.flushall()
        client.config_resetstat()
    try:
        yield clients
    finally:
        for client in clients:
            client.close()


@pytest.fixture
def rc(cluster: Cluster, nodes: list[redis.Redis]) -> Iterator[RedisCluster]:
    """A cluster client to guard (the tests guard it themselves)."""
    first = cluster.masters[0]
    client = RedisCluster(host=first.host, port=first.port)
    try:
        yield client
    finally:
        client.close()


def recorder(mode: str = "record", **options: Any) -> Collector:
    return new_collector(mode, isolated=True, **options)


def places(report: Report) -> set[tuple[str, str, int]]:
    return {(f.rule_id, Path(f.location.path or "").name, f.location.line or 0) for f in report.findings}


def cluster_calls(nodes: list[redis.Redis]) -> dict[str, int]:
    """Calls per command summed over every master (INFO commandstats)."""
    total: dict[str, int] = {}
    for client in nodes:
        for name, row in client.info("commandstats").items():
            command = name.removeprefix("cmdstat_")
            total[command] = total.get(command, 0) + int(row["calls"])
    return total


def keyspace(nodes: list[redis.Redis]) -> dict[bytes, tuple[bytes | None, bool]]:
    """Every key of the cluster with its serialized value and whether it has a TTL."""
    return {
        key: (client.dump(key), client.pttl(key) > 0)  # type: ignore[misc]
        for client in nodes
        for key in client.scan_iter(count=1000)
    }


def run_async(cluster: Cluster, work: Callable[[acluster.RedisCluster], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        first = cluster.masters[0]
        client = acluster.RedisCluster(host=first.host, port=first.port)
        try:
            return await work(client)
        finally:
            await client.aclose()

    return asyncio.run(main())


# -- seeded breaks and clean paths -----------------------------------------------------------------------------


def test_every_seeded_break_is_reported_at_its_call_site(rc: RedisCluster) -> None:
    guard(rc, collector=recorder())
    for uid in range(5):
        shop_cluster.save_profile(rc, uid, b"profile")
    shop_cluster.load_profiles(rc, list(range(60)))
    shop_cluster.save_profiles(rc, dict.fromkeys(range(30), b"p"))
    shop_cluster.touch_profiles(rc, list(range(30)))
    shop_cluster.cache_page(rc, "/home", b"<html></html>")
    shop_cluster.cache_big_page(rc, "/big", os.urandom(20_000))
    assert shop_cluster.find_sessions(rc) == []
    shop_cluster.warm_profiles(rc, list(range(250)))
    assert places(guard_report(rc)) == seeded(SHOP)


def test_clean_paths_report_nothing(rc: RedisCluster) -> None:
    guard(rc, collector=recorder())
    for uid in range(40):
        shop_cluster.save_profile(rc, uid, b"profile")
    assert shop_cluster.load_profiles(rc, list(range(50))) == [b"profile"] * 40 + [None] * 10
    shop_cluster.touch_profiles(rc, list(range(200)))
    shop_cluster.warm_profiles(rc, list(range(200)))
    report = guard_report(rc)
    assert report.findings == ()
    first = rc.get_nodes()[0]
    assert report.run.inputs == (f"redis-cluster://{first.host}:{first.port}",)


def test_asyncio_cluster_reports_every_seeded_break_and_nothing_else(
    cluster: Cluster, nodes: list[redis.Redis]
) -> None:
    async def clean(client: acluster.RedisCluster) -> Report:
        guard(client, collector=recorder())
        for uid in range(40):
            await shop_cluster_async.save_profile(client, uid, b"profile")
        assert await shop_cluster_async.load_profiles(client, list(range(50))) == [b"profile"] * 40 + [None] * 10
        await shop_cluster_async.touch_profiles(client, list(range(200)))
        return guard_report(client)

    assert run_async(cluster, clean).findings == ()

    async def broken(client: acluster.RedisCluster) -> Report:
        guard(client, collector=recorder())
        await shop_cluster_async.save_profiles(client, dict.fromkeys(range(30), b"p"))
        await shop_cluster_async.cache_page(client, "/home", b"<html></html>")
        await shop_cluster_async.cache_big_page(client, "/big", os.urandom(20_000))
        assert await shop_cluster_async.find_sessions(client) == []
        await shop_cluster_async.warm_profiles(client, list(range(250)))
        return guard_report(client)

    assert places(run_async(cluster, broken)) == seeded(SHOP_ASYNC)


# -- raise mode ------------------------------------------------------------------------------------------------


def test_raise_mode_sends_no_refused_command_to_any_shard(rc: RedisCluster, nodes: list[redis.Redis]) -> None:
    guard(rc, collector=recorder("raise", fail_on="warning"))
    with pytest.raises(ConventionViolation, match="CMD001"):
        shop_cluster.find_sessions(rc)
    with pytest.raises(ConventionViolation, match="BAT003"):
        shop_cluster.warm_profiles(rc, list(range(250)))
    with pytest.raises(ConventionViolation, match="TTL006"):
        shop_cluster.cache_page(rc, "/home", b"x")
    calls = cluster_calls(nodes)
    assert not {"keys", "set"} & set(calls)
    assert keyspace(nodes) == {}
    shop_cluster.save_profile(rc, 1, b"p")  # a clean command goes through
    assert rc.get("user:profile:1") == b"p"


def test_raise_mode_on_the_asyncio_cluster(cluster: Cluster, nodes: list[redis.Redis]) -> None:
    async def work(client: acluster.RedisCluster) -> None:
        guard(client, collector=recorder("raise", fail_on="warning"))
        with pytest.raises(ConventionViolation, match="CMD001"):
            await shop_cluster_async.find_sessions(client)
        with pytest.raises(ConventionViolation, match="BAT003"):
            await shop_cluster_async.warm_profiles(client, list(range(250)))

    run_async(cluster, work)
    assert not {"keys", "set"} & set(cluster_calls(nodes))
    assert keyspace(nodes) == {}


# -- commands split across slots -------------------------------------------------------------------------------

#: Keys over many slots, some not UTF-8.
MAPPING = {f"user:profile:{uid}".encode(): b"\xff" + str(uid).encode() for uid in range(300)} | {
    b"user:profile:\xff\xfe": b"\x00",
    b"user:profile:\x80": b"\x80",
}
ASKED = [*MAPPING, b"user:profile:missing", b"user:profile:0"]


def nonatomic(client: RedisCluster) -> list[Any]:
    """Write, read and delete across slots; the replies."""
    replies: list[Any] = [client.mset_nonatomic(MAPPING), client.mget_nonatomic(ASKED)]
    replies.append(client.delete(*list(MAPPING)[:150], b"user:profile:missing"))
    replies.append(client.mget_nonatomic(ASKED))
    return replies


def test_nonatomic_commands_give_the_data_they_give_unguarded(
    cluster: Cluster, rc: RedisCluster, nodes: list[redis.Redis]
) -> None:
    first = cluster.masters[0]
    with RedisCluster(host=first.host, port=first.port) as unguarded:
        expected = nonatomic(unguarded)
    left = keyspace(nodes)
    for client in nodes:
        client.flushall()
        client.config_resetstat()
    guard(rc, collector=recorder(fix={"chunk": 100, "flush": 100, "unlink": True, "ttl-jitter": 0.1}))
    assert nonatomic(rc) == expected
    assert keyspace(nodes) == left
    assert len(left) == 152
    assert expected[1][-3:] == [b"\x80", None, b"\xff0"]
    calls = cluster_calls(nodes)
    assert "del" not in calls and calls["unlink"] > 0
    fixed = {n.params["fix"] for n in guard_report(rc).notes if n.code == "guard-fixed"}
    assert "unlink" in fixed


def test_the_flush_fix_sends_a_cluster_pipeline_in_parts(rc: RedisCluster, nodes: list[redis.Redis]) -> None:
    guard(rc, collector=recorder(fix={"flush": 100}))
    pipe = rc.pipeline()
    for i in range(250):
        pipe.set(f"user:item:{i}", i, ex=600 + i)
        if i == 99:
            assert sum(client.dbsize() for client in nodes) == 100  # the first part is sent
    assert pipe.execute() == [True] * 250
    assert len(keyspace(nodes)) == 250
    fixed = {n.params["fix"]: n.params["times"] for n in guard_report(rc).notes if n.code == "guard-fixed"}
    assert fixed == {"flush": 2}


def test_a_cluster_transaction_is_never_flushed_early(rc: RedisCluster, nodes: list[redis.Redis]) -> None:
    guard(rc, collector=recorder(fix={"flush": 100}))
    pipe = rc.pipeline(transaction=True)
    for i in range(250):
        pipe.set(f"user:{{7}}:item:{i}", i, ex=600 + i)
    assert keyspace(nodes) == {}  # nothing sent before execute()
    replies = pipe.execute()
    assert len(replies) == 250 and all(reply in (True, b"OK") for reply in replies)
    calls = cluster_calls(nodes)
    assert (calls["multi"], calls["exec"], calls["set"]) == (1, 1, 250)
    assert not [n for n in guard_report(rc).notes if n.code == "guard-fixed"]
