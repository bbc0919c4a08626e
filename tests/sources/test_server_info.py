"""INFO parsing: flat fields, keyspace lines and commandstats, as Redis and Valkey print them."""

from __future__ import annotations

from rediscipline.sources.live.server import commandstats_of, keyspace_of, parse_info

INFO = b"""# Server\r
redis_version:7.0.15\r
role:master\r
\r
# Memory\r
used_memory:2885400\r
maxmemory_policy:noeviction\r
\r
# Commandstats\r
cmdstat_keys:calls=3,usec=10,usec_per_call=3.33,rejected_calls=0,failed_calls=0\r
cmdstat_config|set:calls=1,usec=5,usec_per_call=5.00,rejected_calls=0,failed_calls=0\r
\r
# Keyspace\r
db0:keys=5103,expires=5000,avg_ttl=3500000\r
db3:keys=1,expires=0,avg_ttl=0\r
"""


def test_parse_info_fields() -> None:
    info = parse_info(INFO)
    assert info["redis_version"] == "7.0.15"
    assert info["used_memory"] == "2885400"
    assert "# Server" not in info


def test_keyspace_and_commandstats() -> None:
    info = parse_info(INFO)
    assert keyspace_of(info) == ({0: 5103, 3: 1}, {0: 5000, 3: 0})
    assert commandstats_of(info) == {"keys": 3, "config|set": 1}
