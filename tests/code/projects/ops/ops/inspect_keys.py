"""Look at what the server is doing: ten seconds of MONITOR, then the flags and queues."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import redis

from ops.common import HOST, PORT

r = redis.Redis(host=HOST, port=PORT)

deadline = time.monotonic() + 10
with r.monitor() as m:  # error: CMD003
    for command in m.listen():
        print(command)
        if time.monotonic() > deadline:
            break

for key in r.scan_iter(match="flag:*", count=1000):
    print(key, r.type(key), r.memory_usage(key))

print(r.object("encoding", "flag:checkout"))
print(r.execute_command("MEMORY", "USAGE", "flag:checkout"))
print(r.debug_object("flag:checkout"))  # error: CMD004
print(r.execute_command("DEBUG", "OBJECT", "flag:search"))  # error: CMD004

print(r.llen("queue:retry"), r.lrange("queue:retry", 0, 9))
print(r.sort("queue:retry", start=0, num=20))  # error: CMD005

for key in r.scan_iter(match="cache:*"):  # error: CMD010
    print(key)

pending: queue.Queue[str] = queue.Queue()
pending.put("flag:checkout")
first = pending.get(timeout=1)
report = Path("inspect-report.txt")
if not report.exists():
    report.write_text(f"first flag inspected: {first}\n")
