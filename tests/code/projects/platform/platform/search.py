"""Search: Postgres is the truth, Elasticsearch the index, Django's cache the result cache.

Django's cache is backed by django-redis, so `cache.keys()` and `cache.ttl()` do reach Redis, but through
Django's cache API, not through redis-py calls of this code. `get_redis_connection()` hands out the raw
redis-py client, used for the popular-query ranking.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.cache import cache, caches
from django_redis import get_redis_connection
from elasticsearch import helpers
from sqlalchemy import delete, select

from .clients import SessionLocal, es
from .models import Document, SavedSearch

RESULT_TTL = 120


def find(query: str, user_id: int, size: int = 20) -> list[dict[str, Any]]:
    cache_key = f"search:result:{user_id}:{hash(query) & 0xFFFFFFFF}"
    hit = cache.get(cache_key)
    if hit is not None:
        return hit
    response = es.search(index="documents", query={"match": {"body": query}}, size=size)
    hits = [h["_source"] for h in response["hits"]["hits"]]
    cache.set(cache_key, hits, timeout=RESULT_TTL)
    record_query(query)
    remember_last_query(user_id, query)
    return hits


def record_query(query: str) -> None:
    con = get_redis_connection("default")
    con.zincrby("search:popular", 1, query.strip().lower())  # error: TTL006


def popular(n: int = 10) -> list[tuple[bytes, float]]:
    con = get_redis_connection("default")
    return con.zrevrange("search:popular", 0, n - 1, withscores=True)


def remember_last_query(user_id: int, query: str) -> None:
    con = get_redis_connection("default")
    con.set(f"search:lastQuery:{user_id}", query, ex=86400)  # error: KEY007


def forget_user(user_id: int) -> None:
    con = get_redis_connection("default")
    for key in con.scan_iter(match=f"search:result:{user_id}:*"):  # error: CMD010
        con.unlink(key)
    cache.delete_many([f"search:result:{user_id}:{n}" for n in range(3)])
    with SessionLocal() as session:
        session.execute(delete(SavedSearch).where(SavedSearch.user_id == user_id))
        session.commit()


def cached_result_keys() -> list[str]:
    """django-redis' own KEYS helper, used by the admin page; its cost is Django's to document."""
    names = cache.keys("search:result:*")
    expiring = [name for name in names if cache.ttl(name) and cache.ttl(name) < 10]
    for name in expiring:
        cache.persist(name)
    cache.delete_pattern("search:tmp:*")
    return names


def result_stats() -> dict[str, int]:
    stats = cache.get_many(["search:hits", "search:misses"])
    cache.set_many({name: 0 for name in ("search:hits", "search:misses") if name not in stats}, timeout=None)
    caches["default"].incr("search:stats:reads")
    return {name: int(value) for name, value in stats.items()}


def reindex(doc_ids: list[int]) -> int:
    """Rebuild index entries from Postgres; Elasticsearch's mget and delete are not Redis commands."""
    found = es.mget(index="documents", ids=[str(i) for i in doc_ids[:500]])
    present = {d["_id"] for d in found["docs"] if d.get("found")}
    indexed = 0
    with SessionLocal() as session:
        for doc in session.scalars(select(Document).where(Document.id.in_(doc_ids))):
            if str(doc.id) in present:
                es.update(index="documents", id=str(doc.id), doc={"body": doc.body})
            else:
                es.index(index="documents", id=str(doc.id), document={"body": doc.body})
            indexed += 1
        for stale in session.scalars(select(Document).where(Document.deleted.is_(True))):
            es.delete(index="documents", id=str(stale.id))
            session.delete(stale)
        session.commit()
    return indexed


def export_index(path: str) -> int:
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for hit in helpers.scan(es, index="documents", query={"query": {"match_all": {}}}, size=500):
            out.write(json.dumps(hit["_source"]) + "\n")
            count += 1
    if es.exists(index="documents-archive"):
        es.indices.delete(index="documents-archive")
    return count


def document(doc_id: int) -> Document | None:
    with SessionLocal() as session:
        doc = session.get(Document, doc_id)
        if doc is None:
            return None
        return doc if es.exists(index="documents", id=str(doc_id)) else None
