"""Popularity rankings, recently viewed events and watchlists."""

from __future__ import annotations

import datetime as dt

import redis

from issue_clean import keys
from issue_clean.extensions import DAY, ttl

RECENT_LIMIT = 20
TOP = 10


def today() -> str:
    return dt.date.today().strftime("%Y%m%d")


class RankingService:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def record_view(self, user_id: int, event_id: int) -> None:
        ranking = keys.daily_ranking(today())
        recent = keys.recent(user_id)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.zincrby(ranking, 1, event_id)
            pipe.expire(ranking, ttl(3 * DAY))
            pipe.lrem(recent, 0, event_id)
            pipe.lpush(recent, event_id)
            pipe.ltrim(recent, 0, RECENT_LIMIT - 1)
            pipe.expire(recent, ttl(30 * DAY))
            pipe.execute()

    def top_events(self, day: str) -> list[tuple[bytes, float]]:
        return self.redis.zrevrange(keys.daily_ranking(day), 0, TOP - 1, withscores=True)

    def rank_of(self, day: str, event_id: int) -> int | None:
        return self.redis.zrevrank(keys.daily_ranking(day), event_id)

    def export_day(self, day: str) -> list[tuple[bytes, float]]:
        return self.redis.zrange(f"ranking:daily:{day}", 0, -1, withscores=True)  # error: CMD005

    def export_day_paged(self, day: str) -> list[tuple[bytes, float]]:
        rows: list[tuple[bytes, float]] = []
        for member, score in self.redis.zscan_iter(keys.daily_ranking(day), count=500):
            rows.append((member, score))
        return rows

    def reset_day(self, day: str) -> None:
        self.redis.delete(f"ranking:daily:{day}")  # error: CMD008

    def drop_day(self, day: str) -> None:
        self.redis.unlink(keys.daily_ranking(day))

    def recently_viewed(self, user_id: int) -> list[bytes]:
        return self.redis.lrange(keys.recent(user_id), 0, RECENT_LIMIT - 1)

    def feature_event(self, event_id: int) -> None:
        self.redis.set("event:featured:today", event_id)  # error: TTL008
        self.redis.expire("event:featured:today", DAY)


class Watchlist:
    def __init__(self, client: redis.Redis) -> None:
        self.redis = client

    def follow(self, user_id: int, event_id: int) -> None:
        key = keys.watchlist(user_id)
        self.redis.sadd(key, event_id)
        self.redis.expire(key, ttl(90 * DAY))

    def unfollow(self, user_id: int, event_id: int) -> None:
        self.redis.srem(keys.watchlist(user_id), event_id)

    def is_following(self, user_id: int, event_id: int) -> bool:
        return bool(self.redis.sismember(keys.watchlist(user_id), event_id))

    def events(self, user_id: int) -> set[bytes]:
        return self.redis.smembers(f"user:watchlist:{user_id}")  # error: CMD005

    def count(self, user_id: int) -> int:
        return self.redis.scard(keys.watchlist(user_id))

    def shared_interest(self, user_id: int, friend_id: int) -> list[bytes]:
        both = []
        for event_id in self.redis.sscan_iter(keys.watchlist(user_id), count=100):
            if self.redis.sismember(keys.watchlist(friend_id), event_id):
                both.append(event_id)
        return both
