"""Rate-limit workloads: limits (its strategies on RedisStorage) and Flask-Limiter on a small app.

limits is driven the way an API gateway drives it: one limiter per strategy, identifiers that are user ids,
IPv4 and IPv6 addresses and e-mail addresses, next to a word naming what is limited, and several rate strings.
Flask-Limiter limits a few routes by remote address (the test client's REMOTE_ADDR varies) and one by user.
"""

from __future__ import annotations

import importlib.metadata
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from scripts.library_keyspace import ids
from scripts.library_keyspace.common import Family, family
from scripts.library_keyspace.workload import Workload

LIMITS_PREFIX = {"a": None, "b": "gateway"}  # RedisStorage(key_prefix=...), where the installed limits has it
NAMESPACE = {"a": "LIMITER", "b": "gw"}  # RateLimitItem(namespace=...): the word after the storage prefix
#: What each strategy limits, and at which rates (two rates: stacked limits). A limiter's keys hold its strategy's
#: data type, so strategies never share a resource.
RESOURCES = {
    "a": {
        "FixedWindowRateLimiter": {"login": ("5/minute", "20/hour"), "password-reset": ("3 per hour",)},
        "MovingWindowRateLimiter": {"api": ("100/minute",)},
        "SlidingWindowCounterRateLimiter": {"export": ("10/hour",), "ws-connect": ("5/second",)},
    },
    "b": {
        "FixedWindowRateLimiter": {"search": ("30 per 10 minutes",)},
        "MovingWindowRateLimiter": {"upload": ("2/second", "500/day")},
        "SlidingWindowCounterRateLimiter": {"graphql": ("2/second",)},
    },
}
IDENTIFIERS: dict[str, dict[str, Callable[[random.Random], str]]] = {
    "a": {
        "user": lambda rng: str(ids.user_id(rng)),
        "ip": lambda rng: ids.ipv4(rng) if rng.random() < 0.7 else ids.ipv6(rng),
        "email": ids.email,
    },
    "b": {
        "apikey": lambda rng: ids.urlsafe_token(rng, 24),
        "account": lambda rng: str(ids.uuid4(rng)),
        "client": lambda rng: ids.ipv6(rng) if rng.random() < 0.5 else ids.ipv4(rng),
    },
}


def _storage_prefix(variant: str) -> str | None:
    """The variant's key_prefix if the installed RedisStorage takes one (limits 3.x does not)."""
    import inspect

    from limits.storage import RedisStorage

    accepts = "key_prefix" in inspect.signature(RedisStorage.__init__).parameters
    return LIMITS_PREFIX[variant] if accepts else None


def _item(parsed: Any, namespace: str) -> Any:
    return type(parsed)(parsed.amount, parsed.multiples, namespace=namespace)


def _strategies() -> list[str]:
    import limits.strategies

    names = ["FixedWindowRateLimiter", "MovingWindowRateLimiter", "SlidingWindowCounterRateLimiter"]
    return [name for name in names if hasattr(limits.strategies, name)]


def _run_limits(url: str, variant: str, rng: random.Random) -> None:
    import limits
    import limits.strategies
    from limits.storage import RedisStorage

    prefix = _storage_prefix(variant)
    storage = RedisStorage(url, key_prefix=prefix) if prefix else RedisStorage(url)
    per_second: list[tuple[Any, Any, tuple[str, ...]]] = []
    for strategy in _strategies():
        limiter = getattr(limits.strategies, strategy)(storage)
        for _ in range(300):
            resource, rates = rng.choice(sorted(RESOURCES[variant][strategy].items()))
            kind, make = rng.choice(sorted(IDENTIFIERS[variant].items()))
            identifiers = (resource, kind, make(rng))
            for rate in (_item(parsed, NAMESPACE[variant]) for parsed in map(limits.parse, rates)):
                for _ in range(rng.randrange(1, 4)):
                    limiter.hit(rate, *identifiers)
                if rate.GRANULARITY.name == "second" and strategy.startswith("Sliding"):
                    per_second.append((limiter, rate, identifiers))
    time.sleep(1.1)  # the next per-second window: the sliding window counter keeps the previous one as `/-1`
    for limiter, rate, identifiers in per_second[::2]:
        limiter.hit(rate, *identifiers)


RATE_TAIL = r"/\d+/\d+/(second|minute|hour|day|month|year)"
IDENT = {
    "user": r"\d+",
    "ip": r"(\d+\.\d+\.\d+\.\d+|[0-9a-f:]+)",
    "email": r"[^/@]+@[a-z.-]+",
    "apikey": r"[A-Za-z0-9_-]{32}",
    "account": r"[0-9a-f-]{36}",
    "client": r"(\d+\.\d+\.\d+\.\d+|[0-9a-f:]+)",
}
STRATEGY_WORDS = {
    "FixedWindowRateLimiter": "fixed window",
    "MovingWindowRateLimiter": "moving window",
    "SlidingWindowCounterRateLimiter": "sliding window counter",
}


def _limits_families(variant: str) -> Sequence[Family]:
    pre = _storage_prefix(variant) or "LIMITS"
    fams = []
    for strategy, resources in RESOURCES[variant].items():
        for resource, kind in ((r, k) for r in resources for k in IDENTIFIERS[variant]):
            name = f"limits {STRATEGY_WORDS[strategy]} {resource} by {kind}"
            body = rf"{NAMESPACE[variant]}/{resource}/{kind}/{IDENT[kind]}{RATE_TAIL}"
            if strategy.startswith("Sliding"):
                fams.append(family(name, rf"{pre}:\{{{body}\}}"))
                fams.append(family(f"{name} previous window", rf"{pre}:\{{{body}\}}/-1"))
            else:
                fams.append(family(name, rf"{pre}:{body}"))
    return fams


def _limits_options(variant: str) -> str:
    if not _installed("limits"):
        return "limits not installed"
    prefix = _storage_prefix(variant)
    used = [RESOURCES[variant][strategy] for strategy in _strategies()]
    rates = "; ".join(f"{res}: {', '.join(r)}" for per in used for res, r in per.items())
    return (
        f"RedisStorage(key_prefix={prefix or 'default'}) rate namespace={NAMESPACE[variant]!r}"
        f" strategies {', '.join(_strategies())}; rates {rates}"
    )


def _installed(distribution: str) -> bool:
    try:
        importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


# ---- Flask-Limiter ---------------------------------------------------------------------------------------------


def _run_flask_limiter(url: str, variant: str, rng: random.Random) -> None:
    from flask import Flask, request
    from flask_limiter import Limiter
    from flask_limiter.util import get_remote_address

    app = Flask("api")
    strategy = "fixed-window" if variant == "a" else "moving-window"
    kwargs: dict[str, Any] = {"storage_uri": url, "strategy": strategy, "default_limits": ["200 per day", "50/hour"]}
    if variant == "b":
        kwargs["key_prefix"] = "public-api"
    limiter = Limiter(get_remote_address, app=app, **kwargs)

    @app.route("/api/items")
    def items() -> str:
        return "items"

    @app.route("/login", methods=["POST"])
    @limiter.limit("5/minute")
    def login() -> str:
        return "ok"

    @app.route("/reports/<int:report_id>")
    @limiter.limit("20/hour", key_func=lambda: request.headers.get("X-User-Id", "anonymous"))
    def report(report_id: int) -> str:
        return f"report {report_id}"

    client = app.test_client()
    for _ in range(300):
        address = ids.ipv4(rng) if rng.random() < 0.75 else ids.ipv6(rng)
        environ = {"REMOTE_ADDR": address}
        client.get("/api/items", environ_base=environ)
        if rng.random() < 0.4:
            client.post("/login", environ_base=environ)
        if rng.random() < 0.3:
            headers = {"X-User-Id": str(ids.user_id(rng))}
            client.get(f"/reports/{rng.randrange(1, 900)}", environ_base=environ, headers=headers)


def _flask_limiter_families(variant: str) -> Sequence[Family]:
    ip = r"(\d+\.\d+\.\d+\.\d+|[0-9a-f:]+)"
    pre = "LIMITS:LIMITER/" + ("public-api/" if variant == "b" else "")
    return [
        family("flask-limiter default limits items", rf"{pre}{ip}/items{RATE_TAIL}"),
        family("flask-limiter route limit login", rf"{pre}{ip}/login{RATE_TAIL}"),
        family("flask-limiter route limit report", rf"{pre}\d+/report{RATE_TAIL}"),
    ]


WORKLOADS = (
    Workload(
        name="limits",
        library="limits",
        distributions=("limits", "redis"),
        run=_run_limits,
        families=_limits_families,
        options=_limits_options,
    ),
    Workload(
        name="flask-limiter",
        library="flask-limiter",
        distributions=("Flask-Limiter", "limits", "Flask", "redis"),
        run=_run_flask_limiter,
        families=_flask_limiter_families,
        options=lambda variant: (
            "Limiter(get_remote_address, default_limits=['200 per day', '50/hour'], "
            + ("strategy='fixed-window')" if variant == "a" else "strategy='moving-window', key_prefix='public-api')")
            + "; @limit('5/minute') on login, @limit('20/hour', key_func=user id header) on reports"
        ),
    ),
)
