"""Django settings of the portal: two django-redis caches (pages and sessions) on the same server."""

from __future__ import annotations

import os

REDIS_URL = os.environ.get("REDIS_URL", "redis://localhost:6379")

CACHES = {
    "default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": f"{REDIS_URL}/0",
        "TIMEOUT": 300,
        "OPTIONS": {"CLIENT_CLASS": "django_redis.client.DefaultClient", "SOCKET_TIMEOUT": 2},
    },
    "sessions": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": f"{REDIS_URL}/0",
        "KEY_PREFIX": "portal",
    },
}

SESSION_ENGINE = "dj_portal.sessions"
SESSION_COOKIE_AGE = 2 * 3600

#: scope -> (requests, window in seconds)
RATE_LIMITS = {"login": (5, 60), "api": (120, 60), "comment": (10, 300)}
