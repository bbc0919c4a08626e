"""Read-through caching for slow lookups (tax rates, FX rates, plan catalogues).

`@cached(ttl=...)` keeps a function's JSON result in Redis; small hot values also live in a per-process
dict so a burst of requests for the same plan does not even reach Redis.
"""

from __future__ import annotations

import collections
import functools
import json
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

import memcache
from redis import Redis

from billing.settings import client

F = TypeVar("F", bound=Callable[..., Any])

_LOCAL_MAX = 512
_local: collections.OrderedDict[str, tuple[float, Any]] = collections.OrderedDict()

# The old PHP front end still reads rendered invoices from memcached; keep writing them there too.
_memcached = memcache.Client(["127.0.0.1:11211"])


def cached(ttl: int | None = None) -> Callable[[F], F]:
    """Cache the JSON-serialisable result of `fn(*args)` under `billing:cache:<fn>:<args>`."""

    def decorator(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args: Any) -> Any:
            key = f"billing:cache:{fn.__name__}:" + ":".join(str(arg) for arg in args)
            hit = client.get(key)
            if hit is not None:
                return json.loads(hit)
            value = fn(*args)
            payload = json.dumps(value)
            if ttl:
                client.set(key, payload, ex=ttl + random.randint(0, 60))
            else:
                client.set(key, payload)  # error: TTL006
            return value

        return wrapper  # type: ignore[return-value]

    return decorator


def local_get(name: str, max_age: float = 5.0) -> Any:
    """The per-process copy, if younger than `max_age` seconds (an OrderedDict used as an LRU)."""
    entry = _local.get(name)
    if entry is None or time.monotonic() - entry[0] > max_age:
        return None
    _local.move_to_end(name)
    return entry[1]


def local_set(name: str, value: Any) -> None:
    _local[name] = (time.monotonic(), value)
    _local.move_to_end(name)
    while len(_local) > _LOCAL_MAX:
        _local.popitem(last=False)


def local_names() -> list[str]:
    return list(_local.keys())


def publish_rendered(invoice_id: str, html: str) -> None:
    """memcached's set takes the expiry as its third argument; this is not Redis."""
    _memcached.set(f"invoice:html:{invoice_id}", html, 3600)
    _memcached.delete(f"invoice:draft:{invoice_id}")


def rate_lookup(redis: Redis) -> Callable[[str], Any]:
    """HGET of one currency from the FX table, bound once (`lookup("EUR")`)."""
    return functools.partial(redis.hget, "billing:currency:rates")


def usage_meter(redis: Redis, account: str) -> Callable[[int], int]:
    """A closure counting an account's billable units for today (000 §所有场景: EXPIRE only on the first INCR)."""
    key = f"billing:meter:{account}:" + time.strftime("%Y%m%d")

    def record(units: int) -> int:
        total = int(redis.incrby(key, units))
        if total == units:
            redis.expire(key, 2 * 86400)
        return total

    return record


def seen_marker(redis: Redis, run_id: str) -> Callable[[int], bool]:
    """A closure remembering which invoice numbers a billing run has already issued."""

    def mark(invoice_number: int) -> bool:
        before = redis.setbit(f"billing:issued:{run_id}", invoice_number, 1)  # error: TTL006
        return not before

    return mark


@cached(ttl=6 * 3600)
def plan_catalogue(region: str) -> dict[str, Any]:
    with open(f"/etc/billing/plans-{region}.json", encoding="utf-8") as fh:
        return dict(json.load(fh))


@cached()
def legal_entity(country: str) -> dict[str, str]:
    with open(f"/etc/billing/entities/{country}.json", encoding="utf-8") as fh:
        return dict(json.load(fh))
