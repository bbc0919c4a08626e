"""Live matches: state hash and roster set of one match share a hashtag, so they can change together."""

from __future__ import annotations

import random
import time

from .cluster import rc

MATCH_TTL = 2 * 3600
REGIONS = ("eu", "us", "asia")


def _state(match_id: str) -> str:
    return f"match:{{{match_id}}}:state"


def _roster(match_id: str) -> str:
    return f"match:{{{match_id}}}:roster"


def start_match(match_id: str, players: list[str]) -> None:
    pipe = rc.pipeline(transaction=True)  # error: CMD007
    pipe.hset(_state(match_id), mapping={"status": "running", "started": int(time.time())})
    pipe.sadd(_roster(match_id), *players)
    pipe.expire(_state(match_id), MATCH_TTL)  # a pipeline outside any loop: not a bulk write
    pipe.expire(_roster(match_id), MATCH_TTL)  # a pipeline outside any loop: not a bulk write
    pipe.execute()


def start_match_v2(match_id: str, players: list[str]) -> None:
    ttl = MATCH_TTL + random.randint(0, 600)
    pipe = rc.pipeline(transaction=False)
    pipe.hset(_state(match_id), mapping={"status": "running", "started": int(time.time())})
    pipe.sadd(_roster(match_id), *players)
    pipe.expire(_state(match_id), ttl)
    pipe.expire(_roster(match_id), ttl)
    pipe.execute()


def match_state(match_id: str) -> list[bytes | None]:
    return rc.hmget(_state(match_id), ["status", "started", "map"])


def roster(match_id: str) -> set[bytes]:
    return rc.smembers(_roster(match_id))  # error: CMD005


def is_in_match(match_id: str, player_id: str) -> bool:
    return bool(rc.sismember(_roster(match_id), player_id))


def score_event(match_id: str, player_id: str, points: int) -> None:
    rc.hincrby(f"match:{match_id}:score", player_id, points)  # error: KEY012, TTL006


def queue_sizes() -> list[int]:
    sizes = []
    for region in REGIONS:
        for tier in range(50):
            sizes.append(rc.llen(f"lobby:{region}:tier:{tier}"))  # error: BAT002
    return sizes


def join_lobby(region: str, tier: int, player_id: str) -> None:
    key = f"lobby:{region}:tier:{tier}"
    rc.rpush(key, player_id)
    rc.expire(key, 600 + random.randint(0, 60))


def next_player(region: str, tier: int) -> bytes | None:
    result = rc.blpop([f"lobby:{region}:tier:{tier}"], timeout=2)
    return result[1] if result else None
