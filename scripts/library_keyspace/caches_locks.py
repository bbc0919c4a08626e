"""Object-mapper and lock workloads: redis-om HashModel, python-redis-lock, and redis-py's own Lock.

redis-om models are declared in the module an application would keep them in (`app.models`), since redis-om
puts `module.Class` into its keys; the server has no RediSearch, so no index is created and only saving runs.
Locks are taken with names applications use; some are released (python-redis-lock then leaves a signal list
for `signal_expire` ms) and some are still held when the keyspace is read.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scripts.library_keyspace import ids
from scripts.library_keyspace.common import Family, family
from scripts.library_keyspace.workload import Workload


def _major(distribution: str) -> int:
    import importlib.metadata

    return int(importlib.metadata.version(distribution).split(".")[0])


# ---- redis-om --------------------------------------------------------------------------------------------------


def _model(name: str, module: str, fields: dict[str, type], meta: dict[str, Any]) -> Any:
    """A redis-om HashModel class as an application declares it, in `module`, with `Meta` options."""
    import types

    from redis_om import HashModel

    # redis-om 1.x saves only models declared with index=True (the index itself needs RediSearch: not created)
    keywords: dict[str, Any] = {"index": True} if _major("redis-om") >= 1 else {}

    def body(namespace: dict[str, Any]) -> None:
        namespace.update(__module__=module, __annotations__=dict(fields), Meta=type("Meta", (), meta))

    return types.new_class(name, (HashModel,), keywords, body)


def _run_redis_om(url: str, variant: str, rng: random.Random) -> None:
    from redis_om import get_redis_connection

    connection = get_redis_connection(url=url)
    if variant == "a":
        customer_model = _model("Customer", "app.models", {"first_name": str, "email": str, "age": int}, {
            "database": connection,
        })  # fmt: skip
        order_model = _model("Order", "app.models", {"customer_pk": str, "total_cents": int}, {"database": connection})
        for _ in range(300):
            customer = customer_model(
                first_name=rng.choice(ids.FIRST_NAMES), email=ids.email(rng), age=rng.randrange(18, 90)
            )
            customer.save()
            for _ in range(rng.randrange(0, 3)):
                order_model(customer_pk=customer.pk, total_cents=rng.randrange(100, 90_000)).save()
        return
    product_model = _model("Product", "inventory.models", {"name": str}, {
        "database": connection, "global_key_prefix": "inventory", "model_key_prefix": "product",
    })  # fmt: skip
    review_model = _model("Review", "inventory.models", {"stars": int}, {
        "database": connection, "global_key_prefix": "inventory",
    })  # fmt: skip
    for _ in range(250):
        sku = f"{rng.choice('ABCDEFGH')}{rng.randrange(100, 999)}-{rng.randrange(1000, 9999)}"
        product_model(pk=sku, name="x").save()  # the application's own id as the primary key
    for _ in range(200):
        review = review_model(stars=rng.randrange(1, 6))
        review.save()
        if rng.random() < 0.3:
            review.expire(86400 * 30)


ULID = "[0-9A-HJKMNP-TV-Z]{26}"


def _redis_om_families(variant: str) -> Sequence[Family]:
    if variant == "a":
        return [
            family("redis-om customer hash", rf":app\.models\.Customer:{ULID}"),
            family("redis-om order hash", rf":app\.models\.Order:{ULID}"),
        ]
    return [
        family("redis-om product hash", r"inventory:product:[A-H]\d{3}-\d{4}"),
        family("redis-om review hash", rf"inventory:inventory\.models\.Review:{ULID}"),
    ]


# ---- python-redis-lock and redis-py Lock -----------------------------------------------------------------------

SIGNAL_EXPIRE_MS = 60_000


def _lock_names(variant: str, rng: random.Random) -> list[str]:
    if variant == "a":
        names = ["refresh-exchange-rates", "sitemap-rebuild"]
        names += [f"invoice-{rng.randrange(100_000, 999_999)}" for _ in range(120)]
        names += [f"user:{ids.user_id(rng)}:sync" for _ in range(120)]
        names += [f"report:{ids.day(rng).isoformat()}" for _ in range(40)]
        return names
    names = ["warehouse_import"]
    names += [f"checkout.{ids.uuid4(rng)}" for _ in range(150)]
    names += [f"tenant/{rng.choice(('acme', 'globex', 'initech', 'umbrella'))}/billing" for _ in range(4)]
    names += [f"mailer_batch_{ids.day(rng):%Y%m%d}_{rng.randrange(1, 24):02d}" for _ in range(60)]
    return names


def _run_python_redis_lock(url: str, variant: str, rng: random.Random) -> None:
    import redis
    import redis_lock

    conn = redis.Redis.from_url(url)
    for name in dict.fromkeys(_lock_names(variant, rng)):
        lock = redis_lock.Lock(conn, name, expire=rng.choice((30, 60, 300)), signal_expire=SIGNAL_EXPIRE_MS)
        lock.acquire(blocking=False)
        if rng.random() < 0.5:
            lock.release()
    redis_lock.Lock(conn, "forever-leader").acquire(blocking=False)  # no expire: held until released


def _python_redis_lock_families(variant: str) -> Sequence[Family]:
    fams = []
    for prefix, kind in (("lock", "lock"), ("lock-signal", "release signal")):
        if variant == "a":
            fams += [
                family(f"python-redis-lock {kind} refresh-exchange-rates", rf"{prefix}:refresh-exchange-rates"),
                family(f"python-redis-lock {kind} sitemap-rebuild", rf"{prefix}:sitemap-rebuild"),
                family(f"python-redis-lock {kind} invoice", rf"{prefix}:invoice-\d+"),
                family(f"python-redis-lock {kind} user sync", rf"{prefix}:user:\d+:sync"),
                family(f"python-redis-lock {kind} report", rf"{prefix}:report:\d{{4}}-\d\d-\d\d"),
            ]
        else:
            fams += [
                family(f"python-redis-lock {kind} warehouse_import", rf"{prefix}:warehouse_import"),
                family(f"python-redis-lock {kind} checkout", rf"{prefix}:checkout\.[0-9a-f-]{{36}}"),
                family(f"python-redis-lock {kind} tenant billing", rf"{prefix}:tenant/[a-z]+/billing"),
                family(f"python-redis-lock {kind} mailer batch", rf"{prefix}:mailer_batch_\d{{8}}_\d\d"),
            ]
        fams.append(family(f"python-redis-lock {kind} forever-leader", rf"{prefix}:forever-leader"))
    return fams


def _run_redis_py_lock(url: str, variant: str, rng: random.Random) -> None:
    import redis

    conn: Any = redis.Redis.from_url(url)
    if variant == "a":
        names = [f"lock:checkout:{ids.uuid4(rng)}" for _ in range(200)]
        names += [f"cron:daily-digest:{ids.day(rng):%Y-%m-%d}" for _ in range(30)]
        names += [f"mutex:user:{ids.user_id(rng)}" for _ in range(150)]
    else:
        names = [f"locks/order/{rng.randrange(10**11, 10**12)}" for _ in range(200)]
        names += [f"{ids.email(rng)}:password-reset.lock" for _ in range(80)]
        names += ["leader-election"]
    for name in dict.fromkeys(names):
        lock = conn.lock(name, timeout=rng.choice((10, 30, 120)))
        lock.acquire(blocking=False)
        if rng.random() < 0.3:
            lock.release()


def _redis_py_lock_families(variant: str) -> Sequence[Family]:
    if variant == "a":
        return [
            family("redis-py lock checkout", r"lock:checkout:[0-9a-f-]{36}"),
            family("redis-py lock daily digest", r"cron:daily-digest:\d{4}-\d\d-\d\d"),
            family("redis-py lock user mutex", r"mutex:user:\d+"),
        ]
    return [
        family("redis-py lock order", r"locks/order/\d{12}"),
        family("redis-py lock password reset", r"[^:]+@[a-z.-]+:password-reset\.lock"),
        family("redis-py lock leader election", r"leader-election"),
    ]


WORKLOADS = (
    Workload(
        name="redis-om",
        library="redis-om",
        distributions=("redis-om", "redis"),
        run=_run_redis_om,
        families=_redis_om_families,
        options=lambda variant: (
            "HashModel, default Meta (ULID primary keys), models in app.models"
            if variant == "a"
            else "HashModel, Meta.global_key_prefix='inventory', model_key_prefix='product' with SKUs as pk; "
            "a second model with the default model_key_prefix and ULID keys"
        ),
    ),
    Workload(
        name="python-redis-lock",
        library="python-redis-lock",
        distributions=("python-redis-lock", "redis"),
        run=_run_python_redis_lock,
        families=_python_redis_lock_families,
        options=lambda variant: (
            f"Lock(expire=30|60|300, signal_expire={SIGNAL_EXPIRE_MS}), half released; one lock without expire"
        ),
    ),
    Workload(
        name="redis-py-lock",
        library="redis-py",
        distributions=("redis",),
        run=_run_redis_py_lock,
        families=_redis_py_lock_families,
        options=lambda variant: "Redis.lock(name, timeout=10|30|120), 30% released",
    ),
)
