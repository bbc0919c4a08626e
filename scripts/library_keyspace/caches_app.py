"""The application's own keys (library `-`): the families a team writes itself, next to its libraries' keys.

Each row of a variant's table is one family: its name, the regex that labels it, how many keys, the Redis type
and how to make one key. The ids are the kinds applications use (integers, UUIDs in several spellings, hex and
base64url tokens, ULIDs, KSUIDs, Snowflake ids, e-mail addresses, phone numbers, IP addresses, dates, ISO weeks)
and the separators and styles teams pick (`:`, `.`, `/`, `|`, `#`, `_`, camelCase, hash tags). A few families
are single keys (`feature:flags`), and a few hold a handful of words the application chose (cities, lock names):
one family per word, since words stay words.
"""

from __future__ import annotations

import datetime as dt
import random
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from scripts.library_keyspace import ids
from scripts.library_keyspace.common import Family, family
from scripts.library_keyspace.workload import Workload

Maker = Callable[[random.Random], str]
BASE62 = string.digits + string.ascii_uppercase + string.ascii_lowercase
CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


@dataclass(frozen=True)
class AppFamily:
    name: str
    regex: str
    count: int
    type: str  # string, hash, list, set, zset, hll, stream
    make: Maker
    ttl_s: tuple[int, ...] = ()  # a TTL is drawn from these for each key; empty: no TTL


def _const(key: str) -> Maker:
    return lambda _rng: key


def _ulid(rng: random.Random) -> str:
    millis = int(dt.datetime(2024, 11, 3, tzinfo=dt.timezone.utc).timestamp() * 1000) + rng.randrange(10**9)
    value = (millis << 80) | rng.getrandbits(80)
    return "".join(CROCKFORD[(value >> (5 * shift)) & 31] for shift in reversed(range(26)))


def _ksuid(rng: random.Random) -> str:
    value = (rng.randrange(300_000_000, 330_000_000) << 128) | rng.getrandbits(128)
    out = ""
    while value:
        value, digit = divmod(value, 62)
        out = BASE62[digit] + out
    return out.rjust(27, "0")


def _snowflake(rng: random.Random) -> str:
    return str((rng.randrange(1_700_000_000_000, 1_735_000_000_000) - 1_288_834_974_657) << 22 | rng.getrandbits(22))


def _iso_week(rng: random.Random) -> str:
    year, week, _ = ids.day(rng).isocalendar()
    return f"{year}-W{week:02d}"


CITIES_A = ("berlin", "paris", "tokyo", "lagos", "lima")
CITIES_B = ("oslo", "madrid", "nairobi", "seoul")
UUID_RE = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
EMAIL_RE = "[^:@/|]+@[a-z.-]+"

VARIANT_A: tuple[AppFamily, ...] = (
    AppFamily("app user profile", r"user:profile:\d+", 400, "hash", lambda r: f"user:profile:{ids.user_id(r)}"),
    AppFamily("app order", rf"order:{UUID_RE}", 300, "hash", lambda r: f"order:{ids.uuid4(r)}", (86400 * 30,)),
    AppFamily("app cart", r"cart:[0-9a-f]{32}", 250, "hash", lambda r: f"cart:{ids.uuid4(r).hex}", (3600, 86400)),
    AppFamily("app page views daily", r"stats:pv:\d{4}-\d\d-\d\d", 90, "string", lambda r: f"stats:pv:{ids.day(r)}"),
    AppFamily("app unique visitors daily", r"stats:uv:\d{8}", 90, "hll", lambda r: f"stats:uv:{ids.day(r):%Y%m%d}"),
    AppFamily("app user by email", rf"user:email:{EMAIL_RE}", 200, "string", lambda r: f"user:email:{ids.email(r)}"),
    AppFamily("app user by phone", r"user:phone:\+\d+", 120, "string", lambda r: f"user:phone:{ids.phone(r)}"),
    AppFamily("app session", r"session:[A-Za-z0-9_-]{43}", 300, "hash", lambda r: f"session:{ids.urlsafe_token(r, 32)}",
              (1800, 7200)),
    *(AppFamily(f"app geo city {city}", rf"geo:city:{city}", 1, "zset",
                _const(f"geo:city:{city}")) for city in CITIES_A),
    AppFamily("app weekly leaderboard", r"leaderboard:weekly:\d{4}-W\d\d", 12, "zset",
              lambda r: f"leaderboard:weekly:{_iso_week(r)}"),
    AppFamily("app feature flags", r"feature:flags", 1, "hash", _const("feature:flags")),
    AppFamily("app user info camelCase", r"userInfo_\d+", 150, "string",
              lambda r: f"userInfo_{ids.user_id(r)}", (600,)),
    AppFamily("app dotted user cache", r"app\.cache\.user\.\d+", 150, "string",
              lambda r: f"app.cache.user.{ids.user_id(r)}", (300,)),
    AppFamily("app lock billing-run", r"lock:billing-run", 1, "string", _const("lock:billing-run"), (60,)),
    AppFamily("app lock reindex", r"lock:reindex", 1, "string", _const("lock:reindex"), (600,)),
    AppFamily("app hash-tagged cart", r"\{user:\d+\}:cart", 120, "hash", lambda r: f"{{user:{ids.user_id(r)}}}:cart"),
    AppFamily("app hash-tagged wishlist", r"\{user:\d+\}:wishlist", 80, "set",
              lambda r: f"{{user:{ids.user_id(r)}}}:wishlist"),
    AppFamily("app login attempts by ip", r"rate:login:\d+\.\d+\.\d+\.\d+", 150, "string",
              lambda r: f"rate:login:{ids.ipv4(r)}", (900,)),
    AppFamily("app email queue", r"queue:emails", 1, "list", _const("queue:emails")),
    AppFamily("app notifications", r"notifications:\d+", 200, "list", lambda r: f"notifications:{ids.user_id(r)}"),
    AppFamily("app product stock", r"product:SKU-\d{5}:stock", 150, "string",
              lambda r: f"product:SKU-{r.randrange(10_000, 99_999)}:stock"),
    AppFamily("app one-time password", r"otp:\+\d+", 60, "string", lambda r: f"otp:{ids.phone(r)}", (300,)),
    AppFamily("app idempotency key", r"idempotency:[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}", 120,
              "string", lambda r: f"idempotency:{str(ids.uuid4(r)).upper()}", (86400,)),
    AppFamily("app event stream daily", r"events:\d{4}-\d\d-\d\d", 20, "stream", lambda r: f"events:{ids.day(r)}"),
)  # fmt: skip

VARIANT_B: tuple[AppFamily, ...] = (
    AppFamily("app account settings", r"acct:\d{18,19}:settings", 350, "hash",
              lambda r: f"acct:{_snowflake(r)}:settings"),
    AppFamily("app invoice", r"invoice/\d{4}/\d{6}", 250, "hash",
              lambda r: f"invoice/{r.choice((2023, 2024))}/{r.randrange(1, 999_999):06d}"),
    AppFamily("app basket", rf"basket-[{CROCKFORD}]{{26}}", 250, "hash", lambda r: f"basket-{_ulid(r)}", (7200,)),
    AppFamily("app signup metrics", r"metrics\.daily\.signup\.\d{8}", 90, "string",
              lambda r: f"metrics.daily.signup.{ids.day(r):%Y%m%d}"),
    AppFamily("app hourly visitors", r"visitors\|\d{4}-\d\d-\d\dT\d\d", 120, "hll",
              lambda r: f"visitors|{ids.day(r)}T{r.randrange(24):02d}", (86400 * 7,)),
    AppFamily("app customer by email", rf"customer_by_email:{EMAIL_RE}", 200, "string",
              lambda r: f"customer_by_email:{ids.email(r)}"),
    AppFamily("app sms code", r"sms_code:\+\d+", 80, "string", lambda r: f"sms_code:{ids.phone(r)}", (120,)),
    AppFamily("app auth token", r"auth_token:[0-9a-f]{40}", 250, "string",
              lambda r: f"auth_token:{ids.hex_token(r, 20)}", (3600,)),
    *(AppFamily(f"app weather {city}", rf"weather:{city}", 1, "hash",
                _const(f"weather:{city}"), (900,)) for city in CITIES_B),
    AppFamily("app monthly ranking", r"ranking:monthly:\d{4}-\d\d", 6, "zset",
              lambda r: f"ranking:monthly:{ids.day(r):%Y-%m}"),
    AppFamily("app global settings", r"settings:global", 1, "hash", _const("settings:global")),
    AppFamily("app product cache PascalCase", r"ProductCache_\d+", 150, "string",
              lambda r: f"ProductCache_{r.randrange(1, 60_000)}", (3600,)),
    AppFamily("app dotted catalog item", r"com\.acme\.catalog\.item\.\d+", 150, "string",
              lambda r: f"com.acme.catalog.item.{r.randrange(1, 60_000)}"),
    AppFamily("app mutex import", r"mutex:import", 1, "string", _const("mutex:import"), (300,)),
    AppFamily("app hash-tagged order items", r"\{order:\d+\}:items", 120, "list",
              lambda r: f"{{order:{r.randrange(10**7, 10**8)}}}:items"),
    AppFamily("app hash-tagged order status", r"\{order:\d+\}:status", 120, "string",
              lambda r: f"{{order:{r.randrange(10**7, 10**8)}}}:status"),
    AppFamily("app ip blocklist", r"blocklist:ip:[0-9a-f:]+", 100, "string", lambda r: f"blocklist:ip:{ids.ipv6(r)}",
              (86400,)),
    AppFamily("app pending jobs", r"jobs:pending", 1, "list", _const("jobs:pending")),
    AppFamily("app inbox", rf"inbox:{UUID_RE}", 150, "list", lambda r: f"inbox:{ids.uuid4(r)}"),
    AppFamily("app sku price", r"sku#\d+#price", 150, "string", lambda r: f"sku#{r.randrange(1, 900_000)}#price"),
    AppFamily("app event by ksuid", r"event:[0-9A-Za-z]{27}", 200, "string", lambda r: f"event:{_ksuid(r)}", (86400,)),
    AppFamily("app trace", r"trace:[0-9a-f]{16}", 150, "stream", lambda r: f"trace:{ids.hex_token(r, 8)}", (600,)),
)  # fmt: skip

TABLES = {"a": VARIANT_A, "b": VARIANT_B}


def _write(pipe: Any, kind: str, key: str, rng: random.Random) -> None:
    member = str(rng.randrange(1, 10**6))
    writers = {
        "string": lambda: pipe.set(key, member),
        "hash": lambda: pipe.hset(key, mapping={"id": member, "updated": "2024-11-03"}),
        "list": lambda: pipe.rpush(key, member),
        "set": lambda: pipe.sadd(key, member),
        "zset": lambda: pipe.zadd(key, {member: rng.randrange(1000)}),
        "hll": lambda: pipe.pfadd(key, member),
        "stream": lambda: pipe.xadd(key, {"event": "view", "id": member}),
    }
    writers[kind]()


def _run(url: str, variant: str, rng: random.Random) -> None:
    import redis

    client = redis.Redis.from_url(url)
    pipe = client.pipeline(transaction=False)
    for fam in TABLES[variant]:
        for _ in range(fam.count):
            key = fam.make(rng)
            _write(pipe, fam.type, key, rng)
            if fam.ttl_s:
                pipe.expire(key, rng.choice(fam.ttl_s))
    pipe.execute()


def _families(variant: str) -> Sequence[Family]:
    return [family(fam.name, fam.regex) for fam in TABLES[variant]]


WORKLOADS = (
    Workload(
        name="application",
        library="-",
        distributions=("redis",),
        run=_run,
        families=_families,
        options=lambda variant: f"{len(TABLES[variant])} application families written with redis-py",
    ),
)
