"""One-off (2024-03): remove what the retired login service left behind."""

from __future__ import annotations

import sys

import redis

from ops.common import HOST, PORT

r = redis.Redis(host=HOST, port=PORT)

pattern = sys.argv[1] if len(sys.argv) > 1 else "session:legacy:*"
removed = 0
for key in r.scan_iter(match=pattern, count=1000):
    r.unlink(key)
    removed += 1
print(f"removed {removed} keys matching {pattern}")

stale = r.keys("login:*")  # error: CMD001
if stale:
    r.delete(*stale)

leftovers = r.execute_command("KEYS", "oauth:*")  # error: CMD001
print(f"{len(leftovers)} oauth keys left")

for shard in range(256):
    r.delete(f"flag:rollout:{shard}")  # error: BAT002
