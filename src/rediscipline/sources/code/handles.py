"""What each receiver expression holds while the extractor reads a function: a client, a pipeline, a pub/sub
object, a module command namespace, data, or nothing known.

Resolution goes through what the code shows first (the function's names, the module's declarations and the
project's tables, module.py), then through the weak signals weighed per receiver (evidence.py). Calls are
memoised per node, so a pipeline made by `r.pipeline()` is one object however often its call is asked about.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from rediscipline.redis_meta.methods import METHODS
from rediscipline.redis_meta.module_table_generated import MODULE_COMMANDS
from rediscipline.sources.code import calls as binding
from rediscipline.sources.code.kinds import (
    BUILDERS,
    CLIENT_RESULTS,
    KIND_CLIENT,
    KIND_MODULE,
    KIND_OTHER,
    KIND_PIPELINE,
    KIND_PUBSUB,
    MODULE_PIPELINES,
    REPLY_METHODS,
    SHAPE_CLASS,
    SHAPE_ITEMS,
    SHAPE_PARAM,
    Kind,
)
from rediscipline.sources.code.module import ModuleInfo
from rediscipline.sources.code.receivers import (
    CLIENT,
    CLIENT_METHODS,
    GENERIC_METHODS,
    GUESSED_CLIENT,
    OTHER,
    REPLY,
    Handle,
    Pipeline,
    handle_of,
    kind_of,
    looks_like_redis,
    says_mock,
    transaction_flag,
)
from rediscipline.sources.code.scope import Scope
from rediscipline.sources.code.values import literal_of

#: Methods of the values commands return (dict, list, set, bytes, str, int): a command method called on a
#: command's result that is none of these (`.expire()` after `pipe.hset(...)`) shows the call was queued on a
#: pipeline, whose methods return the pipeline.
RESULT_METHODS = frozenset(
    {
        "get", "keys", "values", "items", "copy", "append", "extend", "sort", "count", "index", "pop", "update",
        "setdefault", "add", "remove", "discard", "clear", "union", "decode", "encode", "split", "strip",
    }
)  # fmt: skip
#: Expressions that build plain data: a name bound to one is never a client.
_DATA = (ast.Constant, ast.Dict, ast.List, ast.Set, ast.Tuple, ast.JoinedStr, ast.ListComp, ast.DictComp, ast.SetComp)
_CONTAINER_CALLS = frozenset(
    {"dict", "list", "set", "tuple", "frozenset", "defaultdict", "OrderedDict", "Counter", "deque", "loads", "load"}
)


class Handles:
    """The receivers of the function being read (see the module docstring). `scope` is that function's names,
    `loops` gives the ids of the loops around the current statement (a pipeline remembers where it was made),
    and `chained` the calls whose result receives a pipeline-only method (their receiver was a pipeline).

    What a command method returns is the command's reply (data) on a client, and on a pipeline between its
    `watch()` and its `multi()` (redis-py then sends commands at once); a pipeline otherwise queues the command
    and returns itself (`pipe.set(...).expire(...)`, `pipe = pipe.lrem(...)`, and awaiting it in asyncio)."""

    def __init__(self, module: ModuleInfo, scope: Scope, loops: Callable[[], tuple[int, ...]]) -> None:
        self.module = module
        self.scope = scope
        self.loop_ids = loops
        self.chained: set[int] = set()
        self._memo: dict[int, Handle | None] = {}

    def kind(self, expr: ast.expr) -> Handle | None:
        """What a receiver expression holds (see receivers.py); calls are memoised so a pipeline is made once."""
        if isinstance(expr, ast.Await):
            return self.kind(expr.value)
        if isinstance(expr, ast.Name):
            return self._name_kind(expr)
        if isinstance(expr, ast.Attribute):
            return self._attribute_kind(expr)
        if isinstance(expr, ast.Call):
            key = id(expr)
            if key not in self._memo:
                self._memo[key] = self._call_kind(expr)
            return self._memo[key]
        if isinstance(expr, (ast.BoolOp, ast.IfExp)):  # `redis or Redis()`, `pipe if pipe else r.pipeline()`
            for value in expr.values if isinstance(expr, ast.BoolOp) else (expr.body, expr.orelse):
                found = self.kind(value)
                if found is not None and found.kind in (KIND_CLIENT, KIND_PIPELINE):
                    return found
        if isinstance(expr, ast.Subscript):
            return handle_of(self.module.value_kind(expr, self.scope.class_info, self.local_kind))
        return None

    def item_kind(self, iterable: ast.expr | None) -> Handle | None:
        """What a loop's items are: those of a literal list of clients are clients (`for r in (primary,
        replica)`); those of text, a dict or another package's object are not; else unknown."""
        if iterable is None or isinstance(iterable, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return None
        if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
            kinds = [self.kind(element) for element in iterable.elts]
            if kinds and all(k is not None and k.kind == KIND_CLIENT for k in kinds):
                return kinds[0]
            constant = all(isinstance(element, (ast.Constant, ast.JoinedStr)) for element in iterable.elts)
            return OTHER if constant else None
        if plain_data(iterable):
            return OTHER
        found = self.kind(iterable)
        if found is not None and found.shape == SHAPE_ITEMS and found.item is not None:
            return handle_of(found.item)  # `for c in self.clients` with `clients: list[Redis]`
        return OTHER if found is not None and found.kind == KIND_OTHER and not found.guessed else None

    def local_kind(self, name: str) -> Kind | None:
        return kind_of(self.scope.handle(name))

    def _name_kind(self, expr: ast.Name) -> Handle | None:
        """A name: what it was bound to here or at module level, else a guess from its name and its use.

        A name imported from another package (`os`, `shutil`, Django's `cache`) is not a client unless its
        name says so; a name bound to plain data (`{}`, `dict()`) never is.
        """
        found = self.scope.handle(expr.id)
        if found is not None:
            return found
        bound = self.scope.lookup(expr.id)
        if bound is not None and plain_data(bound):
            return None
        return self._guess(expr)

    def _attribute_kind(self, expr: ast.Attribute) -> Handle | None:
        """`self.cache`, `broker.client`, `extensions.redis_client`: the attribute's kind where the owner's
        class (or module) records it, else a guess."""
        owner = self.kind(expr.value)
        if owner is not None and owner.shape == SHAPE_PARAM and expr.attr == "param":
            return handle_of(owner.item)
        if owner is not None and owner.cls is not None and not owner.guessed:
            found = self.module.attribute_kind(Kind(owner.kind, owner.cls), expr.attr)
            if found is not None:
                return handle_of(found, self.loop_ids())
        exported = self.module.module_attribute(expr)
        if exported is not None:
            return handle_of(exported, self.loop_ids())
        return self._guess(expr)

    def _guess(self, expr: ast.Name | ast.Attribute) -> Handle | None:
        """A receiver nothing resolves, taken for a client on weak signals: its name says Redis, or it is
        called with Redis-only methods whose arguments fit; never when any call on it does not fit
        redis-py (evidence.py), since that shows it is something else."""
        name = expr.id if isinstance(expr, ast.Name) else expr.attr
        if says_mock(name):
            return None  # a test double stands in for a client but sends nothing
        iterated = isinstance(expr, ast.Name) and self.scope.is_iterated(expr.id)
        positive = looks_like_redis(name) and not iterated  # an item's name says nothing of where it came from
        identity = self.module.receivers.ids.get(id(expr))
        evidence = self.module.evidence(identity) if identity is not None else None
        if evidence is not None:
            if evidence.misfits:
                return None
            positive = positive or evidence.fitting > 0
        return GUESSED_CLIENT if positive else None

    def used_as_client(self, expr: ast.expr) -> bool:
        """A receiver (a call's result: `cls.db()`) whose uses fit redis-py and include Redis-only methods;
        names and attributes are weighed by `_guess`."""
        if isinstance(expr, (ast.Name, ast.Attribute)):
            return False
        identity = self.module.receivers.ids.get(id(expr))
        evidence = self.module.evidence(identity) if identity is not None else None
        return evidence is not None and evidence.fitting > 0 and not evidence.misfits

    def rejected(self, expr: ast.expr) -> bool:
        """A receiver with calls that do not fit redis-py: whatever weak signal says, not a client."""
        identity = self.module.receivers.ids.get(id(expr))
        evidence = self.module.evidence(identity) if identity is not None else None
        return evidence is not None and bool(evidence.misfits)

    def _call_kind(self, call: ast.Call) -> Handle | None:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in CLIENT_METHODS:
            return CLIENT  # Sentinel's `master_for(...)`, `get_redis_connection()`
        if isinstance(func, ast.Attribute):
            receiver = self.kind(func.value)
            if receiver is not None and receiver.shape == SHAPE_PARAM and func.attr == "param" and receiver.item:
                return handle_of(receiver.item.gives(SHAPE_CLASS), self.loop_ids())  # `request.param(...)`
            made = self._helper_made(func, receiver)
            if made is not None:
                return made
            if receiver is not None and receiver.kind == KIND_MODULE and func.attr == "pipeline":
                has_pipeline = receiver.cls in MODULE_PIPELINES
                return self._pipeline(call, receiver.guessed, receiver.cls) if has_pipeline else None
            if receiver is not None and receiver.kind == KIND_CLIENT:
                guessed = receiver.guessed
                if func.attr == "pipeline":
                    return self._pipeline(call, guessed, None)
                if id(call) in self.chained and func.attr in METHODS:  # `pipe.hset(k, m).expire(k, ttl)`
                    return Handle(KIND_PIPELINE, Pipeline(True, self.loop_ids()), guessed=guessed)
            if receiver is not None and self._replies(receiver, func.attr):
                buffered = receiver.pipeline is None or not receiver.pipeline.watching
                if receiver.kind == KIND_PIPELINE and buffered and func.attr in METHODS:
                    return receiver  # queued, it returns the pipeline: `pipe = pipe.set(...)`
                return REPLY  # sent at once (a client, a pipeline after WATCH): the command's reply
            if receiver is not None and receiver.cls is not None and not receiver.guessed:
                found = self.module.method_kind(Kind(receiver.kind, receiver.cls), func.attr)
                if found is not None:
                    return handle_of(found, self.loop_ids())
        return handle_of(self.module.call_kind(call, self.scope.class_info, self.local_kind), self.loop_ids())

    def _pipeline(self, call: ast.Call, guessed: bool, namespace: str | None) -> Handle:
        """`client.pipeline(transaction=...)`, or a module namespace's (`r.json().pipeline()`)."""
        written = [*call.args[:1], *(k.value for k in call.keywords if k.arg == "transaction")]
        transaction = written[0] if written else None
        known, value = literal_of(transaction, self.scope) if transaction is not None else (False, None)
        pipeline = Pipeline(transaction_flag(value, known), self.loop_ids())
        return Handle(KIND_PIPELINE, pipeline, guessed=guessed, namespace=namespace)

    def _replies(self, receiver: Handle, method: str) -> bool:
        """Whether `method` on `receiver` sends a command, so that what it returns is the command's reply."""
        if receiver.kind == KIND_MODULE:
            return method in MODULE_COMMANDS.get(receiver.cls or "", {})
        if receiver.kind not in (KIND_CLIENT, KIND_PIPELINE) or (method not in METHODS and method not in REPLY_METHODS):
            return False
        return receiver.cls is None or not self.module.overrides(Kind(receiver.kind, receiver.cls), method)

    def _helper_made(self, func: ast.Attribute, receiver: Handle | None) -> Handle | None:
        """What a client or pipeline method that returns a helper object gives (kinds.CLIENT_RESULTS): a pub/sub
        object, a BITFIELD builder, a lock, a module command namespace (`r.json()`, queued on the pipeline when
        called on one). A builder's methods return the builder (`r.bitfield(k).set(...).incrby(...)`). On a
        receiver only guessed to be a client, the helper is not followed: its calls are not judged."""
        if receiver is None:
            return None
        if receiver.kind == KIND_OTHER and receiver.cls in BUILDERS:
            return receiver
        result = CLIENT_RESULTS.get(func.attr)
        if result is None or receiver.kind not in (KIND_CLIENT, KIND_PIPELINE) or result.kind == KIND_PIPELINE:
            return None
        if receiver.cls is not None and self.module.overrides(Kind(receiver.kind, receiver.cls), func.attr):
            return None  # a client subclass's own method of that name
        if receiver.guessed and result.kind != KIND_PUBSUB:
            return Handle(KIND_OTHER, cls=result.cls, guessed=True)
        pipeline = receiver.pipeline if result.kind == KIND_MODULE else None
        return Handle(result.kind, pipeline, result.cls, receiver.guessed)

    def lone_redis_call(self, call: ast.Call, method: str) -> bool:
        """A Redis-only method whose arguments fit redis-py, on a receiver that has no identity of its own
        (a call's result, an item of a container) and so no other use to weigh."""
        spec = METHODS.get(method)
        if spec is None or method in GENERIC_METHODS or not isinstance(call.func, ast.Attribute):
            return False
        return id(call.func.value) not in self.module.receivers.ids and binding.fits(call, spec)


def chains_on_pipeline(method: str) -> bool:
    """A command method no command result has (`expire`, `hset`), so its receiver is a pipeline's return."""
    return method in METHODS and method not in RESULT_METHODS


def plain_data(expr: ast.expr) -> bool:
    """A literal or a call that builds a container (`{}`, `dict()`, `defaultdict(list)`, `json.loads(...)`)."""
    if isinstance(expr, _DATA):
        return True
    if isinstance(expr, ast.Call):
        func = expr.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in _CONTAINER_CALLS
    return False
