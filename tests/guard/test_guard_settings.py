"""The guard judges with the team's settings: the convention file's namespaces (type, TTL range, TTL
required), per-key ignores, rule options and selections, as every other command does."""

from __future__ import annotations

from pathlib import Path

import redis

from rediscipline.guard import guard, guard_report

CONVENTIONS = """\
preset = "default"

[rules.batch-size]
max-keys = 20

[namespaces."session:*"]
type = "hash"
ttl-max = "1h"
ttl-required = true

[namespaces."user:*"]

[per-key-ignores]
"user:legacy:*" = ["KEY006"]
"""


def findings(client: redis.Redis) -> set[tuple[str, str, int]]:
    return {(f.rule_id, f.code, f.location.line or 0) for f in guard_report(client).findings}


def here(text: str) -> int:
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if text in line and "here(" not in line)


def test_namespaces_ignores_and_options_of_the_convention_file(client: redis.Redis, tmp_path: Path) -> None:
    config = tmp_path / "rediscipline.toml"
    config.write_text(CONVENTIONS, encoding="utf-8")
    guard(client, mode="record", config=config)
    client.set("session:abc", "v", ex=600)  # a string where the namespace declares hashes
    pipe = client.pipeline()
    pipe.hset("session:def", "user", "1")
    pipe.expire("session:def", 7200)  # longer than the namespace's ttl-max
    pipe.execute()
    pipe = client.pipeline()
    pipe.hset("session:ghi", "user", "2")  # no EXPIRE, in a namespace that requires one
    pipe.execute()
    client.set("user:legacy:Name", "v", ex=60)  # KEY006 ignored for user:legacy:*
    client.set("user:profile:Name", "v", ex=60)
    client.set("order:1", "v", ex=60)  # outside every declared namespace
    client.mget([f"user:profile:{i}" for i in range(25)])  # more than this project's 20
    assert findings(client) == {
        ("KEY016", "namespace-type", here('client.set("session:abc"')),
        ("TTL003", "too-long", here('pipe.expire("session:def", 7200)')),
        ("TTL006", "hset", here('pipe.hset("session:ghi"')),
        ("KEY006", "uppercase", here('client.set("user:profile:Name"')),
        ("KEY018", "undeclared", here('client.set("order:1"')),
        ("BAT001", "keys", here("client.mget([")),
    }
    severities = {f.rule_id: f.severity.label for f in guard_report(client).findings}
    assert severities["TTL006"] == "error"  # the namespace requires a TTL
