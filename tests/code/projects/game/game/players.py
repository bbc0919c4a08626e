"""Player profiles (hashes) and display names (strings read in bulk by lobbies)."""

from __future__ import annotations

import random

from redis.cluster import RedisCluster

from .cluster import rc

NICK_TTL = 6 * 3600


def profile(player_id: int) -> list[bytes | None]:
    return rc.hmget(f"player:profile:{player_id}", ["name", "level", "avatar", "country"])


def full_profile(player_id: int) -> dict[bytes, bytes]:
    return rc.hgetall(f"player:profile:{player_id}")  # error: CMD005


def level_up(player_id: int) -> int:
    return int(rc.hincrby(f"player:profile:{player_id}", "level", 1))


def achievements(player_id: int) -> list[bytes | None]:
    return rc.hmget(f"player:achievements:{player_id}", [f"badge_{n}" for n in range(250)])  # error: BAT001


def reset_stats(player_id: int) -> None:
    rc.hset(f"player:stats:{player_id}", mapping={f"level_{n}": 0 for n in range(300)})  # error: BAT001


def nicknames(player_ids: list[int]) -> list[bytes | None]:
    return rc.mget_nonatomic([f"nick:{pid}" for pid in player_ids])


def lobby_nicknames(player_ids: list[int]) -> list[bytes | None]:
    names: list[bytes | None] = []
    for start in range(0, len(player_ids), 100):
        names += rc.mget_nonatomic([f"nick:{pid}" for pid in player_ids[start : start + 100]])
    return names


def featured_nicknames() -> list[bytes | None]:
    return rc.mget(["nick:1", "nick:2", "nick:3"])


def first_players_nicknames() -> list[bytes | None]:
    return rc.mget([f"nick:{pid}" for pid in range(1, 501)])  # error: BAT001


def display_names(player_ids: list[int]) -> list[bytes | None]:
    return rc.mget([f"nick:display:localized:{pid}" for pid in player_ids])  # error: KEY005


def set_nickname(player_id: int, name: str) -> None:
    rc.set(f"nick:{player_id}", name, ex=NICK_TTL + random.randint(0, 600))


def cache_nicknames(names: dict[int, str]) -> None:
    rc.mset_nonatomic({f"nick:{pid}": name for pid, name in names.items()})  # error: TTL006


def bot_profiles() -> list[bytes | None]:
    names = []
    for bot_id in range(1, 1001):
        names.append(rc.hget(f"player:profile:{bot_id}", "name"))  # error: BAT002
    return names


def online_status(player_id: int) -> bytes | None:
    return rc.get(f"player:status#{player_id}:online")  # error: KEY014, KEY016


def all_player_keys() -> list[bytes]:
    return rc.keys("player:profile:*", target_nodes=RedisCluster.ALL_NODES)  # error: CMD001


def profile_keys() -> list[bytes]:
    return list(rc.scan_iter(match="player:profile:*", count=1000))


def forget_players(player_ids: list[int]) -> None:
    for start in range(0, len(player_ids), 100):
        rc.unlink(*[f"nick:{pid}" for pid in player_ids[start : start + 100]])


def forget_bots() -> None:
    rc.delete(*[f"nick:{bot_id}" for bot_id in range(1, 301)])  # error: BAT001
