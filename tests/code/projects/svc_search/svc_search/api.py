"""The search HTTP API (FastAPI). Handlers get the shared async cache through dependency injection."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from typing import Annotated, Any

from catalog.search import render_category, run_search
from fastapi import APIRouter, Depends, Header, HTTPException, Query
from redis.asyncio import Redis

from svc_search import keys
from svc_search.autocomplete import Autocomplete
from svc_search.cache import analytics, get_cache
from svc_search.config import settings

router = APIRouter(prefix="/search")
Cache = Annotated[Redis, Depends(get_cache)]
STATS_TTL = 40 * 86400


def _digest(locale: str, q: str) -> str:
    return hashlib.sha1(f"{locale}|{q}".encode(), usedforsecurity=False).hexdigest()


async def _count(day_key: str) -> None:
    pipe = analytics.pipeline(transaction=False)
    pipe.incr(day_key)
    pipe.expire(day_key, STATS_TTL)
    await pipe.execute()


@router.get("/")
async def search(q: str, cache: Cache, locale: str = settings.DEFAULT_LOCALE) -> dict[str, Any]:
    key = keys.query_key(locale, _digest(locale, q))
    cached = await cache.get(key)
    if cached is not None:
        return dict(json.loads(cached))
    result = await run_search(q, locale)
    await cache.set(key, json.dumps(result), ex=settings.QUERY_CACHE_TTL)
    await Autocomplete(cache, locale).count_search(q)
    await _count(keys.stats_key(date.today()))
    return result


@router.get("/v2")
async def search_v2(q: str, cache: Cache, locale: str = settings.DEFAULT_LOCALE) -> dict[str, Any]:
    key = f"search:query:v2:{locale}:{_digest(locale, q)}"
    cached = await cache.get(key)
    if cached is not None:
        return dict(json.loads(cached))
    result = await run_search(q, locale, ranking="v2")
    await cache.set(key, json.dumps(result))  # error: TTL006
    return result


@router.get("/suggest")
async def suggest(prefix: str, cache: Cache, locale: str = settings.DEFAULT_LOCALE) -> list[str]:
    return await Autocomplete(cache, locale).suggest(prefix)


@router.get("/suggest/zh")
async def suggest_zh(prefix: str, cache: Cache) -> list[bytes]:
    return await cache.zrange(keys.ZH_PREFIX.format(prefix=prefix), 0, 9, desc=True)  # error: KEY006


@router.get("/category/{category_id}")
async def category_page(category_id: int, cache: Cache, locale: str = settings.DEFAULT_LOCALE) -> str:
    key = f"search:query:{locale}:rendered_category_listing_page_with_facets_and_sponsored_placements_for_mobile_web_clients:{category_id}"  # noqa: E501
    cached = await cache.get(key)  # error: KEY005, KEY015
    if cached is not None:
        return cached.decode()
    html = await render_category(category_id, locale)
    await cache.set(key, html, ex=settings.QUERY_CACHE_TTL)  # error: KEY005, KEY015
    return html


@router.get("/facets/{category_id}")
async def facets(category_id: int, cache: Cache) -> list[str]:
    brands = await cache.smembers(keys.facet_key(category_id, "brand"))  # error: CMD005
    return sorted(brand.decode() for brand in brands)


@router.get("/facets")
async def merged_facets(cache: Cache, category: Annotated[list[int], Query()]) -> list[str]:
    brands = await cache.sunion([keys.facet_key(category_id, "brand") for category_id in category])  # error: CMD005
    return sorted(brand.decode() for brand in brands)


@router.get("/products/{product_id}")
async def product_card(product_id: int, cache: Cache) -> dict[str, str | None]:
    fields = ["title", "price", "image", "rating"]
    values = await cache.hmget(keys.product_key(product_id), fields)
    return {field: value.decode() if value else None for field, value in zip(fields, values, strict=True)}


@router.get("/products/{product_id}/attributes")
async def product_attributes(product_id: int, cache: Cache) -> list[str]:
    values = await cache.hvals(keys.product_key(product_id))  # error: CMD005
    return [value.decode() for value in values]


@router.get("/history/{session_id}")
async def recent_searches(session_id: str, cache: Cache) -> list[str]:
    items = await cache.lrange(f"search:history:{{{session_id}}}", 0, 9)  # error: KEY012
    return [item.decode() for item in items]


# ---- admin endpoints (behind the ops token) --------------------------------------------------------------


def _admin(token: Annotated[str, Header(alias="X-Admin-Token")]) -> None:
    if not settings.ADMIN_TOKEN or token != settings.ADMIN_TOKEN:
        raise HTTPException(status_code=403)


Admin = Annotated[None, Depends(_admin)]


@router.post("/admin/invalidate")
async def invalidate_locale(locale: str, cache: Cache, _: Admin) -> int:
    stale = await cache.keys(f"search:query:{locale}:*")  # error: CMD001
    if not stale:
        return 0
    return int(await cache.unlink(*stale))


@router.post("/admin/flush")
async def flush_everything(cache: Cache, _: Admin) -> None:
    await cache.flushall()  # error: CMD002


@router.post("/admin/lru")
async def switch_to_lru(cache: Cache, _: Admin) -> None:
    """Used once during the 2024 memory incident; kept 'in case'."""
    await cache.config_set("maxmemory-policy", "allkeys-lru")  # error: CMD004
