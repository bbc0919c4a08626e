"""Edges of what the guard judges: what a sequence of commands is and is not (a cursor scan is no loop,
steady traffic is no expiry cliff), what a reply or a namespace says, commands redis-py sends on connections
of their own, pub/sub objects that reconnect."""

from __future__ import annotations

import pickle
import time
from pathlib import Path

import redis

from rediscipline.guard import guard, guard_report
from tests.guard.conftest import recorder


def rules(client: redis.Redis) -> dict[str, int]:
    return {f.rule_id: f.count for f in guard_report(client).findings}


def here(text: str) -> int:
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if text in line and "here(" not in line)


def test_a_cursor_scan_is_not_a_loop_to_pipeline(client: redis.Redis, plain: redis.Redis) -> None:
    plain.mset({f"item:{i}": "v" for i in range(3000)})
    guard(client, collector=recorder())
    assert sum(1 for _ in client.scan_iter(match="item:*", count=10)) == 3000
    assert "BAT002" not in rules(client)


def test_a_loop_of_single_commands_is_one(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    for i in range(1000):  # a stall of the machine restarts a run: 1,000 calls leave room for a few
        client.get(f"item:{i}")
    (finding,) = guard_report(client).findings
    assert (finding.rule_id, finding.location.line) == ("BAT002", here('client.get(f"item:{i}")'))


def test_a_burst_of_one_ttl_is_a_cliff_and_steady_writes_are_not(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    for i in range(12):
        client.set(f"session:web:{i}", "v", ex=1800)  # a steady flow: one write every 20 ms
        time.sleep(0.02)
    assert "TTL007" not in rules(client)
    pipe = client.pipeline(transaction=False)
    for i in range(12):
        pipe.hset(f"cart:items:{i}", "a", "1")
        pipe.expire(f"cart:items:{i}", 3600)  # the same TTL on 12 keys at once
    pipe.execute()
    (finding,) = [f for f in guard_report(client).findings if f.rule_id == "TTL007"]
    assert finding.location.line == here('pipe.expire(f"cart:items:{i}", 3600)')


def test_namespace_minimum_ttl_and_element_limit(client: redis.Redis, plain: redis.Redis, tmp_path: Path) -> None:
    config = tmp_path / "rediscipline.toml"
    config.write_text('[namespaces."rank:*"]\nmax-elements = 1000\nttl-min = "10m"\n', encoding="utf-8")
    plain.zadd("rank:daily:top", {f"m{i}": i for i in range(2000)})
    guard(client, mode="record", config=config)
    client.set("rank:daily:name", "v", px=7200)  # 7.2 seconds, where the namespace asks for 10 minutes
    client.zrange("rank:daily:top", 0, -1)  # 2,000 members where the namespace allows 1,000
    found = {(f.rule_id, f.code, f.location.line) for f in guard_report(client).findings}
    assert ("TTL003", "too-short", here("px=7200)")) in found
    assert ("VAL002", "over-limit", here('client.zrange("rank:daily:top"')) in found


def test_a_union_read_says_nothing_of_one_key(client: redis.Redis, plain: redis.Redis) -> None:
    for n in range(100):
        plain.sadd(f"tags:post:{n}", *[f"t{n}:{i}" for i in range(60)])
    guard(client, collector=recorder())
    assert len(client.sunion([f"tags:post:{n}" for n in range(100)])) == 6000
    assert "VAL002" not in rules(client)


def test_a_small_pickle_is_reported(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    client.set("user:prefs:1", pickle.dumps({"a": 1}), ex=600)
    (finding,) = guard_report(client).findings
    assert (finding.rule_id, finding.code) == ("VAL006", "pickle")


def test_monitor_is_judged_before_its_connection_opens(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    with client.monitor():
        pass
    (finding,) = guard_report(client).findings
    assert (finding.rule_id, finding.location.line) == ("CMD003", here("with client.monitor():"))


def test_geoadd_that_only_updates_creates_nothing(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    pipe = client.pipeline()
    pipe.geoadd("shop:geo:cities", [13.4, 52.5, "berlin"], xx=True)
    pipe.execute()
    assert guard_report(client).findings == ()


def test_a_reconnected_pubsub_counts_its_channels_once(client: redis.Redis, plain: redis.Redis) -> None:
    guard(client, collector=recorder())
    pubsub = client.pubsub()
    pubsub.subscribe(*[f"news:channel:{i}" for i in range(30)])
    pubsub.get_message(timeout=1)
    plain.client_kill_filter(_type="pubsub")
    for _ in range(50):  # redis-py reconnects and subscribes the 30 channels again
        pubsub.get_message(timeout=0.1)
    assert plain.pubsub_numsub("news:channel:0") == [(b"news:channel:0", 1)]  # subscribed again
    pubsub.subscribe("news:channel:0")
    pubsub.close()
    assert "PUB002" not in rules(client)
