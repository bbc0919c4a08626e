"""Event pages, seat maps and seat holds during checkout."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence

from issue_clean import keys
from issue_clean.extensions import HOUR, MINUTE, store, ttl

PAGE_TTL = 10 * MINUTE
HOLD_TTL = 5 * MINUTE
BATCH = 100

RELEASE_HOLD = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('unlink', KEYS[1])
end
return 0
"""
release_hold_script = store.register_script(RELEASE_HOLD)


def batched(items: Sequence[int], size: int = BATCH) -> Iterator[Sequence[int]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def cached_page(event_id: int) -> bytes | None:
    return store.get(keys.event_page(event_id))


def cache_page(event_id: int, html: bytes) -> None:
    store.set(keys.event_page(event_id), html, ex=ttl(PAGE_TTL))


def cached_pages(event_ids: Sequence[int]) -> dict[int, bytes | None]:
    pages: dict[int, bytes | None] = {}
    for chunk in batched(event_ids):
        values = store.mget([keys.event_page(event_id) for event_id in chunk])
        pages.update(zip(chunk, values, strict=True))
    return pages


def warm_pages(rendered: dict[int, bytes]) -> None:
    """Called by the deploy hook with every page rendered again."""
    ids = sorted(rendered)
    for chunk in batched(ids):
        with store.pipeline(transaction=False) as pipe:
            for event_id in chunk:
                pipe.set(keys.event_page(event_id), rendered[event_id], ex=PAGE_TTL)  # error: TTL007
            pipe.execute()


def preload_front_page() -> list[bytes | None]:
    return store.mget([f"event:page:{event_id}" for event_id in range(1, 1001)])  # error: BAT001


def open_event(event_id: int, seat_names: Iterable[str]) -> None:
    key = keys.seats(event_id)
    store.hset(key, mapping=dict.fromkeys(seat_names, "free"))
    store.expire(key, ttl(48 * HOUR))


def seat_states(event_id: int, seats: Sequence[str]) -> dict[str, bytes | None]:
    return dict(zip(seats, store.hmget(keys.seats(event_id), list(seats)), strict=True))


def seat_map(event_id: int) -> dict[bytes, bytes]:
    return store.hgetall(f"event:seats:{event_id}")  # error: CMD005


def free_seats(event_id: int) -> list[bytes]:
    free = []
    for seat, state in store.hscan_iter(keys.seats(event_id), count=200):
        if state == b"free":
            free.append(seat)
    return free


def hold_seat(event_id: int, seat: str, order_token: str) -> bool:
    """Hold a seat for the checkout; the hold lapses by itself if the buyer walks away."""
    return bool(store.set(keys.hold(event_id, seat), order_token, nx=True, ex=HOLD_TTL))


def release_seat(event_id: int, seat: str, order_token: str) -> bool:
    released = release_hold_script(keys=[keys.hold(event_id, seat)], args=[order_token])
    return bool(released)


def release_seat_slowly(event_id: int, seat: str, order_token: str) -> bool:
    released = store.eval(RELEASE_HOLD, 1, keys.hold(event_id, seat), order_token)  # error: CMD009
    return bool(released)


def close_event(event_id: int) -> None:
    store.unlink(keys.seats(event_id), keys.event_page(event_id))


def reindex_all_pages() -> int:
    missing = 0
    for event_id in range(1, 20_001):
        if not store.exists(f"event:page:{event_id}"):  # error: BAT002
            missing += 1
    return missing


def event_details(event_id: int) -> dict[str, str]:
    raw = store.get(f"event:detail:{event_id}")
    if raw is None:
        return {}
    return json.loads(raw)


def store_event_details(event_id: int, details: dict[str, str]) -> None:
    store.set(f"event:detail:{event_id}", json.dumps(details), ex=ttl(HOUR))
    store.set(f"event:detailsUpdated:{event_id}", "1", ex=ttl(HOUR))  # error: KEY007
