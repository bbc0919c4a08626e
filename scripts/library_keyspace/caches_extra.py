"""Optional workloads: dogpile.cache, django-cacheops, pottery and walrus.

dogpile.cache: a region on the redis backend with `cache_on_arguments` on functions of an application module.
django-cacheops: auth models in sqlite, cached querysets and `get`s, with invalidation sets. pottery: RedisDict,
RedisCounter, RedisSet with application-chosen names, and Redlock. walrus: its Cache and rate limiter, and a
walrus Model with indexed fields.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scripts.library_keyspace import ids
from scripts.library_keyspace.common import Family, family
from scripts.library_keyspace.workload import Workload

# ---- dogpile.cache ---------------------------------------------------------------------------------------------


def _run_dogpile(url: str, variant: str, rng: random.Random) -> None:
    from dogpile.cache import make_region

    arguments: dict[str, Any] = {"url": url, "redis_expiration_time": 3600, "distributed_lock": True}
    region = make_region(key_mangler=None if variant == "a" else (lambda key: f"dp:{key}"))
    region.configure("dogpile.cache.redis", expiration_time=600, arguments=arguments)

    def product_card(product_id: int, locale: str) -> str:
        return f"{product_id}/{locale}"

    def user_permissions(user_id: int) -> list[str]:
        return ["read"]

    product_card.__module__ = user_permissions.__module__ = "storefront.views"
    cached_card = region.cache_on_arguments()(product_card)
    cached_perms = region.cache_on_arguments(namespace="v2")(user_permissions)
    for _ in range(300):
        cached_card(rng.randrange(1, 80_000), rng.choice(("en_US", "de_DE", "pt_BR")))
    for _ in range(200):
        cached_perms(ids.user_id(rng))
    for _ in range(100):
        region.set(f"homepage:{ids.day(rng).isoformat()}", "html")


def _dogpile_families(variant: str) -> Sequence[Family]:
    pre = "" if variant == "a" else "dp:"
    return [
        family("dogpile.cache cached product_card", rf"{pre}storefront\.views:product_card\|\d+ [a-z]{{2}}_[A-Z]{{2}}"),
        family("dogpile.cache cached user_permissions", rf"{pre}storefront\.views:user_permissions\|v2\|\d+"),
        family("dogpile.cache region homepage", rf"{pre}homepage:\d{{4}}-\d\d-\d\d"),
    ]


# ---- django-cacheops -------------------------------------------------------------------------------------------


def _run_cacheops(url: str, variant: str, rng: random.Random) -> None:
    from django.conf import settings

    settings.configure(
        SECRET_KEY="library-keyspace-not-secret",
        INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "cacheops"],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
        CACHEOPS_REDIS=url,
        CACHEOPS_PREFIX=(lambda _query: "") if variant == "a" else (lambda _query: "crm:"),
        CACHEOPS={"auth.user": {"ops": "all", "timeout": 900}, "auth.group": {"ops": "get", "timeout": 3600}},
        USE_TZ=True,
    )
    import django

    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command

    call_command("migrate", run_syncdb=True, verbosity=0)
    groups = [Group.objects.create(name=name) for name in ("staff", "editors", "support", "billing")]
    users = [User.objects.create(username=f"u{index}", email=ids.email(rng)) for index in range(400)]
    for user in rng.sample(users, 150):
        user.groups.add(rng.choice(groups))
    for _ in range(300):
        User.objects.cache().get(pk=rng.choice(users).pk)
    for _ in range(80):
        list(User.objects.filter(is_active=True, date_joined__year=rng.choice((2023, 2024))).cache())
        list(User.objects.filter(email__endswith=rng.choice(ids.MAIL_DOMAINS)).cache()[:20])
    for group in groups:
        Group.objects.cache().get(name=group.name)


def _cacheops_families(variant: str) -> Sequence[Family]:
    pre = "" if variant == "a" else "crm:"
    return [
        family("django-cacheops queryset", rf"{pre}q:[0-9a-f]{{32}}"),
        family("django-cacheops conjunction set", rf"{pre}conj:[a-z_]+:.*"),
        family("django-cacheops schemes", rf"{pre}schemes:[a-z_]+"),
    ]


# ---- pottery ---------------------------------------------------------------------------------------------------


POTTERY_NAMES = {
    "a": {"dict": "prefs:{}", "set": "tags:{}", "counter": "counts:{:%Y%m%d}", "locks": ("printer", "nightly-export")},
    "b": {"dict": "profile/{}", "set": "followers/{}", "counter": "pageviews/{}", "locks": ("pdf-render",)},
}


def _run_pottery(url: str, variant: str, rng: random.Random) -> None:
    import redis
    from pottery import RedisCounter, RedisDict, RedisSet, Redlock

    names = POTTERY_NAMES[variant]
    client = redis.Redis.from_url(url)
    for _ in range(150):
        user = ids.user_id(rng) if variant == "a" else ids.uuid4(rng)
        RedisDict(redis=client, key=str(names["dict"]).format(user)).update({"theme": "dark", "lang": "de"})
        RedisSet(redis=client, key=str(names["set"]).format(user)).update({"a", "b"})
    for _ in range(60):
        RedisCounter(redis=client, key=str(names["counter"]).format(ids.day(rng))).update({"views": 3})
    per_object = [f"invoice-{rng.randrange(1000, 9999)}" for _ in range(40)]
    if variant == "b":
        per_object = [f"shipment-{ids.hex_token(rng, 6)}" for _ in range(40)]
    for name in (*names["locks"], *per_object):
        Redlock(key=name, masters={client}, auto_release_time=60).acquire(blocking=False)


def _pottery_families(variant: str) -> Sequence[Family]:
    if variant == "a":
        return [
            family("pottery dict prefs", r"prefs:\d+"),
            family("pottery set tags", r"tags:\d+"),
            family("pottery counter daily counts", r"counts:\d{8}"),
            family("pottery redlock printer", r"redlock:printer"),
            family("pottery redlock nightly-export", r"redlock:nightly-export"),
            family("pottery redlock invoice", r"redlock:invoice-\d+"),
        ]
    return [
        family("pottery dict profile", r"profile/[0-9a-f-]{36}"),
        family("pottery set followers", r"followers/[0-9a-f-]{36}"),
        family("pottery counter pageviews", r"pageviews/\d{4}-\d\d-\d\d"),
        family("pottery redlock pdf-render", r"redlock:pdf-render"),
        family("pottery redlock shipment", r"redlock:shipment-[0-9a-f]{12}"),
    ]


# ---- walrus ----------------------------------------------------------------------------------------------------


def _run_walrus(url: str, variant: str, rng: random.Random) -> None:
    from walrus import Database, IntegerField, Model, TextField

    db = Database.from_url(url)
    cache = db.cache(name="webcache" if variant == "a" else "wc", default_timeout=600)

    @cache.cached(timeout=120)
    def render_profile(user_id: int) -> str:
        return f"profile {user_id}"

    for _ in range(200):
        render_profile(ids.user_id(rng))
    for _ in range(100):
        cache.set(f"country:{rng.choice(('de', 'fr', 'br', 'jp', 'ng'))}:{rng.randrange(1, 999)}", "x")
    limiter = db.rate_limit("api", limit=100, per=60)
    for _ in range(150):
        limiter.limit(ids.ipv4(rng))

    account = type("Account", (Model,), {
        "__database__": db,
        "__namespace__": "crm" if variant == "b" else "",
        "email": TextField(primary_key=True),
        "plan": TextField(index=True),
        "seats": IntegerField(index=True),
    })  # fmt: skip

    for _ in range(120):
        account.create(email=ids.email(rng), plan=rng.choice(("free", "pro", "team")), seats=rng.randrange(1, 50))


def _walrus_families(variant: str) -> Sequence[Family]:
    cache = "webcache" if variant == "a" else "wc"
    model = "account" if variant == "a" else "crm[|:]account"
    return [
        family("walrus cache cached render_profile", rf"{cache}:render_profile:[0-9a-f]{{32}}"),
        family("walrus cache country", rf"{cache}:country:[a-z]{{2}}:\d+"),
        family("walrus rate limit api", r"api:\d+\.\d+\.\d+\.\d+"),
        family("walrus model account all", rf"{model}:all"),
        family("walrus model account hash", rf"{model}:id\..+"),
        family("walrus model account email index", rf"{model}:email\.absolute\..+"),
        family("walrus model account plan index", rf"{model}:plan\.absolute\.[a-z]+"),
        family("walrus model account seats index", rf"{model}:seats\.absolute\.\d+"),
        family("walrus model account seats range index", rf"{model}:seats\.continuous"),
    ]


WORKLOADS = (
    Workload(
        name="dogpile.cache",
        library="dogpile.cache",
        distributions=("dogpile.cache", "redis"),
        run=_run_dogpile,
        families=_dogpile_families,
        options=lambda variant: (
            "region dogpile.cache.redis(redis_expiration_time=3600, distributed_lock=True), "
            + ("no key_mangler" if variant == "a" else "key_mangler 'dp:' + key")
        ),
        optional=True,
    ),
    Workload(
        name="django-cacheops",
        library="django-cacheops",
        distributions=("django-cacheops", "Django", "redis"),
        run=_run_cacheops,
        families=_cacheops_families,
        options=lambda variant: (
            "CACHEOPS auth.user ops=all timeout=900, auth.group ops=get; CACHEOPS_PREFIX "
            + ("none" if variant == "a" else "'crm:'")
        ),
        optional=True,
    ),
    Workload(
        name="pottery",
        library="pottery",
        distributions=("pottery", "redis"),
        run=_run_pottery,
        families=_pottery_families,
        options=lambda variant: (
            "RedisDict/RedisSet/RedisCounter with application-chosen keys; Redlock(auto_release_time=60)"
        ),
        optional=True,
    ),
    Workload(
        name="walrus",
        library="walrus",
        distributions=("walrus", "redis"),
        run=_run_walrus,
        families=_walrus_families,
        options=lambda variant: (
            "db.cache(name=" + ("'webcache'" if variant == "a" else "'wc'") + "), "
            "db.rate_limit('api', 100/60 s), Model with indexed fields"
        ),
        optional=True,
    ),
)
