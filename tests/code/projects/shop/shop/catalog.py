"""Product pages: details and prices come from the catalog API, cached in Redis."""

from __future__ import annotations

import json
import random
from typing import Any

import requests

from .extensions import cache, local_cache
from .keys import PRODUCT_TTL, price_key, product_key, review_count_key, stock_key

CATALOG_API = "http://catalog.internal/api/products/"


def get_product(product_id: int) -> dict[str, Any]:
    key = product_key(product_id)
    raw = cache.get(key)
    if raw is not None:
        return json.loads(raw)
    response = requests.get(f"{CATALOG_API}{product_id}", timeout=2)
    response.raise_for_status()
    product: dict[str, Any] = response.json()
    cache.set(key, json.dumps(product), ex=PRODUCT_TTL + random.randint(0, 300))
    return product


def get_products(product_ids: list[int]) -> list[bytes | None]:
    return cache.mget([product_key(pid) for pid in product_ids])


def get_price(product_id: int) -> float | None:
    cached = cache.get(price_key(product_id))
    if cached is not None:
        return float(cached)
    response = requests.get(f"{CATALOG_API}{product_id}/price", timeout=2)
    if response.status_code == 404:
        return None
    price = float(response.json()["amount"])
    cache.setex(price_key(product_id), 300, price)
    return price


def review_count(product_id: int) -> int:
    return int(cache.get(review_count_key(product_id)) or 0)  # error: KEY009


def warm_top_products() -> None:
    """Nightly job: preload the best sellers so the first visitors do not all miss the cache."""
    response = requests.get(f"{CATALOG_API}top", params={"limit": 500}, timeout=10)
    for product in response.json():
        cache.set(product_key(product["id"]), json.dumps(product), ex=PRODUCT_TTL)  # error: TTL007


def preload_stock_counters() -> None:
    """Create the counters of the 1000 warehouse slots before the sale opens."""
    pipe = cache.pipeline(transaction=False)
    for slot in range(1000):
        pipe.set(stock_key(f"slot{slot}"), 0)
    pipe.execute()  # error: BAT003


def reserve_stock(sku: str, quantity: int) -> bool:
    remaining = cache.decrby(stock_key(sku), quantity)
    if remaining < 0:
        cache.incrby(stock_key(sku), quantity)
        return False
    return True


def cached_product_ids() -> list[bytes]:
    """Admin page: which products are in the cache right now."""
    return [key.rsplit(b":", 1)[-1] for key in cache.keys("product:detail:*")]  # error: CMD001


def price_table(product_ids: list[int]) -> dict[int, float]:
    """Prices for a listing page; a request-local memo avoids asking twice for the same product."""
    cache: dict[int, float] = {}
    for pid in product_ids:
        if pid not in cache:
            cache[pid] = get_price(pid) or 0.0
    ordered = sorted(cache.keys())
    return {pid: cache[pid] for pid in ordered}


class PriceBook:
    """Prices in one currency: a per-instance dict in front of the Redis hash of that currency."""

    def __init__(self, currency: str) -> None:
        self.currency = currency
        self.cache: dict[int, float] = {}
        self.redis = cache

    def price(self, product_id: int) -> float | None:
        if product_id in self.cache:
            return self.cache[product_id]
        raw = self.redis.hget(f"product:prices:{self.currency}", product_id)
        if raw is None:
            return None
        self.cache[product_id] = float(raw)
        return self.cache.get(product_id)

    def all_prices(self) -> dict[bytes, bytes]:
        return self.redis.hgetall(f"product:prices:{self.currency}")  # error: CMD005

    def known_products(self) -> list[int]:
        return sorted(self.cache.keys())

    def forget(self) -> None:
        for product_id in list(self.cache.keys()):
            del self.cache[product_id]


def category_names() -> list[str]:
    names = local_cache.get("categories")
    if names is None:
        names = requests.get(f"{CATALOG_API}categories", timeout=2).json()
        local_cache["categories"] = names
    return list(names)  # type: ignore[call-overload]


def forget_local() -> None:
    for name in list(local_cache.keys()):
        local_cache.pop(name, None)
