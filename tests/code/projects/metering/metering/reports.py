"""Monthly exports: rows kept as hashes `report:<id>:row:<n>`, closing a day, scanning the keyspace."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from .store import get_redis, meter_key

RANK_TTL = 8 * 86400
ROWS = 1000


def iter_meter_keys(customer: str, **scan_kwargs: Any) -> Iterator[bytes]:
    return get_redis().scan_iter(match=f"meter:{customer}:*", **scan_kwargs)


def scan_page(cursor: int = 0, **kwargs: Any) -> tuple[int, list[bytes]]:
    return get_redis().scan(cursor, match="meter:*", **kwargs)


def all_meter_keys() -> list[bytes]:
    return list(get_redis().scan_iter(match="meter:*"))  # error: CMD010


def meter_fields(key: str) -> dict[bytes, bytes]:
    return dict(get_redis().hscan_iter(key))  # error: CMD010


def meter_fields_paged(key: str) -> dict[bytes, bytes]:
    return dict(get_redis().hscan_iter(key, count=200))


def close_day(customer: str, day: str) -> bool:
    r = get_redis()
    key = meter_key(customer, day)
    # One transaction, written out here: the WATCH and the MULTI below belong to it (one finding).
    with r.pipeline(transaction=True) as pipe:  # error: CMD007
        pipe.watch(key)
        if pipe.hget(key, "closed"):
            return False
        pipe.multi()
        pipe.hset(key, "closed", int(time.time()))
        pipe.zadd(f"rank:closed:{day}", {customer: time.time()})
        pipe.expire(f"rank:closed:{day}", RANK_TTL)
        pipe.execute()
    return True


def export_rows(report_id: str) -> list[dict[bytes, bytes]]:
    r = get_redis()
    pipe = r.pipeline(transaction=False)
    for row in range(ROWS):
        pipe.hgetall(f"report:{report_id}:row:{row}")  # error: CMD005
    return pipe.execute()  # error: BAT003


def export_rows_in_pages(report_id: str) -> list[list[bytes | None]]:
    r = get_redis()
    pages = []
    for start in range(0, ROWS, 100):
        with r.pipeline(transaction=False) as pipe:
            for row in range(start, start + 100):
                pipe.hmget(f"report:{report_id}:row:{row}", ["customer", "total"])
            pages.extend(pipe.execute())
    return pages


def drop_report(report_id: str) -> None:
    get_redis().unlink(*[f"report:{report_id}:row:{row}" for row in range(ROWS)])  # error: BAT001


def write_row(report_id: str, row: int, values: dict[str, str], ttl: int) -> None:
    key = f"report:{report_id}:row:{row}"
    get_redis().pipeline(transaction=False).hset(key, mapping=values).expire(key, ttl).execute()
