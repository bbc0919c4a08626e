"""Connections: the telemetry cluster (six shards) and the small standalone limiter instance.

Keys of one device share a hashtag, so a device's multi-key operations stay on one slot.
"""

from __future__ import annotations

import os

import redis
from redis.cluster import ClusterNode, RedisCluster

CLUSTER_NODES = [node for node in os.environ.get("TELEMETRY_NODES", "localhost:7000").split(",") if node]
#: Ops gave us database 1 on the shared limiter box.
LIMITER_URL = "redis://limiter.internal:6379/1"


def make_cluster() -> RedisCluster:
    """One client per process; it learns the slot map from any reachable node."""
    nodes = [ClusterNode(host, int(port)) for host, port in (node.split(":") for node in CLUSTER_NODES)]
    return RedisCluster(startup_nodes=nodes, socket_timeout=2.0, retry_on_timeout=True)


cluster = make_cluster()

limiter = redis.Redis.from_url(LIMITER_URL, socket_timeout=0.5)  # error: CMD006
