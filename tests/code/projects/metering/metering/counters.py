"""Usage counters: a hash per customer and day, running totals, quotas and the ranking of heavy users."""

from __future__ import annotations

import random

from .store import get_redis, meter_key, today

DAY_TTL = 35 * 86400
RANK_TTL = 8 * 86400


def record(customer: str, metric: str, amount: int = 1) -> None:
    r = get_redis()
    key = meter_key(customer, today())
    r.hincrby(key, metric, amount)  # error: TTL006
    r.hincrby(key, "events", 1)
    r.hset(key, "last_metric", metric)


def record_with_ttl(customer: str, metric: str, amount: int = 1) -> None:
    r = get_redis()
    key = meter_key(customer, today())
    pipe = r.pipeline(transaction=False)
    pipe.hincrby(key, metric, amount).expire(key, DAY_TTL)
    pipe.hincrby(key, "events", 1)
    pipe.execute()


def record_burst(customer: str, amount: int, short_lived: bool) -> None:
    r = get_redis()
    key = f"meter:{customer}:burst"
    pipe = r.pipeline(transaction=False)
    pipe.incrby(key, amount)
    pipe.expire(key, 60) if short_lived else pipe.expire(key, 3600)
    pipe.execute()


def add_total(customer: str, amount: int) -> int:
    r = get_redis()
    return int(r.incrby(f"meter:{customer}:total", amount))  # error: TTL006


def consume_quota(customer: str, limit: int) -> bool:
    r = get_redis()
    key = f"quota:{customer}:{today()}"
    used = r.incr(key)
    if used == 1:
        r.expire(key, 86400)
    return int(used) <= limit


def mark_reported(customer: str, day: str) -> None:
    r = get_redis()
    key = f"meter:{customer}:{day}:reported"
    r.set(key, 1)  # error: TTL008
    r.expire(key, DAY_TTL)


def enter_ranking(customer: str, amount: float) -> None:
    r = get_redis()
    key = f"rank:usage:{today()}"
    r.zadd(key, {customer: amount}, nx=True)  # error: TTL006


def bump_ranking(customer: str, amount: float) -> None:
    """Customers already ranked today move up; ZADD XX never creates the ranking."""
    r = get_redis()
    r.zadd(f"rank:usage:{today()}", {customer: amount}, xx=True)


def enter_ranking_with_ttl(customer: str, amount: float) -> None:
    r = get_redis()
    key = f"rank:usage:{today()}"
    r.zadd(key, {customer: amount})
    r.expire(key, RANK_TTL + random.randint(0, 3600))


def top_customers(n: int = 10) -> list[tuple[bytes, float]]:
    return get_redis().zrevrange(f"rank:usage:{today()}", 0, n - 1, withscores=True)


def seeded_scores() -> list[float | None]:
    """Scores of the 500 synthetic customers the load test seeds."""
    r = get_redis()
    key = f"rank:usage:{today()}"
    scores = []
    for n in range(500):
        scores.append(r.zscore(key, f"customer_{n}"))  # error: BAT002
    return scores
