"""Autocomplete: every prefix of a product title points to a small sorted set of suggestions.

The service receives its client in the constructor (the API passes the shared async cache, tests pass a
fake), so nothing here opens a connection of its own.
"""

from __future__ import annotations

import random
from datetime import date

from redis.asyncio import Redis

from svc_search import keys

PREFIX_TTL = 6 * 3600
POPULARITY_TTL = 8 * 86400
HISTORY_TTL = 7 * 86400
HISTORY_LENGTH = 20
SUGGESTIONS_KEPT = 50
MAX_PREFIX = 20


class Autocomplete:
    def __init__(self, cache: Redis, locale: str = "en") -> None:
        self.cache = cache
        self.locale = locale

    # ---- suggestions ---------------------------------------------------------------------------------

    async def index_term(self, term: str, weight: float) -> None:
        """Add `term` under each of its prefixes and keep only the best SUGGESTIONS_KEPT per prefix."""
        ttl = PREFIX_TTL + random.randint(0, PREFIX_TTL // 10)
        pipe = self.cache.pipeline(transaction=False)
        for end in range(1, min(len(term), MAX_PREFIX) + 1):
            key = keys.prefix_key(self.locale, term[:end].lower())
            pipe.zadd(key, {term: weight})
            pipe.zremrangebyrank(key, 0, -(SUGGESTIONS_KEPT + 1))
            pipe.expire(key, ttl)
        await pipe.execute()

    async def suggest(self, prefix: str, limit: int = 10) -> list[str]:
        key = keys.prefix_key(self.locale, prefix.lower())
        members = await self.cache.zrange(key, 0, limit - 1, desc=True)
        return [member.decode() for member in members]

    async def all_suggestions(self, prefix: str) -> list[bytes]:
        """The merchandising console's 'show everything' button."""
        return await self.cache.zrange(keys.prefix_key(self.locale, prefix.lower()), 0, -1)  # error: CMD005

    async def suggest_in_category(self, category_id: int, prefix: str) -> list[bytes]:
        key = f"search:prefix:{self.locale}::{category_id}:{prefix.lower()}"
        return await self.cache.zrange(key, 0, 9, desc=True)  # error: KEY009

    async def legacy_suggest(self, prefix: str) -> list[bytes]:
        """Mobile apps older than 5.0 still read the v1 index until they are gone."""
        return await self.cache.zrange(f"autocomplete:{prefix.lower()}", 0, 9, desc=True)  # error: KEY018

    # ---- popularity ----------------------------------------------------------------------------------

    async def count_search(self, term: str) -> None:
        key = keys.popularity_key(date.today())
        pipe = self.cache.pipeline(transaction=False)
        pipe.zincrby(key, 1, term.lower())
        pipe.expire(key, POPULARITY_TTL)
        await pipe.execute()

    async def top_terms(self, n: int = 20) -> list[tuple[bytes, float]]:
        return await self.cache.zrange(keys.popularity_key(date.today()), 0, n - 1, desc=True, withscores=True)

    async def hot_terms_zh(self) -> list[bytes]:
        """The Chinese storefront's 热词 box, filled by the merchandising team."""
        return await self.cache.zrange(keys.HOT_TERMS_ZH, 0, 9, desc=True)  # error: KEY002

    # ---- session history -----------------------------------------------------------------------------

    async def remember(self, session_id: str, query: str) -> None:
        key = keys.history_key(session_id)
        pipe = self.cache.pipeline(transaction=False)
        pipe.lpush(key, query)
        pipe.ltrim(key, 0, HISTORY_LENGTH - 1)
        pipe.expire(key, HISTORY_TTL)
        await pipe.execute()

    async def history(self, session_id: str) -> list[str]:
        items = await self.cache.lrange(keys.history_key(session_id), 0, -1)  # error: CMD005
        return [item.decode() for item in items]

    async def forget(self, session_id: str) -> None:
        """GDPR 'clear my search history'."""
        await self.cache.delete(keys.history_key(session_id))  # error: CMD008
