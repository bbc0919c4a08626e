"""Connections of the game backend, created once at import and shared by every module of the process."""

from __future__ import annotations

import redis
import redis.asyncio
from redis.cluster import RedisCluster

from svc_gaming.settings import settings

_pool = redis.ConnectionPool.from_url(settings.REDIS_URL, max_connections=64)


def make_redis() -> redis.Redis:
    """A client on the shared pool: matchmaking, lobbies, quests and anti-cheat."""
    return redis.Redis(connection_pool=_pool)


#: Leaderboards outgrew one instance in season 9.
leaderboards = RedisCluster(host=settings.CLUSTER_HOST, port=settings.CLUSTER_PORT, read_from_replicas=True)

#: Presence is served by the asyncio websocket gateway.
presence_redis = redis.asyncio.Redis.from_url(settings.PRESENCE_REDIS_URL, health_check_interval=15)
