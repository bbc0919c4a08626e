"""A TTL with random jitter, and SET with one, so that keys written together do not expire together.

000 §Key 名字如何设计 — 过期 asks for a TTL on every key, with a random value added, above all on keys
written in bulk (flash sales, campaigns), "让过期时间分散一些"; 001 §2.3 requires an expiry on every key and
advises spreading expiry times; 003 §大批量Key过期引发的性能问题 — 方案1 shows why: a loop of
`SETEX cache:product:{i} 3600` makes a million keys expire in the same few seconds, and Redis deletes them in
one burst while every client misses the cache at once.

The jitter is added, never subtracted: a key lives at least the TTL it was given and at most
`base * (1 + jitter)`, as 000 says ("加上随机值") and as rediscipline's own TTL007 advises
(`ttl + random.randint(0, ttl // 10)`). 003's example spreads both ways (3600 ± 300); to get that, pass
`base * (1 - j)` and `2 * j / (1 - j)` as jitter.
"""

from __future__ import annotations

import math
import random
from datetime import timedelta
from typing import Any

from rediscipline.recipes.steps import Batch, Client, Key, Plan, run

#: The default share of the base TTL added at random (a tenth, as TTL007 suggests).
JITTER = 0.1

_RANDOM = random.Random()


def ttl_with_jitter(
    base_seconds: float | timedelta, jitter: float = JITTER, *, rng: random.Random | None = None
) -> int:
    """A TTL in whole seconds, drawn uniformly from `[base, base * (1 + jitter)]`, never below 1.

    `base_seconds` is a number of seconds (a fraction is rounded up) or a `timedelta`; `jitter` is the
    share of it that may be added (0.1: up to a tenth more; 0: the base itself). Every whole second of the
    range is equally likely, so a TTL of an hour spreads over 360 seconds; a TTL under ten seconds has no
    whole second to spread over with the default jitter (raise `jitter`, or give such keys a longer TTL).
    `rng` is the `random.Random` to draw from (the module's own by default; pass a seeded one to repeat a
    run). Raises ValueError for a base that is not a positive finite number or a negative jitter.

    Serves 000 §Key 名字如何设计 — 过期, 001 §2.3 and 003 §方案1: 设置随机过期时间.

    >>> ttl_with_jitter(3600) in range(3600, 3961)
    True
    """
    seconds = base_seconds.total_seconds() if isinstance(base_seconds, timedelta) else base_seconds
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise TypeError(f"base_seconds must be a number of seconds or a timedelta, not {type(seconds).__name__}")
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"base_seconds must be a positive number of seconds, not {seconds!r}")
    if isinstance(jitter, bool) or not isinstance(jitter, int | float) or not math.isfinite(jitter) or jitter < 0:
        raise ValueError(f"jitter must be a finite number >= 0, not {jitter!r}")
    low = max(1, math.ceil(seconds))
    high = max(low, math.floor(seconds * (1 + jitter)))
    return low if high == low else (rng or _RANDOM).randint(low, high)


def set_plan(key: Key, value: Any, ttl: float | timedelta, jitter: float) -> Plan[bool]:
    """SET key value EX <ttl with jitter>, in one command."""
    replies = yield Batch((("SET", key, value, "EX", ttl_with_jitter(ttl, jitter)),))
    return bool(replies[0])


def set_with_ttl(client: Client, key: Key, value: Any, ttl: float | timedelta, jitter: float = JITTER) -> bool:
    """`SET key value EX t` with `t = ttl_with_jitter(ttl, jitter)`: the key and its TTL in one command.

    The TTL is part of the SET itself (a SET followed by an EXPIRE leaves the key without a TTL when the
    client dies in between, and a SET alone clears the TTL an existing key had). `value` is what redis-py
    accepts (bytes, str, int, float). Returns True (the server's OK).

    Serves 000 §Key 名字如何设计 — 过期, 001 §2.3 and 003 §方案1: 设置随机过期时间.
    """
    return run(client, set_plan(key, value, ttl, jitter))
