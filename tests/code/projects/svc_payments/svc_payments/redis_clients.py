"""Every Redis connection the payments service opens, created once per process and imported elsewhere."""

from __future__ import annotations

from functools import lru_cache

import redis

from svc_payments.settings import settings

#: The API nodes' client: wallets, idempotency records, fraud counters.
redis_client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, health_check_interval=30)

# The ledger streams live on the shared finance instance, where the DBA team gave us database 2.
ledger_client = redis.StrictRedis(host=settings.LEDGER_HOST, port=settings.LEDGER_PORT, db=2)  # error: CMD006

_webhook_pool = redis.ConnectionPool.from_url(settings.WEBHOOK_REDIS_URL, max_connections=20)


@lru_cache(maxsize=1)
def get_redis() -> redis.Redis:
    """The Celery workers' client, created lazily so each forked worker builds its own connections."""
    return redis.Redis(connection_pool=_webhook_pool)


def healthy() -> bool:
    """Readiness probe of the API pods."""
    try:
        return bool(redis_client.ping()) and bool(ledger_client.ping())
    except redis.RedisError:
        return False
