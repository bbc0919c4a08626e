"""The shared Redis client and the key builders every crawler module uses."""

from __future__ import annotations

import hashlib
import os
import random

import redis

CRAWL_PREFIX = "crawl:"
SEEN_TTL = 7 * 86400
PAGE_TTL = 3 * 86400


def get_client() -> redis.Redis:
    """One client per process; the URL names database 0 (crawler data never shares an instance)."""
    return redis.Redis.from_url(os.environ.get("CRAWLER_REDIS_URL", "redis://localhost:6379/0"))


def seen_key(crawl_id: str) -> str:
    return f"crawl:seen:{crawl_id}"


def queue_key(domain: str) -> str:
    return f"crawl:queue:{domain}"


def page_key(domain: str, url_hash: str) -> str:
    return f"crawl:page:{domain}:{url_hash}"


def url_hash(url: str) -> str:
    return hashlib.sha1(url.encode("utf-8")).hexdigest()[:16]


def jitter(ttl: int) -> int:
    return ttl + random.randint(0, ttl // 10)
