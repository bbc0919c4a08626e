"""The catalog's shapes for libraries running with their own key prefix or namespace option set.

`tests/data/library_keys/prefixed_keys.tsv` holds what real libraries wrote with prefixes none of them uses by
default (`scripts/library_keyspace/prefixed.py`: Celery/kombu `global_keyprefix="acme:"`, dramatiq
`namespace="acme-jobs"`, celery-redbeat `redbeat_key_prefix="acme-beat:"`, rq 3 `RQ_KEY_PREFIX=acme-rq`,
Django `KEY_PREFIX="site"`, `VERSION=4`, `CACHE_MIDDLEWARE_KEY_PREFIX="www"` and a
session alias with `KEY_PREFIX="acct-sessions"`, Flask-Caching `CACHE_KEY_PREFIX="acme-cache:"`). The file is fed
to an engine as a scan would feed it. A family is claimed only where the rest of its key, after the prefix, is
the library's own (`.DQ`, `::schedule`, `views.decorators.cache.cache_page.`); the others (a job hash
`<prefix>:job:<id>`, a bare queue list, a cache entry under the application's key) are listed with the reason,
and none of them, nor any application key, may be attributed to a library.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

import pytest

from rediscipline.api import settings_for
from rediscipline.engine.libraries import LibraryPolicy, default_catalog
from rediscipline.engine.runner import Engine
from rediscipline.model.facts import KeyFact
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.location import Location
from rediscipline.settings.loader import Overrides
from tests.support.library_corpus import APPLICATION, CORPUS, PREFIXED, Row, load

ORIGIN = Location("live", "redis://127.0.0.1:6379", db=0)

#: The catalog's library each claimed family of the fixture is attributed to.
CLAIMED: dict[str, str] = {
    "celery task result": "celery",
    "celery group result": "celery",
    "celery chord counter": "celery",
    "kombu unacked index": "kombu",
    "kombu unacked mutex": "kombu",
    "kombu binding": "kombu",
    "kombu pidbox reply queue": "kombu",
    "kombu priority queue": "kombu",
    "dramatiq worker heartbeats": "dramatiq",
    "dramatiq worker acks": "dramatiq",
    "dramatiq dead letters": "dramatiq",
    "dramatiq dead letter messages": "dramatiq",
    "dramatiq delay queue": "dramatiq",
    "dramatiq delay queue messages": "dramatiq",
    "dramatiq result": "dramatiq",
    "redbeat schedule": "celery-redbeat",
    "redbeat statics": "celery-redbeat",
    "redbeat lock": "celery-redbeat",
    "rq job dependents": "rq",
    "rq job dependencies": "rq",
    "rq clean groups lock": "rq",
    "rq clean registries lock": "rq",
    "rq scheduler lock": "rq",
    "django page cache": "django",
    "django page cache feeds": "django",
    "django page header cache": "django",
    "django page header cache feeds": "django",
    "django site cache page": "django",
    "django site cache header": "django",
    "django template fragment product_card": "django",
    "django template fragment top_menu": "django",
    "django cache session": "django",
    "django cached_db session": "django",
    "flask-caching view blog": "flask-caching",
    "flask-caching view product api": "flask-caching",
    "flask-caching view search query": "flask-caching",
    "flask-caching memoize version": "flask-caching",
    "flask-caching memoize instance version": "flask-caching",
    # claimed under a prefix another key of the same library proved in the run (`redis_meta.libraries.under_prefix`)
    "django cache entry": "django",
    "kombu queue": "kombu",
    "redbeat entry": "celery-redbeat",
    "rq job": "rq",
    "rq job results": "rq",
    "rq queue": "rq",
    "flask-caching memoize": "flask-caching",
}
#: Families of the fixture no shape claims once the library's prefix is set, and why.
UNCLAIMED: dict[str, str] = {
    "kombu unacked messages": "`<prefix>unacked` is a hash an application names alike (`orders:unacked`)",
    "dramatiq queue": "a queue `<namespace>:<queue>` is claimed once the namespace is proved: the run has none",
    "dramatiq queue messages": "`<namespace>:<queue>.msgs` is a hash an application may name alike",
    "flask-caching memoize instance repr": "`<prefix><module>.<repr of the instance>_memver` ends in one token",
    "rq job executions": "`<prefix>:executions:<id>` is a zset an application may name alike",
    "rq queues index": "`<prefix>:queues` is a set an application names alike",
    "rq workers index": "`<prefix>:workers` is a set an application names alike",
    "rq workers of queue": "`<prefix>:workers:<queue>` is a set an application names alike",
    "rq registry": "`<prefix>:finished:<queue>` and the other registries are zsets an application names alike",
    "rq group": "`<prefix>:group:<id>` is a set an application names alike",
    "rq groups index": "`<prefix>:groups` is a set an application names alike",
    "rq worker": "`<prefix>:worker:<name>` is a hash an application names alike",
    "django-redis lock": "a lock is `<prefix>:<version>:<name>`: the name is the application's",
    "flask-caching view dashboard": "`cached(key_prefix=...)` replaces `view/<path>` with the application's key",
    "flask-caching template fragment": "`_template_fragment_cache_<name>` is not in the catalog",
    "flask-caching cache entry": "`<prefix><key>`: the key is the application's",
}

#: Keys an application writes next to the new shapes, with their types: none is a library's.
APPLICATION_KEYS: tuple[tuple[str, str], ...] = (
    ("shop:orders:meta", "hash"),
    ("user:1:profile", "string"),
    ("user:1:profile", "hash"),
    ("app:views:1", "string"),
    ("app:1:views", "string"),
    ("site:4:homepage", "string"),
    ("site:2:menu.tree", "string"),
    ("cms:3:templates.cache", "string"),
    ("orders:unacked", "hash"),
    ("orders:unacked", "zset"),
    ("jobs:schedule", "zset"),
    ("beat:schedule", "zset"),
    ("acme:lock", "string"),
    ("reports:lock", "string"),
    ("shop:billing", "list"),
    ("mail:outbox", "list"),
    ("mail:outbox.sent", "list"),
    ("inbox:42.msgs", "string"),
    ("shop:job:42", "hash"),
    ("shop:queue:emails", "list"),
    ("shop:results:42", "stream"),
    ("shop:workers", "set"),
    ("shop:finished:2024-10", "zset"),
    ("emails:42", "hash"),
    ("emails:42:lock", "string"),
    ("emails:wait", "list"),
    ("emails:events", "stream"),
    ("emails:42:logs", "list"),
    ("cache:user_42_profile", "string"),
    ("cache:view:home", "string"),
    ("app:views/home", "string"),
    ("session:8f14e45fceea167a5a36dedd4bea2543", "string"),
    ("sessions:1:8f14e45fceea167a5a36dedd4bea2543", "string"),
    ("feature_flags:version", "string"),
    ("reports:2024-10:task-meta", "string"),
    ("billing:pidbox", "list"),
    ("acme:binding:orders", "set"),
)


def _family_label(row: Row) -> str:
    """The fixture's family without the queue, registry or lock name the run chose."""
    for general in ("kombu queue", "dramatiq queue", "dramatiq dead letters", "dramatiq dead letter messages",
                    "dramatiq delay queue messages", "dramatiq delay queue", "dramatiq queue messages",
                    "dramatiq worker acks", "rq workers of queue", "rq queue", "django-redis lock"):  # fmt: skip
        if row.family.startswith(general + " ") and row.family not in CLAIMED:
            return general
    if row.family.startswith("rq ") and row.family.endswith(tuple(f" registry {q}" for q in QUEUES)):
        return "rq registry"
    if row.family.startswith("app cache "):
        return "django cache entry" if row.library == "django" else "flask-caching cache entry"
    if row.family == "flask-caching memoize instance version" and b"objectat" in row.key:
        return "flask-caching memoize instance repr"
    return row.family


QUEUES = ("critical", "default", "exports")


def _attributed(rows: Iterable[tuple[bytes, str, int]]) -> list[str | None]:
    """The library (lower case) the engine attributes each key to, None when no library."""
    rows = list(rows)
    engine = Engine(settings_for(Overrides(isolated=True)).rules, libraries=LibraryPolicy(default_catalog()))
    for key, kind, ttl in rows:
        engine.feed(KeyFact(key, ORIGIN, 0, kind, ttl_ms=ttl))
    result = engine.finish("live")
    families = {stats.pattern: stats.library for stats in result.stats.pattern_stats if stats.library}
    catalog = default_catalog()
    found = []
    for key, _kind, _ttl in rows:
        pattern = engine.patterns.canonical(KeyTemplate(infer_parts(key)).pattern)
        family = catalog.by_id.get(families.get(pattern, ""))
        found.append(family.library.lower() if family is not None else None)
    return found


@cache
def measured() -> list[tuple[Row, str, str | None]]:
    rows = load(PREFIXED)
    got = _attributed((row.key, row.type, row.ttl_ms) for row in rows)
    return [(row, _family_label(row), library) for row, library in zip(rows, got, strict=True)]


def test_the_fixture_holds_every_prefixed_library() -> None:
    libraries = {row.library for row, _label, _got in measured()}
    assert {"celery", "kombu", "dramatiq", "celery-redbeat", "rq", "django", "flask-caching"} <= libraries


def test_every_family_of_the_fixture_is_claimed_or_left_with_a_reason() -> None:
    labels = {label for _row, label, _got in measured()}
    assert labels - CLAIMED.keys() - UNCLAIMED.keys() == set()


def test_claimed_families_are_attributed_to_their_library() -> None:
    wrong = {}
    counts: dict[str, int] = {}
    for row, label, got in measured():
        if label in CLAIMED:
            counts[label] = counts.get(label, 0) + 1
            if got != CLAIMED[label]:
                wrong[row.key] = (label, got)
    print(f"\nprefixed: {sum(counts.values())} keys of {len(counts)} claimed families attributed")
    assert wrong == {}
    assert len(counts) >= 30


def test_unclaimed_families_are_attributed_to_no_library() -> None:
    claimed = {row.key: (label, got) for row, label, got in measured() if label in UNCLAIMED and got is not None}
    assert claimed == {}


def application_rows() -> list[tuple[bytes, str, int]]:
    rows = [(row.key, row.type, row.ttl_ms) for row in load(CORPUS / "caches.tsv") if row.library == APPLICATION]
    return rows + [(key.encode(), kind, -1) for key, kind in APPLICATION_KEYS]


def test_no_application_key_is_attributed() -> None:
    rows = application_rows()
    got = _attributed(rows)
    assert len(rows) > 2900
    assert {key: library for (key, _kind, _ttl), library in zip(rows, got, strict=True) if library} == {}


@pytest.mark.parametrize(("key", "kind"), APPLICATION_KEYS)
def test_the_catalog_claims_no_application_key_of_the_neighbourhood(key: str, kind: str) -> None:
    template = KeyTemplate(infer_parts(key.encode()))
    assert default_catalog().family_of(template, kind) is None
    assert default_catalog().family_of(template) is None
