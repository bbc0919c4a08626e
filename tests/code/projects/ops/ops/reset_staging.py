"""Reset the staging instance to the seed data before a QA run."""

from __future__ import annotations

import os
import sys
import time

import redis

from ops.common import HOST, PORT

if os.environ.get("DEPLOY_ENV") != "staging":
    sys.exit("refusing to reset anything but staging")

r = redis.Redis(host=HOST, port=PORT)
r.select(0)

# Reviewed with the platform team: staging is wiped on purpose before every QA run.
r.flushdb()  # rediscipline: ignore[CMD002]
r.flushall(asynchronous=True)  # ASYNC: accepted by the default preset (002), banned by strict (001)

pipe = r.pipeline(transaction=False)
for n in range(100):
    pipe.set(f"flag:demo_{n}", "off")
pipe.execute()

r.hset("flag:checkout", mapping={"enabled": "1", "percent": "10"})
r.rpush("queue:retry", *[f"job_{n}" for n in range(20)])

r.set("maintenance:banner", "Staging was reset, expect empty carts")  # error: TTL008
r.expire("maintenance:banner", 7200)
r.set("maintenance:last_reset", int(time.time()))  # error: TTL006
