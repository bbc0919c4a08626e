"""Leaderboards: one sorted set per season, week and day; score = points."""

from __future__ import annotations

import datetime

from .cluster import analytics_rc, rc

TOP = 100


def submit_score(season: int, player_id: int, points: float) -> None:
    rc.zadd(f"rank:season:{season}", {str(player_id): points}, gt=True)


def add_points(player_id: int, points: float) -> None:
    today = datetime.date.today()
    pipe = rc.pipeline(transaction=False)
    pipe.zincrby(f"rank:daily:{today:%Y%m%d}", points, str(player_id))
    pipe.zincrby(f"rank:weekly:{today:%G%V}", points, str(player_id))
    pipe.execute()


def top(season: int, count: int = TOP) -> list[tuple[bytes, float]]:
    return rc.zrevrange(f"rank:season:{season}", 0, count - 1, withscores=True)


def top_ten_today() -> list[tuple[bytes, float]]:
    return rc.zrevrange(f"rank:daily:{datetime.date.today():%Y%m%d}", 0, 9, withscores=True)


def full_board(season: int) -> list[tuple[bytes, float]]:
    return rc.zrevrange(f"rank:season:{season}", 0, -1, withscores=True)  # error: CMD005


def everyone(season: int) -> list[bytes]:
    return rc.zrange(f"rank:season:{season}", 0, -1)  # error: CMD005


def score_band(season: int, low: float, high: float) -> list[bytes]:
    return rc.zrangebyscore(f"rank:season:{season}", low, high, start=0, num=TOP)


def all_ranked(season: int) -> list[bytes]:
    return rc.zrangebyscore(f"rank:season:{season}", "-inf", "+inf")  # error: CMD005


def page(season: int, number: int) -> list[bytes]:
    return rc.zrange(f"rank:season:{season}", number * TOP, number * TOP + TOP - 1, desc=True)


def rank_of(season: int, player_id: int) -> int | None:
    return rc.zrevrank(f"rank:season:{season}", str(player_id))


def seed_bots(season: int) -> None:
    """Staging: fill a new season with bots so the board is not empty."""
    rc.zadd(f"rank:season:{season}", {f"bot_{n}": 0 for n in range(1000)})  # error: BAT001


def reset_day(day: datetime.date) -> None:
    rc.delete(f"rank:daily:{day:%Y%m%d}")  # error: CMD008


def archive_season(season: int) -> None:
    rc.unlink(f"rank:season:{season}")


def event_board() -> list[bytes]:
    return rc.zrevrange("rank:event:date:2024-11-22", 0, 49)  # error: KEY017


def friends_board(player_id: int) -> list[bytes]:
    return rc.zrevrange(f"rank:friends:sortedset:{player_id}", 0, 49)  # error: KEY016


def tournament_board(game_id: int) -> list[tuple[bytes, float]]:
    return rc.zrevrange(f"leaderboard:score:zset:game_id:{game_id}", 0, TOP - 1, withscores=True)


def nightly_export(season: int) -> list[tuple[bytes, float]]:
    """Analytics copies the board page by page."""
    rows: list[tuple[bytes, float]] = []
    for member, score in analytics_rc.zscan_iter(f"rank:season:{season}", count=500):
        rows.append((member, score))
    return rows
