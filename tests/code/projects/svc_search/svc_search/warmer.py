"""`manage.py warm_search`: fill the search cache from the product catalogue before traffic arrives.

Runs from cron after each catalogue import (about 40k active products). Synchronous, like every Django
management command; it opens its own client from the Django settings.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from datetime import date
from typing import Any

import redis
from catalog.models import Category, Product
from catalog.search import render_category_sync, top_queries
from django.conf import settings
from django.core.management.base import BaseCommand

from svc_search import keys

PRODUCT_TTL = 12 * 3600
QUERY_TTL = 3600
FACET_TTL = 12 * 3600
POPULARITY_TTL = 8 * 86400
FLUSH_EVERY = 100

DECAY_LUA = """
local members = redis.call('zrange', KEYS[1], 0, -1, 'WITHSCORES')
for i = 1, #members, 2 do
    redis.call('zadd', KEYS[1], tonumber(members[i + 1]) * tonumber(ARGV[1]), members[i])
end
return #members / 2
"""


class Command(BaseCommand):
    help = "Warm the search caches from the product catalogue."

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.redis = redis.StrictRedis.from_url(settings.SEARCH_REDIS_URL, socket_timeout=10)

    def handle(self, *args: Any, **options: Any) -> None:
        self.warm_products()
        self.warm_facets()
        self.warm_top_queries()
        self.warm_category_pages()
        self.decay_popularity()
        self.purge_expired_queries()
        self.redis.set(keys.WARMER_LAST_RUN, int(time.time()))  # error: TTL006

    def warm_products(self) -> None:
        pipe = self.redis.pipeline(transaction=False)
        queued = 0
        for product in Product.objects.filter(active=True).iterator(chunk_size=500):
            key = keys.product_key(product.pk)
            pipe.hset(key, mapping=product.search_card())
            pipe.expire(key, PRODUCT_TTL)  # error: TTL007
            queued += 2
            if queued >= FLUSH_EVERY:
                pipe.execute()
                queued = 0
        pipe.execute()

    def warm_facets(self) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for category in Category.objects.all():
            brands = list(category.brand_names())
            if not brands:
                continue
            key = keys.facet_key(category.pk, "brand")
            pipe.sadd(key, *brands)
            pipe.expire(key, FACET_TTL + random.randint(0, 1800))
        pipe.execute()

    def warm_top_queries(self) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for locale, query, payload in top_queries(limit=150):
            digest = hashlib.sha1(f"{locale}|{query}".encode(), usedforsecurity=False).hexdigest()
            pipe.set(keys.query_key(locale, digest), json.dumps(payload), ex=QUERY_TTL)  # error: TTL007
        pipe.execute()

    def warm_category_pages(self) -> None:
        """The first 1000 category listing pages, unless the API already cached them."""
        cached = self.redis.mget([f"search:query:category:{page}" for page in range(1000)])  # error: BAT001
        for page in range(1000):
            if cached[page] is not None:
                continue
            body = render_category_sync(page)
            ttl = QUERY_TTL + random.randint(0, 600)
            self.redis.set(f"search:query:category:{page}", body, ex=ttl)  # error: BAT002

    def seed_popular_terms(self, seed_terms: list[str]) -> None:
        """A new storefront starts from the marketing team's list of 500 terms."""
        key = keys.popularity_key(date.today())
        pipe = self.redis.pipeline(transaction=False)
        for rank in range(500):
            pipe.zadd(key, {seed_terms[rank]: 500 - rank})
        pipe.expire(key, POPULARITY_TTL)
        pipe.execute()  # error: BAT003

    def decay_popularity(self) -> None:
        key = keys.popularity_key(date.today())
        self.redis.eval(DECAY_LUA, 1, key, "0.95")  # error: CMD009

    def purge_expired_queries(self) -> int:
        """Query results written without a TTL by the v2 endpoint."""
        removed = 0
        for key in self.redis.scan_iter(match="search:query:*"):  # error: CMD010
            if self.redis.ttl(key) == -1:
                removed += self.redis.unlink(key)
        return removed

    def invalidate_locale(self, locale: str) -> int:
        removed = 0
        batch: list[bytes] = []
        for key in self.redis.scan_iter(match=f"search:query:{locale}:*", count=1000):
            batch.append(key)
            if len(batch) == 500:
                removed += self.redis.unlink(*batch)
                batch.clear()
        if batch:
            removed += self.redis.unlink(*batch)
        return removed
