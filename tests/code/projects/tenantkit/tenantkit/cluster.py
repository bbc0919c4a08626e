"""TenantCluster: the search index of all tenants, on a Redis Cluster."""

from __future__ import annotations

import os

from redis.cluster import RedisCluster

CLUSTER_URL = os.environ.get("TENANT_CLUSTER_URL", "redis://localhost:7000")
INDEX_TTL = 6 * 3600


class TenantCluster(RedisCluster):
    def index_word(self, tenant: str, word: str, doc_id: str) -> None:
        key = f"{tenant}:index:{word}"
        self.sadd(key, doc_id)
        self.expire(key, INDEX_TTL)

    def lookup(self, tenant: str, word: str) -> set[bytes]:
        return self.smembers(f"{tenant}:index:{word}")  # error: CMD005

    def lookup_some(self, tenant: str, word: str, n: int = 50) -> list[bytes]:
        return self.srandmember(f"{tenant}:index:{word}", n)

    def drop_index(self) -> None:
        for key in self.keys("*:index:*", target_nodes=RedisCluster.PRIMARIES):  # error: CMD001
            self.unlink(key)

    def reset_all(self) -> None:
        self.flushall(target_nodes=RedisCluster.ALL_NODES)  # error: CMD002


def connect_cluster(url: str = CLUSTER_URL) -> TenantCluster:
    return TenantCluster.from_url(url, socket_timeout=2)


def index_document(tenant: str, doc_id: str, words: list[str]) -> None:
    cluster = connect_cluster()
    for word in words:
        cluster.index_word(tenant, word, doc_id)
    cluster.incr(f"{tenant}:index:documents")  # error: TTL006
