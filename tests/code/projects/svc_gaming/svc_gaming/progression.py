"""Leaderboards (on the cluster), daily quests and anti-cheat limits.

`python -m svc_gaming.progression` is the daily quest reset job, run by cron at 00:05 UTC.
"""

from __future__ import annotations

import json
import time
from datetime import date, timedelta

import redis
from redis.cluster import RedisCluster

from svc_gaming import keys
from svc_gaming.infra import leaderboards, make_redis
from svc_gaming.settings import settings

BOARD_TTL = 40 * 86400
FRIENDS_BOARD_TTL = 600
DAILY_TTL = 26 * 3600
STRIKE_TTL = 30 * 86400
REPORT_TTL = 14 * 86400
BUCKETS = 256


class Leaderboard:
    def __init__(self, cluster: RedisCluster, season: str) -> None:
        self.cluster = cluster
        self.season = season
        self.key = keys.season_board(season)

    def submit(self, player_id: str, score: float) -> None:
        self.cluster.zadd(self.key, {player_id: score}, gt=True)
        self.cluster.expire(self.key, BOARD_TTL)

    def top(self, n: int = 100) -> list[tuple[bytes, float]]:
        return self.cluster.zrange(self.key, 0, n - 1, desc=True, withscores=True)

    def around(self, player_id: str, radius: int = 5) -> list[tuple[bytes, float]]:
        rank = self.cluster.zrevrank(self.key, player_id)
        if rank is None:
            return []
        return self.cluster.zrange(self.key, max(rank - radius, 0), rank + radius, desc=True, withscores=True)

    def export(self) -> list[tuple[bytes, float]]:
        """End-of-season rewards: the CSV the live-ops team uploads to the reward service."""
        return self.cluster.zrange(self.key, 0, -1, desc=True, withscores=True)  # error: CMD005

    def friends_board(self, player_id: str, friend_scores: dict[str, float]) -> list[tuple[bytes, float]]:
        key = f"leaderboard:{{{self.season}:friends:{player_id}"
        self.cluster.zadd(key, friend_scores)  # error: KEY011
        self.cluster.expire(key, FRIENDS_BOARD_TTL)  # error: KEY011
        return self.cluster.zrange(key, 0, 19, desc=True, withscores=True)  # error: KEY011


season_board = Leaderboard(leaderboards, settings.SEASON)


# ---- anti-cheat ------------------------------------------------------------------------------------------


class RateLimiter:
    """Fixed-window limits on actions a cheat client spams (shots, trades, chat)."""

    def __init__(self, redis: redis.Redis) -> None:
        self.redis = redis

    def allow(self, player_id: str, action: str, limit: int, window: int) -> bool:
        key = keys.rate_key(action, player_id, int(time.time()) // window)
        pipe = self.redis.pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, window + 1)
        count, _ = pipe.execute()
        return int(count) <= limit

    def strike(self, player_id: str, reason: str) -> int:
        key = keys.strikes_key(player_id)
        strikes = self.redis.hincrby(key, reason, 1)
        self.redis.expire(key, STRIKE_TTL)
        return int(strikes)

    def report(self, player_id: str, match_id: str, evidence: dict[str, object]) -> None:
        key = f"anticheat:report:{player_id}@{match_id}"
        self.redis.set(key, json.dumps(evidence), ex=REPORT_TTL)  # error: KEY004

    def inventory_value(self, player_id: str) -> int:
        """A sudden jump in inventory value is the strongest signal of a duplication exploit."""
        # `plr`/`inv` next to a readable word pass the default "readable" abbreviation policy (KEY015)
        return int(self.redis.hget(f"plr:inv:{player_id}", "total_value") or 0)


# ---- daily quests ----------------------------------------------------------------------------------------


def reset_daily_quests(r: redis.Redis, today: date, quests: list[str]) -> None:
    yesterday = today - timedelta(days=1)
    r.delete(*[f"quest:daily:{yesterday:%Y%m%d}#{bucket}" for bucket in range(BUCKETS)])  # error: BAT001, CMD008
    pipe = r.pipeline(transaction=False)
    for bucket in range(BUCKETS):
        key = f"quest:daily:{today:%Y%m%d}#{bucket}"
        pipe.sadd(key, *quests)
        pipe.expire(key, DAILY_TTL)  # error: TTL007
    pipe.execute()  # error: BAT003


def wipe_progress(r: redis.Redis) -> int:
    wiped = 0
    for key in r.scan_iter(match="quest:progress:*"):  # error: CMD010
        # a key from scan_iter(match=...) has no template: its namespace is not known (left to the runtime guard)
        r.delete(key)
        wiped += 1
    return wiped


def players_with_progress(r: redis.Redis) -> int:
    return len(r.keys("quest:progress:*"))  # error: CMD001


def record_progress(r: redis.Redis, player_id: str, quest: str, amount: int) -> None:
    key = f"quest:progress:{date.today():%Y%m%d}:{player_id}"
    r.hincrby(key, quest, amount)
    r.expire(key, DAILY_TTL)


def reset_staging(r: redis.Redis) -> None:
    """Staging gets a clean slate every night; ASYNC keeps the instance responsive meanwhile."""
    r.flushdb(asynchronous=True)


if __name__ == "__main__":
    client = make_redis()
    with open("quests.json", encoding="utf-8") as handle:
        todays = json.load(handle)["daily"]
    reset_daily_quests(client, date.today(), todays)
    wipe_progress(client)
