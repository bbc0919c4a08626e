"""Crawl statistics: unique domains and IPs per day (HyperLogLog), fetched documents (bitmaps), and the
store locator's geo index.

    python -m crawler.stats --day 20240131
"""

from __future__ import annotations

import argparse
import json
import random
import time
from dataclasses import dataclass

import redis

from crawler.store import get_client

STATS_TTL = 35 * 86400
# The one-off backfill of the December snapshot wrote its bitmap under this name.
SNAPSHOT_KEY = "crawl:fetched:date:2023-12-31"


def today() -> str:
    return time.strftime("%Y%m%d")


def count_domain(client: redis.Redis, domain: str, day: str) -> None:
    client.pfadd(f"crawl:uv:domains:{day}", domain)  # error: TTL006


def count_visitor_ip(client: redis.Redis, ip: str, day: str) -> None:
    key = f"crawl:uv:ips:{day}"
    client.pfadd(key, ip)
    client.expire(key, STATS_TTL + random.randint(0, 86400))


def unique_domains(client: redis.Redis, days: list[str]) -> int:
    return int(client.pfcount(*[f"crawl:uv:domains:{day}" for day in days]))


def mark_fetched(client: redis.Redis, doc_id: int, day: str) -> None:
    client.setbit(f"crawl:fetched:date:{day}", doc_id, 1)  # error: TTL006


def mark_fetched_with_ttl(client: redis.Redis, doc_id: int, day: str) -> None:
    key = f"crawl:fetched:date:{day}"
    client.setbit(key, doc_id, 1)
    client.expire(key, STATS_TTL + random.randint(0, 86400))


def fetched_count(client: redis.Redis, day: str) -> int:
    return int(client.bitcount(f"crawl:fetched:date:{day}"))


def snapshot_count(client: redis.Redis) -> int:
    return int(client.bitcount(SNAPSHOT_KEY))  # error: KEY017


def fetched_both(client: redis.Redis, first: str, second: str) -> int:
    dest = f"crawl:fetched:both:{first}:{second}"
    client.bitop("AND", dest, f"crawl:fetched:date:{first}", f"crawl:fetched:date:{second}")
    count = int(client.bitcount(dest))
    client.unlink(dest)
    return count


@dataclass(frozen=True)
class StoreLocation:
    store_id: str
    longitude: float
    latitude: float


def index_store(client: redis.Redis, store: StoreLocation) -> None:
    client.geoadd("crawl:geo:stores", (store.longitude, store.latitude, store.store_id))  # error: TTL006


def index_stores(client: redis.Redis, stores: list[StoreLocation]) -> None:
    values: list[float | str] = []
    for store in stores[:100]:
        values.extend((store.longitude, store.latitude, store.store_id))
    pipe = client.pipeline(transaction=False)
    pipe.geoadd("crawl:geo:stores:staging", values)
    pipe.expire("crawl:geo:stores:staging", 3600 + random.randint(0, 600))
    pipe.execute()


def nearby(client: redis.Redis, longitude: float, latitude: float) -> list[bytes]:
    return client.geosearch(
        "crawl:geo:stores", longitude=longitude, latitude=latitude, radius=5, unit="km", sort="ASC", count=20
    )


def store_positions(client: redis.Redis, store_ids: list[str]) -> list[tuple[float, float] | None]:
    return client.geopos("crawl:geo:stores", *store_ids[:50])


def report(client: redis.Redis, day: str) -> str:
    return json.dumps(
        {
            "day": day,
            "domains": unique_domains(client, [day]),
            "fetched": fetched_count(client, day),
        }
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Print one day's crawl statistics as JSON.")
    parser.add_argument("--day", default=today())
    parser.add_argument("--domain", action="append", default=[])
    args = parser.parse_args()
    conn = get_client()
    for name in args.domain:
        count_domain(conn, name, args.day)
    print(report(conn, args.day))
