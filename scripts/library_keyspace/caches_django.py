"""Django cache workloads: django-redis and Django's own RedisCache as the cache, sessions and page cache.

One process per backend (Django's settings are configured once per process). The workload is what a Django
site does with its cache: low-level `cache.set/get/incr/get_or_set/set_many` of keys the application chooses,
`cache_page` views hit through the test Client with varied URLs and query strings, the `{% cache %}` template
fragment cache, sessions with the `cache` and the `cached_db` engines (sqlite in memory for the db part), and,
with django-redis, `cache.lock`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scripts.library_keyspace import ids
from scripts.library_keyspace.common import Family, family
from scripts.library_keyspace.workload import Workload

DJANGO_REDIS_BACKEND = "django_redis.cache.RedisCache"
DJANGO_BACKEND = "django.core.cache.backends.redis.RedisCache"

urlpatterns: list[Any] = []  # filled by _urls() once settings are configured: this module is the ROOT_URLCONF


@dataclass(frozen=True)
class Options:
    key_prefix: str
    version: int
    middleware_prefix: str  # not empty: the site-wide cache middleware runs too, with this key prefix
    language: str
    time_zone: str
    session_prefix: str | None  # KEY_PREFIX of a separate "sessions" cache alias, None: sessions use "default"


OPTIONS = {
    ("django-redis", "a"): Options("", 1, "", "en-us", "UTC", None),
    ("django-redis", "b"): Options("shop", 3, "www", "de", "Europe/Berlin", "sess"),
    ("django", "a"): Options("", 1, "", "en-us", "UTC", None),
    ("django", "b"): Options("cms", 2, "", "fr", "America/New_York", None),
}


def _options_line(name: str, variant: str) -> str:
    opt = OPTIONS[(name, variant)]
    sessions = f"separate alias KEY_PREFIX={opt.session_prefix!r}" if opt.session_prefix else "default alias"
    return (
        f"KEY_PREFIX={opt.key_prefix!r} VERSION={opt.version} CACHE_MIDDLEWARE_KEY_PREFIX={opt.middleware_prefix!r}"
        + (" (site-wide cache middleware on)" if opt.middleware_prefix else "")
        + f" LANGUAGE_CODE={opt.language} TIME_ZONE={opt.time_zone} USE_I18N=True USE_TZ=True"
        f" SESSION_ENGINE=cache and cached_db, sessions in the {sessions}"
    )


# ---- the Django project ----------------------------------------------------------------------------------------

#: The words each site chose (cache keys, a fragment name, a cache_page key_prefix) and its host name: the two
#: backends run two different sites, so that no key of one is also a key of the other.
WORDS = {
    "django-redis": {"search": "search", "rate": "exchange_rate", "stats": "homepage_stats", "fragment": "sidebar",
                     "pages": "sitemap", "host": "shop.example.com"},
    "django": {"search": "lookup", "rate": "fx_rate", "stats": "landing_counters", "fragment": "top_menu",
               "pages": "feeds", "host": "www.example.org"},
}  # fmt: skip


def _templates(words: dict[str, str]) -> dict[str, str]:
    return {
        "product.html": (
            f"{{% load cache %}}<h1>{{{{ name }}}}</h1>{{% cache 600 {words['fragment']} %}}<nav>categories</nav>"
            "{% endcache %}{% cache 300 product_card pk lang %}<div>{{ pk }} {{ name }}</div>{% endcache %}"
        ),
    }


def _configure(url: str, backend: str, opt: Options, words: dict[str, str]) -> None:
    from django.conf import settings

    caches: dict[str, dict[str, Any]] = {
        "default": {"BACKEND": backend, "LOCATION": url, "KEY_PREFIX": opt.key_prefix, "VERSION": opt.version}
    }
    if opt.session_prefix:
        caches["sessions"] = {"BACKEND": backend, "LOCATION": url, "KEY_PREFIX": opt.session_prefix}
    settings.configure(
        DEBUG=False,
        SECRET_KEY="library-keyspace-not-secret",
        ALLOWED_HOSTS=["*"],
        ROOT_URLCONF=__name__,
        INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "django.contrib.sessions"],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}},
        CACHES=caches,
        SESSION_CACHE_ALIAS="sessions" if opt.session_prefix else "default",
        SESSION_ENGINE="django.contrib.sessions.backends.cache",
        MIDDLEWARE=[
            *(["django.middleware.cache.UpdateCacheMiddleware"] if opt.middleware_prefix else []),
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.middleware.locale.LocaleMiddleware",
            *(["django.middleware.cache.FetchFromCacheMiddleware"] if opt.middleware_prefix else []),
        ],
        LANGUAGES=[("en-us", "English"), ("de", "German"), ("fr", "French")],
        CACHE_MIDDLEWARE_KEY_PREFIX=opt.middleware_prefix,
        TEMPLATES=[
            {
                "BACKEND": "django.template.backends.django.DjangoTemplates",
                "OPTIONS": {"loaders": [("django.template.loaders.locmem.Loader", _templates(words))]},
            }
        ],
        USE_I18N=True,
        LANGUAGE_CODE=opt.language,
        USE_TZ=True,
        TIME_ZONE=opt.time_zone,
    )
    import django

    django.setup()


def _urls(words: dict[str, str]) -> None:
    from django.http import HttpRequest, HttpResponse, JsonResponse
    from django.shortcuts import render
    from django.urls import path
    from django.views.decorators.cache import cache_page

    def article(request: HttpRequest, slug: str) -> HttpResponse:
        return HttpResponse(f"<h1>{slug}</h1>")

    def product_list(request: HttpRequest) -> HttpResponse:
        return HttpResponse(f"page {request.GET.get('page', '1')} sorted by {request.GET.get('sort', 'name')}")

    def api_item(request: HttpRequest, item_id: int) -> JsonResponse:
        return JsonResponse({"id": item_id})

    def sitemap(request: HttpRequest, section: str) -> HttpResponse:
        return HttpResponse(f"<urlset>{section}</urlset>", content_type="application/xml")

    def product(request: HttpRequest, pk: int) -> HttpResponse:
        return render(request, "product.html", {"pk": pk, "name": f"product {pk}", "lang": request.GET.get("lang")})

    def login(request: HttpRequest, user_id: int) -> HttpResponse:
        request.session["user_id"] = user_id
        request.session["cart"] = [user_id % 7, user_id % 11]
        return HttpResponse("ok")

    urlpatterns[:] = [
        path("articles/<slug:slug>/", cache_page(60 * 15)(article)),
        path("products/", cache_page(60 * 5)(product_list)),
        path("api/v1/items/<int:item_id>", cache_page(30)(api_item)),
        path("sitemap-<str:section>.xml", cache_page(3600, key_prefix=words["pages"])(sitemap)),
        path("product/<int:pk>/", product),
        path("login/<int:user_id>/", login),
    ]


# ---- the workload ----------------------------------------------------------------------------------------------


def _low_level_cache(cache: Any, variant: str, rng: random.Random, words: dict[str, str]) -> None:
    """The keys a Django application chooses itself, written through the cache API."""
    if variant == "a":
        for _ in range(220):
            cache.set(f"user_profile_{ids.user_id(rng)}", {"name": "x"}, timeout=rng.choice((300, 3600, None)))
        cache.set_many({f"product:{rng.randrange(1, 90_000)}:detail": {"price": 9} for _ in range(150)}, timeout=600)
        for _ in range(60):
            cache.set(f"{words['search']}:{ids.search_term(rng)}:{rng.randrange(1, 6)}", [1, 2, 3], timeout=120)
        for _ in range(80):
            key = f"api_calls:{ids.user_id(rng)}:{ids.day(rng).isoformat()}"
            cache.get_or_set(key, 0, timeout=86400)
            cache.incr(key, rng.randrange(1, 40))
        for pair in ("EUR_USD", "USD_JPY", "GBP_EUR", "CHF_EUR", "USD_CNY"):
            cache.set(f"{words['rate']}:{pair}", 1.08, timeout=900)
        cache.get_or_set(words["stats"], {"users": 1}, timeout=60)
    else:
        for _ in range(200):
            cache.set(f"customer.{ids.uuid4(rng)}.summary", {"orders": 3}, timeout=rng.choice((120, 1800)))
        for _ in range(120):
            cache.set(f"catalog/category/{ids.slug(rng)}/page/{rng.randrange(1, 30)}", [4, 5], timeout=300)
        for _ in range(60):
            cache.set(f"geo|{rng.uniform(-60, 70):.4f},{rng.uniform(-170, 170):.4f}", "DE", timeout=None)
        for _ in range(90):
            key = f"quota-{ids.email(rng)}-{ids.day(rng):%Y%m}"
            cache.get_or_set(key, 0, timeout=None)
            cache.incr(key)
        cache.get_or_set("nav_menu_tree", ["home"], timeout=None)


LANGUAGE_HEADERS = ("de-DE,de;q=0.9,en;q=0.8", "fr-FR,fr;q=0.9", "en-US,en;q=0.5", "")


def _ok(response: Any) -> None:
    if response.status_code != 200:
        raise RuntimeError(f"{response.request['PATH_INFO']} answered {response.status_code}")


def _pages(client: Any, rng: random.Random) -> None:
    for _ in range(90):
        _ok(client.get(f"/articles/{ids.slug(rng)}/"))
    for _ in range(110):
        query = {"page": rng.randrange(1, 40)}
        if rng.random() < 0.6:
            query["sort"] = rng.choice(("price", "-price", "name", "rating"))
        if rng.random() < 0.3:
            query["q"] = ids.search_term(rng)
        _ok(client.get("/products/", query))
    for _ in range(70):
        _ok(client.get(f"/api/v1/items/{rng.randrange(1, 500_000)}", HTTP_ACCEPT_LANGUAGE=rng.choice(LANGUAGE_HEADERS)))
    for section in ("products", "articles", "static", "brands"):
        _ok(client.get(f"/sitemap-{section}.xml"))
    for _ in range(60):
        pk = rng.randrange(1, 5000)
        _ok(client.get(f"/product/{pk}/", {"lang": rng.choice(("en", "de", "fr"))}))


def _sessions(rng: random.Random) -> None:
    from django.core.management import call_command
    from django.test import Client, override_settings

    for _ in range(180):
        _ok(Client().get(f"/login/{ids.user_id(rng)}/"))
    call_command("migrate", run_syncdb=True, verbosity=0)
    with override_settings(SESSION_ENGINE="django.contrib.sessions.backends.cached_db"):
        for _ in range(120):
            _ok(Client().get(f"/login/{ids.user_id(rng)}/"))


def _locks(cache: Any, variant: str, rng: random.Random) -> None:
    held = []
    for name in ("nightly-report", "sync_inventory"):
        lock = cache.lock(name, timeout=600)
        lock.acquire(blocking=False)
        held.append(lock)
    for _ in range(40):
        order = rng.randrange(100_000, 999_999)
        lock = cache.lock(f"invoice:{order}:lock" if variant == "a" else f"lock.payment.{order}", timeout=30)
        lock.acquire(blocking=False)
        if rng.random() < 0.5:
            lock.release()


def _run(name: str, backend: str, url: str, variant: str, rng: random.Random) -> None:
    words = WORDS[name]
    _configure(url, backend, OPTIONS[(name, variant)], words)
    _urls(words)
    from django.core.cache import cache
    from django.test import Client

    _low_level_cache(cache, variant, rng, words)
    _pages(Client(SERVER_NAME=words["host"]), rng)  # the host is part of the page cache's URL hash
    _sessions(rng)
    if name == "django-redis":
        _locks(cache, variant, rng)


# ---- families --------------------------------------------------------------------------------------------------

HEX32 = "[0-9a-f]{32}"
SESSION_ID = "[a-z0-9]{32}"


def _families(name: str, variant: str) -> Sequence[Family]:
    opt, words = OPTIONS[(name, variant)], WORDS[name]
    pre = f"{opt.key_prefix}:{opt.version}:"
    sess = f"{opt.session_prefix}:1:" if opt.session_prefix else pre
    i18n = rf"\.(en-us|de|fr)\.{opt.time_zone}"
    fams = [
        family("django page cache", rf"{pre}views\.decorators\.cache\.cache_page\.\.GET\.{HEX32}\.{HEX32}{i18n}"),
        family("django page header cache", rf"{pre}views\.decorators\.cache\.cache_header\.\.{HEX32}{i18n}"),
        family(
            f"django page cache {words['pages']}",
            rf"{pre}views\.decorators\.cache\.cache_page\.{words['pages']}\.GET\.{HEX32}\.{HEX32}{i18n}",
        ),
        family(
            f"django page header cache {words['pages']}",
            rf"{pre}views\.decorators\.cache\.cache_header\.{words['pages']}\.{HEX32}{i18n}",
        ),
        family(f"django template fragment {words['fragment']}", rf"{pre}template\.cache\.{words['fragment']}\.{HEX32}"),
        family("django template fragment product_card", rf"{pre}template\.cache\.product_card\.{HEX32}"),
        family("django cache session", rf"{sess}django\.contrib\.sessions\.cache{SESSION_ID}"),
        family("django cached_db session", rf"{sess}django\.contrib\.sessions\.cached_db{SESSION_ID}"),
    ]
    if opt.middleware_prefix:
        site = rf"{pre}views\.decorators\.cache\.cache_(page|header)\.{opt.middleware_prefix}"
        fams += [
            family("django site cache page", rf"{site.replace('(page|header)', 'page')}\.GET\.{HEX32}\.{HEX32}{i18n}"),
            family("django site cache header", rf"{site.replace('(page|header)', 'header')}\.{HEX32}{i18n}"),
        ]
    if variant == "a":
        fams += [
            family("app cache user profile", rf"{pre}user_profile_\d+"),
            family("app cache product detail", rf"{pre}product:\d+:detail"),
            family("app cache search results", rf"{pre}{words['search']}:[^:]+:\d"),
            family("app cache api call counter", rf"{pre}api_calls:\d+:\d{{4}}-\d\d-\d\d"),
            family("app cache exchange rate", rf"{pre}{words['rate']}:[A-Z]{{3}}_[A-Z]{{3}}"),
            family(f"app cache {words['stats']}", rf"{pre}{words['stats']}"),
        ]
    else:
        fams += [
            family("app cache customer summary", rf"{pre}customer\.[0-9a-f-]{{36}}\.summary"),
            family("app cache category page", rf"{pre}catalog/category/[a-z0-9-]+/page/\d+"),
            family("app cache geo lookup", rf"{pre}geo\|-?\d+\.\d{{4}},-?\d+\.\d{{4}}"),
            family("app cache monthly quota", rf"{pre}quota-[^@]+@[a-z.-]+-\d{{6}}"),
            family("app cache nav menu", rf"{pre}nav_menu_tree"),
        ]
    if name == "django-redis":
        fams += [
            family("django-redis lock nightly-report", rf"{pre}nightly-report"),
            family("django-redis lock sync_inventory", rf"{pre}sync_inventory"),
            family(
                "django-redis lock invoice",
                rf"{pre}invoice:\d+:lock" if variant == "a" else rf"{pre}lock\.payment\.\d+",
            ),
        ]
    return fams


def _workload(name: str, backend: str, distributions: Sequence[str]) -> Workload:
    return Workload(
        name=name,
        library=name,
        distributions=distributions,
        run=lambda url, variant, rng: _run(name, backend, url, variant, rng),
        families=lambda variant: _families(name, variant),
        options=lambda variant: _options_line(name, variant),
    )


WORKLOADS = (
    _workload("django-redis", DJANGO_REDIS_BACKEND, ("django-redis", "Django", "redis")),
    _workload("django", DJANGO_BACKEND, ("Django", "redis")),
)
