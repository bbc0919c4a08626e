"""The expiry calibration's scenario on a real server, shared by its test and its benchmark: `keys` keys with a
TTL of an hour and `probes` probes that all expire two seconds after they are written, nothing read; the
server's `expired_keys` (the probes its active cycle reclaimed) at given moments after the probes' deadline."""

from __future__ import annotations

import time
from collections.abc import Sequence

import redis

from rediscipline.simulate.expiry import VolatileKeys

#: Values' bytes, the background keys' TTL (s), keys per pipeline.
VALUE = b"v" * 50
BACKGROUND_TTL = 3600
BATCH = 5_000


def reclaimed_probes(client: redis.Redis, keys: int, probes: int, moments: Sequence[float]) -> tuple[int, list[int]]:
    """Load the keys and the probes on `client`'s server; the probes' deadline (Unix ms) and the probes
    reclaimed at each of `moments` (seconds after it)."""
    pipe = client.pipeline(transaction=False)
    for number in range(keys):
        pipe.set(b"bg:%d" % number, VALUE, ex=BACKGROUND_TTL)
        if number % BATCH == BATCH - 1:
            pipe.execute()
    pipe.execute()
    deadline = int(time.time() * 1000) + 2000
    for number in range(probes):
        pipe.set(b"probe:%d" % number, VALUE, pxat=deadline)
    pipe.execute()
    before = int(client.info("stats")["expired_keys"])
    seen = []
    for moment in moments:
        time.sleep(max(deadline / 1000 + moment - time.time(), 0))
        seen.append(int(client.info("stats")["expired_keys"]) - before)
    return deadline, seen


def probe_keyspace(keys: int, probes: int, deadline: int) -> VolatileKeys:
    """The same keys as the expiry model takes them."""
    expires = [deadline + BACKGROUND_TTL * 1000] * keys + [deadline] * probes
    return VolatileKeys(0, expires, [len(VALUE)] * (keys + probes))
