"""Flask workloads: Flask-Caching (RedisCache) and Flask-Session (redis), driven through Flask's test client.

Flask-Caching: `@cache.cached` views with and without `query_string=True`, `@cache.memoize` on functions and on
methods (one class with the default repr, one with `__caching_id__`), `delete_memoized` so version keys are
rewritten, the Jinja `{% cache %}` fragment tag, and `cache.set` of keys the application chooses. The memoized
functions are given the module names an application would have (`shop.catalog`), since Flask-Caching puts
`module.qualname` into its version keys. Flask-Session: one session per client, logged in through a view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scripts.library_keyspace import ids
from scripts.library_keyspace.common import Family, family
from scripts.library_keyspace.workload import Workload

CACHE_PREFIX = {"a": None, "b": "shopfront:"}
SESSION_PREFIX = {"a": None, "b": "sess_"}


def _named(obj: Any, module: str, qualname: str) -> Any:
    """Give a function or class the module and qualified name it would have in an application's package."""
    obj.__module__ = module
    obj.__qualname__ = qualname
    return obj


# ---- Flask-Caching ---------------------------------------------------------------------------------------------


def _caching_app(url: str, variant: str) -> tuple[Any, Any]:
    from flask import Flask, render_template_string, request
    from flask_caching import Cache

    app = Flask("shop")
    config: dict[str, Any] = {"CACHE_TYPE": "RedisCache", "CACHE_REDIS_URL": url, "CACHE_DEFAULT_TIMEOUT": 300}
    if CACHE_PREFIX[variant]:
        config["CACHE_KEY_PREFIX"] = CACHE_PREFIX[variant]
    app.config.update(config)
    cache = Cache(app)

    def blog_post(slug: str) -> str:
        return f"<h1>{slug}</h1>"

    def search() -> str:
        return f"results for {request.args.get('q')}"

    def product_api(pid: int) -> dict[str, int]:
        return {"id": pid}

    def dashboard() -> str:
        return "stats"

    def store_page(store: int) -> str:
        template = '{% cache 120, "store_banner", store|string %}<b>{{ store }}</b>{% endcache %}'
        return render_template_string(template, store=store)

    app.add_url_rule("/blog/<slug>", view_func=cache.cached(timeout=600)(blog_post))
    app.add_url_rule("/search", view_func=cache.cached(timeout=120, query_string=True)(search))
    app.add_url_rule("/api/products/<int:pid>", view_func=cache.cached(timeout=60)(product_api))
    app.add_url_rule("/dashboard", view_func=cache.cached(timeout=30, key_prefix="dashboard_stats")(dashboard))
    app.add_url_rule("/shop/<int:store>", view_func=store_page)
    return app, cache


def _memoized(cache: Any) -> dict[str, Any]:
    """Functions and methods memoized the way an application's modules memoize them."""

    def get_product(product_id: int) -> dict[str, int]:
        return {"id": product_id}

    def price_for(user_id: int, currency: str = "EUR", coupon: str | None = None) -> str:
        return f"9.99 {currency}" if coupon is None else f"8.99 {currency}"

    class AccountService:
        def permissions(self, user_id: int) -> list[str]:
            return ["read"]

    class Store:
        def __init__(self, store_id: int) -> None:
            self.store_id = store_id

        def __caching_id__(self) -> str:
            return f"Store({self.store_id})"

        def stock(self, sku: str) -> int:
            return 3

    _named(AccountService, "shop.accounts", "AccountService")
    _named(Store, "shop.stores", "Store")
    perms = _named(AccountService.permissions, "shop.accounts", "AccountService.permissions")
    AccountService.permissions = cache.memoize(timeout=600)(perms)  # type: ignore[method-assign]
    Store.stock = cache.memoize(timeout=600)(_named(Store.stock, "shop.stores", "Store.stock"))  # type: ignore[method-assign]
    return {
        "get_product": cache.memoize(timeout=900)(_named(get_product, "shop.catalog", "get_product")),
        "price_for": cache.memoize(timeout=300)(_named(price_for, "shop.pricing", "price_for")),
        "AccountService": AccountService,
        "Store": Store,
    }


def _ok(response: Any) -> None:
    if response.status_code != 200:
        raise RuntimeError(f"{response.request.path} answered {response.status_code}")


def _run_caching(url: str, variant: str, rng: random.Random) -> None:
    app, cache = _caching_app(url, variant)
    client = app.test_client()
    for _ in range(120):
        _ok(client.get(f"/blog/{ids.slug(rng)}"))
    for _ in range(140):
        query = {"q": ids.search_term(rng), "page": str(rng.randrange(1, 9))}
        if rng.random() < 0.4:
            query["sort"] = rng.choice(("new", "price", "relevance"))
        _ok(client.get("/search", query_string=query))
    for _ in range(80):
        _ok(client.get(f"/api/products/{rng.randrange(1, 200_000)}"))
    _ok(client.get("/dashboard"))
    with app.app_context():
        for store in rng.sample(range(1, 400), 30):
            _ok(client.get(f"/shop/{store}"))
        funcs = _memoized(cache)
        for _ in range(260):
            funcs["get_product"](rng.randrange(1, 200_000))
        for _ in range(200):
            funcs["price_for"](ids.user_id(rng), rng.choice(("EUR", "USD", "GBP")), rng.choice((None, "WELCOME10")))
        services = [funcs["AccountService"]() for _ in range(3)]
        for _ in range(90):
            rng.choice(services).permissions(ids.user_id(rng))
        stores = [funcs["Store"](rng.randrange(1, 400)) for _ in range(6)]
        for _ in range(90):
            rng.choice(stores).stock(f"SKU-{rng.randrange(10_000, 99_999)}")
        for pid in rng.sample(range(1, 200_000), 10):
            cache.delete_memoized(funcs["get_product"], pid)
        cache.delete_memoized(funcs["price_for"])
        for _ in range(120):
            if variant == "a":
                cache.set(f"user:{ids.user_id(rng)}:settings", {"theme": "dark"})
            else:
                cache.set(f"wishlist_{ids.uuid4(rng).hex}", [1, 2])


def _caching_families(variant: str) -> Sequence[Family]:
    pre = CACHE_PREFIX[variant] or "flask_cache_"
    b64 = "[A-Za-z0-9+/]"
    # the instance's repr, or its __caching_id__; Flask-Caching 2.1+ drops every character but [A-Za-z0-9_.]
    instance = r"(<?shop\.[a-z]+\.[A-Za-z]+ ?object ?at ?0x[0-9a-f]+>?|Store\(?\d+\)?)"
    return [
        family("flask-caching view blog", rf"{pre}view//blog/[a-z0-9-]+"),
        family("flask-caching view search query", rf"{pre}(view/)?/search([0-9a-f]{{32}}|[0-9a-f]{{64}})"),
        family("flask-caching view product api", rf"{pre}view//api/products/\d+"),
        family("flask-caching view dashboard", rf"{pre}dashboard_stats"),
        family("flask-caching template fragment", rf"{pre}_template_fragment_cache_store_banner_\d+"),
        family("flask-caching memoize", rf"{pre}(?!view/){b64}{{16}}{b64}{{6}}({b64}{{6}})?"),
        family("flask-caching memoize version", rf"{pre}shop\.[a-z]+\.[A-Za-z_.]+_memver"),
        family("flask-caching memoize instance version", rf"{pre}shop\.[a-z]+\.[A-Za-z_.]+\.{instance}_memver"),
        family("app cache user settings" if variant == "a" else "app cache wishlist", rf"{pre}user:\d+:settings"
               if variant == "a" else rf"{pre}wishlist_[0-9a-f]{{32}}"),
    ]  # fmt: skip


# ---- Flask-Session ---------------------------------------------------------------------------------------------


def _run_session(url: str, variant: str, rng: random.Random) -> None:
    import redis
    from flask import Flask, session
    from flask_session import Session

    app = Flask("accounts")
    app.config.update(SESSION_TYPE="redis", SESSION_REDIS=redis.Redis.from_url(url), SECRET_KEY="not-secret")
    if SESSION_PREFIX[variant]:
        app.config.update(SESSION_KEY_PREFIX=SESSION_PREFIX[variant], SESSION_USE_SIGNER=True, SESSION_PERMANENT=False)
    Session(app)

    @app.route("/login/<int:user_id>")
    def login(user_id: int) -> str:
        session["user_id"] = user_id
        session["locale"] = rng.choice(("en", "de", "fr"))
        return "ok"

    for _ in range(400):
        _ok(app.test_client().get(f"/login/{ids.user_id(rng)}"))


def _session_families(variant: str) -> Sequence[Family]:
    pre = SESSION_PREFIX[variant] or "session:"
    return [family("flask-session session", rf"{pre}[A-Za-z0-9_-]{{32,64}}")]


WORKLOADS = (
    Workload(
        name="flask-caching",
        library="flask-caching",
        distributions=("Flask-Caching", "Flask", "cachelib", "redis"),
        run=_run_caching,
        families=_caching_families,
        options=lambda variant: (
            f"CACHE_TYPE=RedisCache CACHE_KEY_PREFIX={CACHE_PREFIX[variant]!r} CACHE_DEFAULT_TIMEOUT=300"
        ),
    ),
    Workload(
        name="flask-session",
        library="flask-session",
        distributions=("Flask-Session", "Flask", "redis"),
        run=_run_session,
        families=_session_families,
        options=lambda variant: (
            f"SESSION_TYPE=redis SESSION_KEY_PREFIX={SESSION_PREFIX[variant] or 'session:'!r}"
            + (" SESSION_USE_SIGNER=True SESSION_PERMANENT=False" if variant == "b" else "")
        ),
    ),
)
