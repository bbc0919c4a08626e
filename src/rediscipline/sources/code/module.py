"""What one module declares before any of its code runs: imports, constants, factories, classes, and kinds.

The extractor needs this first pass because Python code uses names before their definition is read in file
order (a method uses `self.redis` assigned in `__init__` further down, a function calls a factory defined
below it). It records what resolution needs: which local names stand for redis-py modules and classes and
what every import names, module-level constants (for key templates and sizes), what module globals hold,
what functions and methods return, and what each class's attributes hold (a client, a pipeline, an
instance of another class whose attributes are followed in turn: `self.tiger.connection`). Classes and
functions of other modules of the project come from the project's tables (project.py), so a subclass of
`redis.Redis` defined in one module is a client class in every module.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field

from rediscipline.sources.code.annotations import annotation_kind
from rediscipline.sources.code.constructors import Constructed, agreed_kind
from rediscipline.sources.code.definitions import Definitions
from rediscipline.sources.code.evidence import Evidence, Receivers
from rediscipline.sources.code.kinds import (
    BUILDERS,
    CLIENT_KIND,
    CLIENT_RESULTS,
    FOREIGN_OBJECTS,
    KIND_CLIENT,
    KIND_OTHER,
    KIND_PIPELINE,
    KNOWN_FUNCTIONS,
    PIPELINE_KIND,
    PUBSUB_KIND,
    REDIS_PACKAGES,
    SHAPE_CALLABLE,
    SHAPE_CLASS,
    SHAPE_ITEMS,
    SHAPE_MAPPING,
    Kind,
    is_class_name,
    is_mock,
    is_redis_package,
    known_attribute,
    known_method,
)
from rediscipline.sources.code.project_api import Project
from rediscipline.sources.code.receivers import (
    CLIENT_FACTORIES,
    CLIENT_METHODS,
    is_client_type,
    is_pipeline_type,
    is_pubsub_type,
    looks_like_redis,
)

#: Passes over the factories and classes: a factory that returns another factory's client needs a second look.
FACTORY_PASSES = 3
#: How deep class hierarchies and attribute chains are followed.
HIERARCHY_DEPTH = 8
#: Modules whose names in an annotation only wrap the type that matters (`Optional[Redis]`, `Awaitable[...]`).
TYPING_MODULES = ("typing", "typing_extensions", "collections", "types", "builtins")
#: Client classes of the Redis packages, under whatever module they are imported from.
CLIENT_CONSTRUCTORS = frozenset({"Redis", "StrictRedis", "Valkey", "StrictValkey"})
#: `typing.cast(T, value)`: the value, with the type it is told to have.
CASTS = frozenset({"typing.cast", "typing_extensions.cast"})

LocalKinds = Callable[[str], Kind | None]


@dataclass
class ClassInfo:
    """One class: its constants and methods, its bases, and what its attributes and methods give."""

    name: str
    qualname: str = ""
    constants: dict[str, ast.expr] = field(default_factory=dict)  # class-level `PREFIX = "user"`
    methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    bases: tuple[str, ...] = ()  # qualified names of the base classes
    attributes: dict[str, Kind] = field(default_factory=dict)  # `self.cache = redis.Redis()` → client
    returns: dict[str, Kind] = field(default_factory=dict)  # `def _conn(self) -> Redis` → client
    properties: set[str] = field(default_factory=set)  # methods read as attributes (`@property`)
    class_attributes: dict[str, str] = field(default_factory=dict)  # `redis_client = Redis`: a class, qualified

    def snapshot(self) -> tuple[object, ...]:
        return (tuple(sorted(self.attributes.items())), tuple(sorted(self.returns.items())))


@dataclass
class ModuleInfo:
    name: str = ""
    project: Project | None = None
    aliases: dict[str, str] = field(default_factory=dict)  # local name → qualified redis name
    imported: dict[str, str] = field(default_factory=dict)  # local name → what it imports (`os.path`, `app.db.conn`)
    constants: dict[str, ast.expr] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    #: project modules imported as a whole (`import shop.keys as keys`, `from shop import keys`) → what they define
    imported_modules: dict[str, Definitions] = field(default_factory=dict)
    globals: dict[str, Kind] = field(default_factory=dict)  # module-level names whose kind is known
    #: module-level type aliases (`ClientType = Union[redis.Redis, FakeRedis]`) and the kind they name
    type_aliases: dict[str, Kind] = field(default_factory=dict)
    function_kinds: dict[str, Kind] = field(default_factory=dict)  # functions whose result's kind is known
    classes: dict[str, ClassInfo] = field(default_factory=dict)  # this module's classes, by name
    receivers: Receivers = field(default_factory=Receivers)
    fixtures: dict[str, Kind] = field(default_factory=dict)  # pytest fixtures this module defines, by name
    #: functions and methods handed to `client.transaction(fn, ...)`: their `pipe.multi()` is that transaction's
    transaction_callbacks: set[str] = field(default_factory=set)
    #: what this module's calls give the project's classes when building them (constructors.py)
    constructed: Constructed = field(default_factory=dict)

    # -- names -------------------------------------------------------------------------------------------

    def qualified(self, expr: ast.expr) -> str | None:
        """`redis.asyncio.Redis` for `aioredis.Redis` after `import redis.asyncio as aioredis`, or None."""
        if isinstance(expr, ast.Name):
            return self.aliases.get(expr.id)
        if isinstance(expr, ast.Attribute):
            base = self.qualified(expr.value)
            return f"{base}.{expr.attr}" if base is not None else None
        return None

    def qualify(self, expr: ast.expr) -> str | None:
        """The qualified name a dotted expression stands for: a class of this module, or an import."""
        if isinstance(expr, ast.Name):
            own = self.classes.get(expr.id)
            if own is not None:
                return own.qualname
            return self.imported.get(expr.id) or self.aliases.get(expr.id)
        if isinstance(expr, ast.Attribute):
            base = self.qualify(expr.value)
            return f"{base}.{expr.attr}" if base is not None else None
        return None

    def class_info(self, qualname: str) -> ClassInfo | None:
        module, _, name = qualname.rpartition(".")
        own = self.classes.get(name) if module == self.name else None
        if own is not None and own.qualname == qualname:
            return own
        return self.project.class_info(qualname) if self.project is not None else None

    def is_own(self, qualified: str) -> bool:
        """A name from one of the run's own packages, whatever it is called (a package named `fakeredis` or
        `myredis` that is the project being checked is the project, not redis-py's relative)."""
        return self.project is not None and self.project.is_own(qualified.split(".", 1)[0])

    def is_foreign(self, qualified: str) -> bool:
        """A name from another package: not this run's own modules, not redis-py or a package named after it."""
        if is_redis_package(qualified):
            return False
        return self.project is None or not self.project.is_own(qualified.split(".", 1)[0])

    def is_client_class(self, qualname: str, depth: int = 0) -> bool:
        """A class that is, or extends, a redis-py client (`class Cache(redis.Redis)`, in any module)."""
        info = self.class_info(qualname)
        if info is None:
            return is_client_type(qualname)
        if depth > HIERARCHY_DEPTH:
            return False
        return any(self.is_client_class(base, depth + 1) for base in info.bases)

    def instance_kind(self, qualname: str) -> Kind | None:
        """What calling the class `qualname` gives: a client, or an instance of a class that is not one."""
        last = qualname.rsplit(".", 1)[-1]
        if self.class_info(qualname) is not None:
            return Kind(KIND_CLIENT, qualname) if self.is_client_class(qualname) else Kind(KIND_OTHER, qualname)
        module = qualname.rsplit(".", 1)[0]
        defined = self.project.defined(module) if self.project is not None and module != qualname else None
        if defined is not None and last in defined.classes:  # a class of a module that never names Redis
            return CLIENT_KIND if last in defined.client_classes else Kind(KIND_OTHER, qualname)
        if is_mock(qualname):
            return Kind(KIND_OTHER, qualname)
        if is_client_type(qualname):
            return CLIENT_KIND
        if not is_class_name(last):
            return None
        if self.is_own(qualname):
            return None  # a name of the project that is no class of it: nothing known
        if qualname.split(".", 1)[0] in REDIS_PACKAGES or self.is_foreign(qualname):
            return Kind(KIND_OTHER, qualname)  # redis.ConnectionPool, django_redis's RedisCache, GlideClient
        return None

    # -- annotations -------------------------------------------------------------------------------------

    def annotation_kind(self, annotation: ast.expr | None, depth: int = 0) -> Kind | None:
        """The kind an annotation promises: a client (`Redis`, `redis.Redis | None`, `Optional["Redis"]`, an
        alias such as `RedisClient = redis.Redis`, a subclass of a client), a pipeline, a pub/sub object, an
        instance of a class that is not a client (`cache: RedisCache`), or a container, callable or class
        whose items, result or instances are clients (annotations.py)."""
        return annotation_kind(self, annotation, depth)

    def annotation_name(self, node: ast.Name | ast.Attribute, depth: int) -> Kind | None:
        """The kind a name in an annotation stands for: a type alias (of this module or imported from another
        of the project), a client, pipeline or pub/sub type, or the class it names."""
        qualified = self.qualify(node)
        if isinstance(node, ast.Name) and node.id in self.type_aliases:
            return self.type_aliases[node.id]
        if qualified is not None and self.project is not None:
            alias = self.project.type_alias(qualified)  # `from pkg._typing import ClientType`
            if alias is not None:
                return alias
        if isinstance(node, ast.Name):
            value = self.constants.get(node.id)
            if value is not None:
                found = self.annotation_kind(value, depth + 1)
                if found is not None:
                    return found
        elif isinstance(node.value, (ast.Name, ast.Attribute)) and self.qualify(node.value) is None:
            return None  # `x.Redis` on something unknown
        written = qualified or (node.id if isinstance(node, ast.Name) else node.attr)
        if qualified is not None and qualified.split(".", 1)[0] in TYPING_MODULES:
            return None
        if is_pipeline_type(written):
            return PIPELINE_KIND
        if is_pubsub_type(written) and (qualified is None or not self.is_foreign(qualified)):
            return PUBSUB_KIND
        if qualified is None:
            return CLIENT_KIND if is_client_type(written) else None
        return self.instance_kind(qualified)

    # -- values ------------------------------------------------------------------------------------------

    def value_kind(
        self, expr: ast.expr, cls: ClassInfo | None = None, local: LocalKinds | None = None, depth: int = 0
    ) -> Kind | None:
        """The kind of an expression, as far as the module's tables and `local` (the function's names) tell."""
        if depth > HIERARCHY_DEPTH:
            return None
        if isinstance(expr, ast.Await):
            return self.value_kind(expr.value, cls, local, depth + 1)
        if isinstance(expr, ast.Call):
            return self.call_kind(expr, cls, local, depth + 1)
        if isinstance(expr, ast.Name):
            if local is not None:
                found = local(expr.id)
                if found is not None:
                    return found
            return self.global_kind(expr.id)
        if isinstance(expr, ast.Attribute):
            module = self.module_attribute(expr)
            if module is not None:
                return module
            owner = self.value_kind(expr.value, cls, local, depth + 1)
            return self.attribute_kind(owner, expr.attr) if owner is not None else None
        if isinstance(expr, (ast.BoolOp, ast.IfExp)):
            values = expr.values if isinstance(expr, ast.BoolOp) else [expr.body, expr.orelse]
            kinds = [self.value_kind(value, cls, local, depth + 1) for value in values]
            return next((k for k in kinds if k is not None and k.kind == KIND_CLIENT), None) or next(
                (k for k in kinds if k is not None), None
            )
        if isinstance(expr, ast.Subscript):
            owner = self.value_kind(expr.value, cls, local, depth + 1)
            if owner is None:
                return None
            if owner.cls == "django.core.cache":
                return owner  # `caches["default"]`
            if owner.shape in (SHAPE_ITEMS, SHAPE_MAPPING) and owner.item is not None:
                return owner if isinstance(expr.slice, ast.Slice) else owner.item  # `self.clients[0]`
        return None

    def global_kind(self, name: str) -> Kind | None:
        """A module-level name: a client, an instance, an object imported from another package."""
        found = self.globals.get(name)
        if found is not None:
            return found
        qualified = self.imported.get(name)
        if qualified is None or name in self.aliases:
            return None
        if self.project is not None and self.project.is_module(qualified):
            return Kind(KIND_OTHER, qualified)  # a module of the project: its functions are not commands
        known = FOREIGN_OBJECTS.get(qualified)
        if known is not None:
            return known
        if is_mock(qualified):
            return Kind(KIND_OTHER, qualified)
        if self.is_foreign(qualified) and not looks_like_redis(name) and not is_class_name(name):
            return Kind(KIND_OTHER, qualified)  # `from django.core.cache import cache`, `import os`
        return None

    def module_attribute(self, expr: ast.Attribute) -> Kind | None:
        """`extensions.redis_client` after `from shop import extensions`: what that module exports."""
        if not isinstance(expr.value, ast.Name) or self.project is None:
            return None
        module = self.imported.get(expr.value.id)
        if module is None or self.project.defined(module) is None:
            return None
        return self.project.global_kind(module, expr.attr)

    def attribute_kind(self, owner: Kind, attribute: str, depth: int = 0) -> Kind | None:
        """What `owner.attribute` holds, through the class's hierarchy (project classes, then the accessors
        of well-known libraries)."""
        if owner.cls is None or depth > HIERARCHY_DEPTH:
            return None
        info = self.class_info(owner.cls)
        if info is None:
            if is_mock(owner.cls):
                return owner  # whatever a test double hands out is a test double
            return known_attribute(owner.cls, attribute)
        if attribute in info.attributes:
            return info.attributes[attribute]
        if attribute in info.properties and attribute in info.returns:
            return info.returns[attribute]
        for base in info.bases:
            found = self.attribute_kind(Kind(KIND_OTHER, base), attribute, depth + 1)
            if found is not None:
                return found
        return known_attribute(owner.cls, attribute)  # a project class of a well-known library

    def method_kind(self, owner: Kind, method: str) -> Kind | None:
        """What `owner.method(...)` returns, through the class's hierarchy."""
        found = self._method(owner, method, 0)[1]
        return found if found is not None or owner.cls is None else known_method(owner.cls, method)

    def _method(self, owner: Kind, method: str, depth: int) -> tuple[bool, Kind | None, bool]:
        """(whether the class or a base defines the method, what it returns when known, whether that is only
        assumed: a class of another package may define any method). Every base is searched, left to right
        and depth first as Python's method resolution order goes; a definition the project shows wins over
        one a base class of another package is only assumed to have (`class Filter(FilterABC, Container)`
        gets `_watch` from `Container` even though `FilterABC` extends `abc.ABC`)."""
        if owner.cls is None or depth > HIERARCHY_DEPTH:
            return False, None, False
        info = self.class_info(owner.cls)
        if info is None:
            known = known_method(owner.cls, method)
            foreign = "." in owner.cls and self.is_foreign(owner.cls)
            if known is None and owner.kind == KIND_OTHER and foreign:
                return True, Kind(KIND_OTHER, owner.cls), True  # what another package's object gives is its own
            return known is not None, known, False
        if method in info.methods:
            return True, None if method in info.properties else info.returns.get(method), False
        if method in info.class_attributes:  # `redis_client = Redis`, then `self.redis_client(...)`
            return True, self.instance_kind(info.class_attributes[method]), False
        if method in info.attributes:  # calling what an attribute holds: a factory's result, a class's instance
            held = info.attributes[method]
            return True, held.item if held.shape in (SHAPE_CALLABLE, SHAPE_CLASS) else None, False
        if method in info.constants:
            return True, None, False  # `self._client_cls(...)` with a class constant the module cannot name
        assumed: tuple[bool, Kind | None, bool] | None = None
        for base in info.bases:
            found = self._method(Kind(KIND_OTHER, base), method, depth + 1)
            if found[0] and not found[2]:
                return found
            if found[0] and assumed is None:
                assumed = found
        return assumed or (False, None, False)

    def overrides(self, owner: Kind, method: str, depth: int = 0) -> bool:
        """Whether a client subclass of the project defines `method` itself (then it is not redis-py's)."""
        info = self.class_info(owner.cls) if owner.cls is not None else None
        if info is None or depth > HIERARCHY_DEPTH:
            return False
        return method in info.methods or any(
            self.overrides(Kind(KIND_CLIENT, base), method, depth + 1) for base in info.bases
        )

    def call_kind(
        self, call: ast.Call, cls: ClassInfo | None = None, local: LocalKinds | None = None, depth: int = 0
    ) -> Kind | None:
        """What a call returns: a client from a redis-py constructor or factory (or the project's), an
        instance of the class it builds, what a function or method of the project is known to return."""
        func = call.func
        name = self.qualified(func)
        if name is not None and (name in CLIENT_FACTORIES or name.rsplit(".", 1)[-1] in CLIENT_CONSTRUCTORS):
            return CLIENT_KIND
        if isinstance(func, ast.Attribute) and func.attr in CLIENT_METHODS:
            return CLIENT_KIND
        qualified = self.qualify(func)
        if qualified in CASTS and call.args:
            return self.annotation_kind(call.args[0])  # `cast(Redis, conn)`: the type it is told to have
        if isinstance(func, ast.Name) and func.id == "super" and cls is not None:
            if not cls.bases:
                return None
            client_base = next((base for base in cls.bases if self.is_client_class(base)), cls.bases[0])
            return self.instance_kind(client_base)  # the base classes' methods
        if isinstance(func, ast.Name):
            made = local(func.id) if local is not None else None
            if made is not None and made.shape in (SHAPE_CALLABLE, SHAPE_CLASS):
                return made.item  # `factory()` with `factory: Callable[..., Redis]`, `cls()` with `type[Redis]`
            if func.id in self.function_kinds:
                return self.function_kinds[func.id]
            if qualified is not None:
                return (
                    KNOWN_FUNCTIONS.get(qualified) or self.instance_kind(qualified) or self._foreign_result(qualified)
                )
            return None
        if not isinstance(func, ast.Attribute):
            return None
        if qualified is not None:
            made = self._qualified_call(func, qualified)
            if made is not None:
                return made
        owner = self.value_kind(func.value, cls, local, depth + 1)
        if owner is None:
            return None
        if owner.shape is not None:
            return _container_method(owner, func.attr)
        if owner.kind == KIND_OTHER and owner.cls in BUILDERS:
            return owner  # `r.bitfield(k).set(...)`: the builder again
        result = CLIENT_RESULTS.get(func.attr)
        if result is not None and owner.kind in (KIND_CLIENT, KIND_PIPELINE) and not self.overrides(owner, func.attr):
            return result  # `r.pipeline()`, `r.pubsub()`, `r.json()`, `r.lock(name)`
        return self.method_kind(owner, func.attr)

    def _qualified_call(self, func: ast.Attribute, qualified: str) -> Kind | None:
        """`module.function()`, `module.Class()`, `Class.factory()` on a class the module can name."""
        if qualified in KNOWN_FUNCTIONS:
            return KNOWN_FUNCTIONS[qualified]
        owner = qualified.rsplit(".", 1)[0]
        if self.project is not None and self.project.defined(owner) is not None:
            found = self.project.function_kind(owner, func.attr)
            if found is not None:
                return found
        made = self.instance_kind(qualified)
        if made is not None:
            return made
        if func.attr in ("from_url", "from_pool") and is_client_type(owner):
            return CLIENT_KIND
        if is_class_name(owner.rsplit(".", 1)[-1]):
            if self.class_info(owner) is not None:
                return self.method_kind(Kind(KIND_OTHER, owner), func.attr)
            if self.is_foreign(owner):
                return Kind(KIND_OTHER, owner)  # `GlideClient.create(config)`: the class's own factory
        return self._foreign_result(qualified)

    def _foreign_result(self, qualified: str) -> Kind | None:
        """What a function of another package returns (`requests.get(url)`, `json.loads(s)`) is not a client,
        unless the function says it gives one (`get_redis()`): its module is not redis-py."""
        if not self.is_foreign(qualified) or looks_like_redis(qualified.rsplit(".", 1)[-1]):
            return None
        return Kind(KIND_OTHER, qualified)

    def is_client_call(
        self, call: ast.Call, class_info: ClassInfo | None = None, local: LocalKinds | None = None
    ) -> bool:
        """A call that returns a client: a redis-py constructor or factory, or one of the project's own."""
        found = self.call_kind(call, class_info, local)
        return found is not None and found.kind == KIND_CLIENT

    def fixture_kind(self, name: str) -> Kind | None:
        """What a test's parameter holds when a pytest fixture of that name (in this module, else in a
        `conftest.py` of the project) provides it."""
        found = self.fixtures.get(name)
        if found is None and self.project is not None:
            found = self.project.fixture_kind(name)
        return found

    def constructor_kind(self, qualname: str, parameter: str) -> Kind | None:
        """What the `__init__` of the project class `qualname` is given for `parameter` by the calls that
        build it, in this module and in the others of the run, when they agree (constructors.py)."""
        kinds = set(self.constructed.get(qualname, {}).get(parameter, ()))
        if self.project is not None:
            kinds |= self.project.constructed_kinds(qualname, parameter)
        return agreed_kind(kinds)

    def self_kind(self, cls: ClassInfo) -> Kind:
        """What `self` is in the methods of `cls`: a client for a client subclass, else an instance."""
        return Kind(KIND_CLIENT if self.is_client_class(cls.qualname) else KIND_OTHER, cls.qualname)

    def evidence(self, identity: str) -> Evidence | None:
        """The evidence on a receiver: the whole project's when there is one, else this module's; a local
        bound to several things also counts the fitting Redis-only calls made on them."""
        found = self._pooled(identity)
        alternatives = self.receivers.alternatives.get(identity, ())
        if not alternatives:
            return found
        merged = Evidence()
        if found is not None:
            merged.merge(found)
        for other in alternatives:
            evidence = self._pooled(other)
            merged.fitting += evidence.fitting if evidence is not None else 0
        return merged

    def _pooled(self, identity: str) -> Evidence | None:
        if self.project is not None:
            found = self.project.evidence(identity)
            if found is not None:
                return found
        return self.receivers.evidence.get(identity)


def _container_method(owner: Kind, method: str) -> Kind | None:
    """What a method of a container of clients gives: an item (`clients.get(name)`, `pool.pop()`), or the
    values of a mapping (`clients.values()`)."""
    if owner.shape == SHAPE_MAPPING and method in ("get", "pop", "setdefault"):
        return owner.item
    if owner.shape == SHAPE_MAPPING and method == "values":
        return Kind(KIND_OTHER, None, owner.item, SHAPE_ITEMS)
    if owner.shape == SHAPE_ITEMS and method == "pop":
        return owner.item
    if owner.shape == SHAPE_CLASS and method in ("from_url", "from_pool"):
        return owner.item  # `self.client_class.from_url(url)` with `client_class: type[Redis]`
    return None


def receiver_key(expr: ast.expr) -> str | None:
    """`conn`, `self.cache`, `app.state.redis`: a receiver written as a dotted name, else None."""
    if isinstance(expr, ast.Name):
        return expr.id
    if isinstance(expr, ast.Attribute):
        owner = receiver_key(expr.value)
        return f"{owner}.{expr.attr}" if owner is not None else None
    return None
