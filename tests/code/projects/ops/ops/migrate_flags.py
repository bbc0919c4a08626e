"""Move the feature flags out of databases 3 and 5 into database 0, before the move to Redis Cluster."""

from __future__ import annotations

import redis

from ops.common import HOST, PORT

source = redis.Redis(host=HOST, port=PORT, db=3)  # error: CMD006
target = redis.Redis(host=HOST, port=PORT, db=0)
oldest = redis.Redis.from_url("redis://flags-old.internal:6379/5")  # error: CMD006

moved = 0
for key in source.scan_iter(match="flag:*", count=500):
    value = source.dump(key)
    ttl = source.pttl(key)
    target.restore(key, max(ttl, 0), value, replace=True)
    moved += 1

for key in oldest.scan_iter(match="flag:*", count=500):
    oldest.move(key, 0)  # error: CMD006

print(f"moved {moved} flags; database 3 now has {source.dbsize()} keys")
target.set("maintenance:flags_migrated", moved, ex=30 * 86400)
