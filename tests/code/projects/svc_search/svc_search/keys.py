"""Key builders of the search cache; the schema they follow is declared in rediscipline.toml."""

from __future__ import annotations

from datetime import date

ZH_PREFIX = "search:prefix:zh_CN:{prefix}"
HOT_TERMS_ZH = "search:popularity:热词"
WARMER_LAST_RUN = "search:warmer:last_run"


def prefix_key(locale: str, prefix: str) -> str:
    return f"search:prefix:{locale}:{prefix}"


def query_key(locale: str, digest: str) -> str:
    return f"search:query:{locale}:{digest}"


def popularity_key(day: date) -> str:
    return f"search:popularity:date:{day:%Y%m%d}"


def history_key(session_id: str) -> str:
    return f"search:history:{session_id}"


def product_key(product_id: int) -> str:
    return f"search:product:{product_id}"


def facet_key(category_id: int, facet: str) -> str:
    return f"search:facet:{category_id}:{facet}"


def stats_key(day: date) -> str:
    return f"search:stats:{day:%Y%m%d}"
