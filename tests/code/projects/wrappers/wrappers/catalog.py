"""Product pages and rankings: a cache-layer subclass that adds the sorted sets the catalog needs.

`CatalogCache` extends RedisCache from another module and reaches for `self._r` directly for the
rankings, which the base layer does not wrap. Page caching goes through the tagged singleton.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from pathlib import Path

from .cache import DEFAULT_TTL, RedisCache, tagged
from .local import LocalCache

TOP_SELLERS = "catalog:topSellers"
VIEWS = "catalog:views:daily"
RANK_TTL = 7 * 86400


class CatalogCache(RedisCache):
    """Rankings kept next to the cached pages."""

    def record_sale(self, sku: str, quantity: int = 1) -> None:
        self._r.zincrby(TOP_SELLERS, quantity, sku)  # error: KEY007, TTL006

    def record_view(self, sku: str) -> None:
        self._r.zincrby(VIEWS, 1, sku)
        self._r.expire(VIEWS, RANK_TTL + random.randint(0, 3600))

    def top(self, n: int = 10) -> list[tuple[bytes, float]]:
        return self._r.zrevrange(TOP_SELLERS, 0, n - 1, withscores=True)  # error: KEY007

    def all_ranked(self) -> list[bytes]:
        return self._r.zrange(TOP_SELLERS, 0, -1)  # error: KEY007, CMD005

    def most_viewed(self, n: int = 20) -> list[tuple[bytes, float]]:
        return self._r.zrevrange(VIEWS, 0, n - 1, withscores=True)

    def reset_rankings(self) -> None:
        self._r.unlink(TOP_SELLERS, VIEWS)  # error: KEY007


catalog_cache = CatalogCache("redis://localhost:6379/0", default_ttl=DEFAULT_TTL)
fallback = LocalCache()


def render(sku: str) -> str:
    template = Path(__file__).with_name("product.html")
    return template.read_text(encoding="utf-8").replace("{{sku}}", sku) if template.exists() else sku


def product_page(sku: str) -> str:
    page = tagged.get(f"page:product:{sku}")
    if page is None:
        page = render(sku)
        tagged.set(f"page:product:{sku}", page, ttl=300)
        tagged.tag(f"sku:{sku}", f"page:product:{sku}")
        fallback.set(sku, page)
    catalog_cache.record_view(sku)
    return page


def on_product_changed(sku: str) -> None:
    tagged.invalidate(f"sku:{sku}")
    fallback.delete(sku)


def bestsellers(orders: list[dict[str, int]]) -> list[tuple[str, int]]:
    totals: Counter[str] = Counter()
    by_day: defaultdict[str, set[str]] = defaultdict(set)
    for order in orders:
        for sku, quantity in order.items():
            totals.update({sku: quantity})
            by_day[str(order.get("day", 0))].add(sku)
            catalog_cache.record_sale(sku, quantity)
    for skus in by_day.values():
        skus.discard("")
    ranked = catalog_cache.top(5)
    return totals.most_common(5) if not ranked else [(sku.decode(), int(score)) for sku, score in ranked]


def ranking_keys() -> list[str]:
    return catalog_cache.keys("page:*") + fallback.keys("page:*")


def raw_client_scores(skus: list[str]) -> list[float | None]:
    """An escape hatch through `client`: this one is a real Redis call, made by the caller."""
    return tagged.client.zmscore(TOP_SELLERS, skus)  # error: KEY007
