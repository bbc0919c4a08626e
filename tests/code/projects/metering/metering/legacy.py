"""Key formats of the first metering service, still read while its data is migrated.

Each reader below names the old format it reads; `migrate_customer` copies what is left into the new
`meter:<customer>:<day>` hashes.
"""

from __future__ import annotations

from .store import get_redis, meter_key, today

LAUNCH_DAY = "2023-06-01"


def old_grand_total() -> int:
    return int(get_redis().get("meterTotal") or 0)  # error: KEY007, KEY008


def old_daily(customer: str, day: str) -> dict[bytes, bytes]:
    return get_redis().hgetall(f"meter-{customer}-{day}")  # error: CMD005, KEY010


def old_total_field(customer: str, day: str) -> bytes | None:
    return get_redis().get(f"meter:{customer}:{day}:Total")  # error: KEY006


def customers_on_plan(plan: str) -> set[bytes]:
    return get_redis().smembers(f"meter:customers:by@plan:{plan}")  # error: CMD005, KEY004


def old_customer_index(customer: str) -> bytes | None:
    return get_redis().get(f"meter::{customer}")  # error: KEY009


def old_customer_marker(customer: str) -> bool:
    return bool(get_redis().exists(f"meter:{customer}:"))  # error: KEY009


def old_plan(customer: str) -> bytes | None:
    return get_redis().hget(f"mt:cs:{customer}", "plan")  # error: KEY015


def launch_summary() -> dict[bytes, bytes]:
    return get_redis().hgetall(f"meter:launch:date:{LAUNCH_DAY}")  # error: CMD005, KEY017


def old_upload_meta(file_id: str) -> bytes | None:
    return get_redis().hget(f"upload:hmap:{file_id}", "name")  # error: KEY016


def invoice_preview(customer: str) -> bytes | None:
    return get_redis().get(f"meter:monthly_invoice_preview:customer_account:{customer}:line_items")  # error: KEY005


def billing_snapshot(customer: str) -> bytes | None:
    return get_redis().get(f"meter:customer_billing_period_summary_snapshot:{customer}")  # error: KEY015


def last_error(customer: str) -> bytes | None:
    return get_redis().get(f"meter:{customer}:last error")  # error: KEY001


def latest_any() -> bytes | None:
    return get_redis().get("meter:*:latest")  # error: KEY003


def daily_on_one_slot(customer: str) -> dict[bytes, bytes]:
    return get_redis().hgetall(f"meter:{{{customer}}}:daily")  # error: CMD005, KEY012


def daily_broken_tag(customer: str) -> bytes | None:
    return get_redis().hget(f"meter:{{{customer}:daily", "total")  # error: KEY011


def daily_split(customer: str) -> bytes | None:
    return get_redis().hget(f"meter#{customer}:daily", "total")  # error: KEY014


def usage_label(customer: str) -> bytes | None:
    return get_redis().get(f"meter:{customer}:用量")  # error: KEY002


def migrate_customer(customer: str) -> None:
    r = get_redis()
    old = r.hgetall(f"meter-{customer}-{today()}")  # error: CMD005, KEY010
    if old:
        key = meter_key(customer, today())
        r.hset(key, mapping=old)  # error: TTL006
        r.unlink(f"meter-{customer}-{today()}")  # error: KEY010
