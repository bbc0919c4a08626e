"""Apply the memory settings the capacity review asked for (2024-06), then take a snapshot."""

from __future__ import annotations

import redis

from ops.common import HOST, PORT

r = redis.Redis(host=HOST, port=PORT)

print(r.config_get("maxmemory*"))
r.config_set("maxmemory-policy", "allkeys-lfu")  # error: CMD004
r.config_set("lazyfree-lazy-user-del", "yes")  # error: CMD004
r.execute_command("CONFIG SET", "hz", "20")  # error: CMD004
r.config_rewrite()  # error: CMD004
print(r.config_get("maxmemory-policy"))
print(r.info("memory")["used_memory_human"])
for entry in r.slowlog_get(10):
    print(entry["duration"], entry["command"])
r.bgsave()  # error: CMD004
