"""The cluster client, shared by every service module."""

from __future__ import annotations

import os

from redis.cluster import ClusterNode, RedisCluster

NODES = os.environ.get("GAME_REDIS_NODES", "game-redis-0:6379,game-redis-1:6379,game-redis-2:6379")

rc = RedisCluster(
    startup_nodes=[ClusterNode(*node.split(":")) for node in NODES.split(",")],
    read_from_replicas=True,
    socket_timeout=0.3,
)

#: Analytics jobs read from a separate, smaller cluster.
analytics_rc = RedisCluster.from_url(os.environ.get("GAME_ANALYTICS_URL", "redis://game-analytics-0:6379"))
