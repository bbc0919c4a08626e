"""Walk one module's syntax tree and turn its Redis calls into facts.

Statements are read in order, function by function, keeping what each local name was last bound to (for
key templates, sizes and TTLs), which names hold clients, pipelines and pub/sub objects, and the loops around
the current statement. Every call on a client or pipeline becomes a `CodeCall` (for the call rules) and a
`CommandFact` (for the command rules, shared with the live and runtime sources); every key the call names
becomes a `KeyFact` whose name is a `KeyTemplate` (for the naming rules). TTL pairing (a write, then an
EXPIRE of the same key) is settled when the function ends, since the EXPIRE comes later (pairing.py).
Receivers are resolved through the module's declarations (module.py) and, where nothing resolves them,
weighed by the evidence on each receiver (evidence.py).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace

from rediscipline.model.code import EXPIRY_OPTION, EXPIRY_UNKNOWN, CodeCall
from rediscipline.model.facts import EVIDENCE_CODE, CommandFact, KeyFact
from rediscipline.model.keyname import KeyTemplate, Part
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.location import SOURCE_CODE, Location
from rediscipline.redis_meta.methods import METHODS, command_name, method_key_type
from rediscipline.redis_meta.module_table_generated import MODULE_COMMANDS
from rediscipline.redis_meta.records import MethodSignature
from rediscipline.sources.code import calls as binding
from rediscipline.sources.code.constructors import fixture_request_kind
from rediscipline.sources.code.declarations import read_module
from rediscipline.sources.code.kinds import (
    BUILDERS,
    CLIENT_RESULTS,
    KIND_CLIENT,
    KIND_MODULE,
    KIND_OTHER,
    KIND_PIPELINE,
    KIND_PUBSUB,
    SHAPE_CLASS,
    SHAPE_ITEMS,
    SHAPE_PARAM,
    Kind,
)
from rediscipline.sources.code.module import ClassInfo, ModuleInfo
from rediscipline.sources.code.pairing import Pending, collection_ids, key_family, key_id, loop_items, settle
from rediscipline.sources.code.receivers import (
    CLIENT,
    CLIENT_METHODS,
    GENERIC_METHODS,
    GUESSED_CLIENT,
    OTHER,
    Handle,
    Pipeline,
    handle_of,
    kind_of,
    looks_like_redis,
    says_mock,
    transaction_flag,
)
from rediscipline.sources.code.scope import Scope
from rediscipline.sources.code.values import element_exprs, int_of, is_constant_ttl, literal_of, size_of, template_parts
from rediscipline.sources.urls import url_database

#: Methods of the values commands return (dict, list, set, bytes, str, int): a command method called on a
#: command's result that is none of these (`.expire()` after `pipe.hset(...)`) shows the call was queued on a
#: pipeline, whose methods return the pipeline.
RESULT_METHODS = frozenset(
    {
        "get", "keys", "values", "items", "copy", "append", "extend", "sort", "count", "index", "pop", "update",
        "setdefault", "add", "remove", "discard", "clear", "union", "decode", "encode", "split", "strip",
    }
)  # fmt: skip
#: Connection pools: their `db=` (or URL path) is the database of every client built on them.
POOLS = frozenset({"ConnectionPool", "BlockingConnectionPool"})
#: `Redis(host, port, db, ...)`: where the database sits among positional constructor arguments.
POSITIONAL_DB = 2
SUBSCRIBE_METHODS = {"subscribe": "subscribe", "psubscribe": "psubscribe", "ssubscribe": "ssubscribe"}
#: Expressions that build plain data: a name bound to one is never a client.
_DATA = (ast.Constant, ast.Dict, ast.List, ast.Set, ast.Tuple, ast.JoinedStr, ast.ListComp, ast.DictComp, ast.SetComp)
_CONTAINER_CALLS = frozenset(
    {"dict", "list", "set", "tuple", "frozenset", "defaultdict", "OrderedDict", "Counter", "deque", "loads", "load"}
)


@dataclass
class Facts:
    """Everything one module gave: call sites, commands and key templates, in file order."""

    calls: list[CodeCall] = field(default_factory=list)
    commands: list[CommandFact] = field(default_factory=list)
    keys: list[KeyFact] = field(default_factory=list)


class ModuleExtractor:
    """Extract the facts of one parsed module (see the module docstring)."""

    def __init__(self, tree: ast.Module, path: str, lines: list[str], module: ModuleInfo | None = None) -> None:
        self.tree = tree
        self.path = path
        self.lines = lines
        self.module = module if module is not None else read_module(tree)
        self.facts = Facts()
        self._loops: list[tuple[int, int | None]] = []
        self._pending: list[Pending] = []
        self._handles: dict[int, Handle | None] = {}
        #: `while` loops: polling, retrying or consuming, not iterating over items (see `_placed`)
        self._retry_loops: set[int] = set()
        #: calls whose result receives a pipeline-only method: their receiver was a pipeline
        self._chained: set[int] = set()
        self._branches: dict[int, int] = {}  # the `if` branches around the current statement
        self._qualname = ""
        self._function_name = ""
        self._class_body: ClassInfo | None = None  # the class whose body is being read (its defs are methods)
        self._scope = Scope(self.module, None, None)

    def run(self) -> Facts:
        self._function_body(self.tree.body, self._scope, "")
        return self.facts

    # -- statements ---------------------------------------------------------------------------------------

    def _function_body(self, body: list[ast.stmt], scope: Scope, qualname: str) -> None:
        saved = (self._loops, self._pending, self._scope, self._qualname, self._branches)
        self._loops, self._pending, self._scope, self._qualname, self._branches = [], [], scope, qualname, {}
        try:
            self._statements(body)
            self._finish_function()
        finally:
            self._loops, self._pending, self._scope, self._qualname, self._branches = saved

    def _statements(self, body: list[ast.stmt]) -> None:
        """Statements in order; after an `if` whose body always leaves the block (`return`, `raise`,
        `continue`, `break`), the rest of the block is that `if`'s other branch."""
        guards: list[int] = []
        try:
            for statement in body:
                self._statement(statement)
                if isinstance(statement, ast.If) and not statement.orelse and _leaves(statement.body):
                    self._branches[id(statement)] = 1
                    guards.append(id(statement))
        finally:
            for guard in guards:
                self._branches.pop(guard, None)

    def _statement(self, node: ast.stmt) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._function(node)
        elif isinstance(node, ast.ClassDef):
            for decorator in node.decorator_list:
                self._expr(decorator)
            class_info = self.module.classes.get(node.name) if not self._qualname else None
            saved, saved_body = self._scope.class_info, self._class_body
            self._scope.class_info, self._class_body = class_info, class_info
            try:
                self._function_body(node.body, self._scope, self._join(node.name))
            finally:
                self._scope.class_info, self._class_body = saved, saved_body
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            self._assign(node)
        elif isinstance(node, (ast.For, ast.AsyncFor)):
            self._expr(node.iter)
            self._loop(node.body, size_of(node.iter, self._scope), node.target, node.iter)
            self._statements(node.orelse)
        elif isinstance(node, ast.While):
            self._expr(node.test)
            self._loop(node.body, None, None, retry=True)
            self._statements(node.orelse)
        elif isinstance(node, ast.If):
            self._expr(node.test)
            for branch, body in enumerate((node.body, node.orelse)):
                self._branches[id(node)] = branch
                try:
                    self._statements(body)
                finally:
                    del self._branches[id(node)]
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                self._expr(item.context_expr)
                if isinstance(item.optional_vars, ast.Name):
                    handle = self._kind(item.context_expr)
                    self._scope.bind(item.optional_vars.id, item.context_expr, handle)
            self._statements(node.body)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    self._statement(child)
                elif isinstance(child, ast.expr):
                    self._expr(child)
                elif isinstance(child, ast.ExceptHandler | ast.match_case):
                    self._statements(child.body)

    def _join(self, name: str) -> str:
        return f"{self._qualname}.{name}" if self._qualname else name

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self._expr(decorator)
        scope = Scope(self.module, self._scope, self._scope.class_info)
        arguments = node.args
        method_of = self._class_body
        requests_fixtures = node.name.startswith("test") or _is_fixture(node)
        request = fixture_request_kind(self.module, node) if requests_fixtures else None
        for index, argument in enumerate((*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)):
            handle = handle_of(self.module.annotation_kind(argument.annotation))
            if handle is None and argument.arg == "request":
                handle = handle_of(request)  # `request.param` is one of the fixture's `params`
            if handle is None and method_of is not None and index == 0 and argument.arg in ("self", "cls"):
                handle = handle_of(self.module.self_kind(method_of))
            elif handle is None and requests_fixtures and argument.annotation is None:
                handle = handle_of(self.module.fixture_kind(argument.arg))  # pytest passes the fixture's value
            elif handle is None and method_of is not None and index > 0 and node.name == "__init__":
                handle = handle_of(self.module.constructor_kind(method_of.qualname, argument.arg))
            scope.bind(argument.arg, None, handle)
        for extra in (arguments.vararg, arguments.kwarg):
            if extra is not None:
                scope.bind(extra.arg, None, None)
        saved = self._function_name, self._class_body
        self._function_name, self._class_body = node.name, None
        try:
            self._function_body(node.body, scope, self._join(node.name))
        finally:
            self._function_name, self._class_body = saved

    def _assign(self, node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> None:
        value = node.value
        if value is not None:
            self._expr(value)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                if isinstance(node, ast.AugAssign) or value is None:
                    self._scope.bind(target.id, None, None)
                    continue
                handle = self._kind(value)
                if isinstance(node, ast.AnnAssign):
                    handle = handle_of(self.module.annotation_kind(node.annotation)) or handle
                self._scope.bind(target.id, value, handle)
            elif isinstance(target, (ast.Tuple, ast.List)):
                for element in ast.walk(target):
                    if isinstance(element, ast.Name):
                        self._scope.bind(element.id, None, None)
            else:
                self._expr(target)

    def _loop(
        self,
        body: list[ast.stmt],
        size: int | None,
        target: ast.expr | None,
        iterable: ast.expr | None = None,
        *,
        retry: bool = False,
    ) -> None:
        """A loop body; its variable stands for the iterable's items: the comprehension's element when the
        iterable is one (`for stream in {keys.readings(d, day) for ...}`), else an unknown value."""
        items = element_exprs(iterable, self._scope) if iterable is not None else None
        item = items[0] if items is not None and len(items) == 1 and isinstance(iterable, ast.Name) else None
        if isinstance(target, ast.Name):
            collection = loop_items(target, iterable)[target.id] if iterable is not None else None
            self._scope.bind(target.id, item, self._item_kind(iterable), iterated=True, iterable=collection)
        elif target is not None:
            sources = loop_items(target, iterable) if iterable is not None else {}
            for element in ast.walk(target):
                if isinstance(element, ast.Name):
                    self._scope.bind(element.id, None, None, iterated=True, iterable=sources.get(element.id))
        self._loops.append((id(body), size))
        if retry:
            self._retry_loops.add(id(body))
        try:
            self._statements(body)
        finally:
            self._loops.pop()

    # -- expressions -----------------------------------------------------------------------------------

    def _expr(self, node: ast.expr) -> None:
        """Visit calls inside out (arguments and receivers before the call), in evaluation order."""
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                if isinstance(node.func.value, ast.Call) and _chains_on_pipeline(node.func.attr):
                    self._chained.add(id(node.func.value))
                self._expr(node.func.value)
            for argument in node.args:
                self._expr(argument)
            for keyword in node.keywords:
                self._expr(keyword.value)
            self._call(node)
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            self._comprehension(node)
        elif isinstance(node, ast.Lambda):
            return
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.expr):
                    self._expr(child)

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        pushed = 0
        for generator in node.generators:
            self._expr(generator.iter)
            sources = loop_items(generator.target, generator.iter)
            for element in ast.walk(generator.target):
                if isinstance(element, ast.Name):
                    item = self._item_kind(generator.iter) if element is generator.target else None
                    self._scope.bind(element.id, None, item, iterated=True, iterable=sources.get(element.id))
            self._loops.append((id(generator), None if generator.ifs else size_of(generator.iter, self._scope)))
            pushed += 1
            for condition in generator.ifs:
                self._expr(condition)
        try:
            if isinstance(node, ast.DictComp):
                self._expr(node.key)
                self._expr(node.value)
            else:
                self._expr(node.elt)
        finally:
            del self._loops[len(self._loops) - pushed :]

    def _kind(self, expr: ast.expr) -> Handle | None:
        """What a receiver expression holds (see receivers.py); calls are memoised so a pipeline is made once."""
        if isinstance(expr, ast.Await):
            return self._kind(expr.value)
        if isinstance(expr, ast.Name):
            return self._name_kind(expr)
        if isinstance(expr, ast.Attribute):
            return self._attribute_kind(expr)
        if isinstance(expr, ast.Call):
            key = id(expr)
            if key not in self._handles:
                self._handles[key] = self._call_kind(expr)
            return self._handles[key]
        if isinstance(expr, (ast.BoolOp, ast.IfExp)):  # `redis or Redis()`, `pipe if pipe else r.pipeline()`
            for value in expr.values if isinstance(expr, ast.BoolOp) else (expr.body, expr.orelse):
                found = self._kind(value)
                if found is not None and found.kind in (KIND_CLIENT, KIND_PIPELINE):
                    return found
        if isinstance(expr, ast.Subscript):
            return handle_of(self.module.value_kind(expr, self._scope.class_info, self._local_kind))
        return None

    def _item_kind(self, iterable: ast.expr | None) -> Handle | None:
        """What a loop's items are: those of a literal list of clients are clients (`for r in (primary,
        replica)`); those of text, a dict or another package's object are not; else unknown."""
        if iterable is None or isinstance(iterable, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return None
        if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
            kinds = [self._kind(element) for element in iterable.elts]
            if kinds and all(k is not None and k.kind == KIND_CLIENT for k in kinds):
                return kinds[0]
            constant = all(isinstance(element, (ast.Constant, ast.JoinedStr)) for element in iterable.elts)
            return OTHER if constant else None
        if _plain_data(iterable):
            return OTHER
        found = self._kind(iterable)
        if found is not None and found.shape == SHAPE_ITEMS and found.item is not None:
            return handle_of(found.item)  # `for c in self.clients` with `clients: list[Redis]`
        return OTHER if found is not None and found.kind == KIND_OTHER and not found.guessed else None

    def _local_kind(self, name: str) -> Kind | None:
        return kind_of(self._scope.handle(name))

    def _name_kind(self, expr: ast.Name) -> Handle | None:
        """A name: what it was bound to here or at module level, else a guess from its name and its use.

        A name imported from another package (`os`, `shutil`, Django's `cache`) is not a client unless its
        name says so; a name bound to plain data (`{}`, `dict()`) never is.
        """
        found = self._scope.handle(expr.id)
        if found is not None:
            return found
        bound = self._scope.lookup(expr.id)
        if bound is not None and _plain_data(bound):
            return None
        return self._guess(expr)

    def _attribute_kind(self, expr: ast.Attribute) -> Handle | None:
        """`self.cache`, `broker.client`, `extensions.redis_client`: the attribute's kind where the owner's
        class (or module) records it, else a guess."""
        owner = self._kind(expr.value)
        if owner is not None and owner.shape == SHAPE_PARAM and expr.attr == "param":
            return handle_of(owner.item)
        if owner is not None and owner.cls is not None and not owner.guessed:
            found = self.module.attribute_kind(Kind(owner.kind, owner.cls), expr.attr)
            if found is not None:
                return handle_of(found, self._loop_ids())
        exported = self.module.module_attribute(expr)
        if exported is not None:
            return handle_of(exported, self._loop_ids())
        return self._guess(expr)

    def _guess(self, expr: ast.Name | ast.Attribute) -> Handle | None:
        """A receiver nothing resolves, taken for a client on weak signals: its name says Redis, or it is
        called with Redis-only methods whose arguments fit; never when any call on it does not fit
        redis-py (evidence.py), since that shows it is something else."""
        name = expr.id if isinstance(expr, ast.Name) else expr.attr
        if says_mock(name):
            return None  # a test double stands in for a client but sends nothing
        iterated = isinstance(expr, ast.Name) and self._scope.is_iterated(expr.id)
        positive = looks_like_redis(name) and not iterated  # an item's name says nothing of where it came from
        identity = self.module.receivers.ids.get(id(expr))
        evidence = self.module.evidence(identity) if identity is not None else None
        if evidence is not None:
            if evidence.misfits:
                return None
            positive = positive or evidence.fitting > 0
        return GUESSED_CLIENT if positive else None

    def _used_as_client(self, expr: ast.expr) -> bool:
        """A receiver (a call's result: `cls.db()`) whose uses fit redis-py and include Redis-only methods;
        names and attributes are weighed by `_guess`."""
        if isinstance(expr, (ast.Name, ast.Attribute)):
            return False
        identity = self.module.receivers.ids.get(id(expr))
        evidence = self.module.evidence(identity) if identity is not None else None
        return evidence is not None and evidence.fitting > 0 and not evidence.misfits

    def _rejected(self, expr: ast.expr) -> bool:
        """A receiver with calls that do not fit redis-py: whatever weak signal says, not a client."""
        identity = self.module.receivers.ids.get(id(expr))
        evidence = self.module.evidence(identity) if identity is not None else None
        return evidence is not None and bool(evidence.misfits)

    def _loop_ids(self) -> tuple[int, ...]:
        return tuple(loop for loop, _size in self._loops)

    def _call_kind(self, call: ast.Call) -> Handle | None:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr in CLIENT_METHODS:
            return CLIENT  # Sentinel's `master_for(...)`, `get_redis_connection()`
        if isinstance(func, ast.Attribute):
            receiver = self._kind(func.value)
            if receiver is not None and receiver.shape == SHAPE_PARAM and func.attr == "param" and receiver.item:
                return handle_of(receiver.item.gives(SHAPE_CLASS), self._loop_ids())  # `request.param(...)`
            made = self._helper_made(func, receiver)
            if made is not None:
                return made
            if receiver is not None and receiver.kind == KIND_CLIENT:
                guessed = receiver.guessed
                if func.attr == "pipeline":
                    transaction = (
                        call.args[0]
                        if call.args
                        else next((k.value for k in call.keywords if k.arg == "transaction"), None)
                    )
                    known, value = literal_of(transaction, self._scope) if transaction is not None else (False, None)
                    pipeline = Pipeline(transaction_flag(value, known), self._loop_ids())
                    return Handle(KIND_PIPELINE, pipeline, guessed=guessed)
                if id(call) in self._chained and func.attr in METHODS:  # `pipe.hset(k, m).expire(k, ttl)`
                    return Handle(KIND_PIPELINE, Pipeline(True, self._loop_ids()), guessed=guessed)
            if receiver is not None and receiver.kind == KIND_PIPELINE and func.attr in METHODS:
                return receiver  # pipeline methods return the pipeline: pipe.set(...).expire(...)
            if receiver is not None and receiver.cls is not None and not receiver.guessed:
                found = self.module.method_kind(Kind(receiver.kind, receiver.cls), func.attr)
                if found is not None:
                    return handle_of(found, self._loop_ids())
        return handle_of(self.module.call_kind(call, self._scope.class_info, self._local_kind), self._loop_ids())

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

    # -- calls -------------------------------------------------------------------------------------------

    def _call(self, call: ast.Call) -> None:
        func = call.func
        if self.module.is_client_call(call, self._scope.class_info, self._local_kind):
            self._client_made(call)
            return
        if _makes_pool(self.module.qualified(func)):
            self._client_made(call)  # `ConnectionPool(db=2)`: every client of the pool selects db 2
            return
        if not isinstance(func, ast.Attribute):
            return
        method = func.attr
        receiver = self._kind(func.value)
        if receiver is None:
            if not self._lone_redis_call(call, method) and not self._used_as_client(func.value):
                return
            receiver = GUESSED_CLIENT  # a receiver nothing names, called with methods only Redis clients have
        elif receiver.guessed and self._rejected(func.value):
            return
        if (
            receiver.kind == KIND_CLIENT
            and receiver.cls is not None
            and self.module.overrides(Kind(receiver.kind, receiver.cls), method)
        ):
            return  # a client subclass's own method, not redis-py's
        if receiver.kind == KIND_PUBSUB:
            if method in SUBSCRIBE_METHODS:
                self._subscribe(call, method)
            return
        if receiver.kind == KIND_MODULE:
            spec = MODULE_COMMANDS.get(receiver.cls or "", {}).get(method)
            if spec is not None and binding.fits(call, spec):
                self._redis_call(call, f"{receiver.cls}().{method}", receiver.pipeline, spec)
            return
        if receiver.kind not in (KIND_CLIENT, KIND_PIPELINE):
            return
        if receiver.kind == KIND_CLIENT and id(call) in self._chained:
            queued = self._kind(call)  # its result takes pipeline methods: it is queued on one
            receiver = queued if queued is not None and queued.kind == KIND_PIPELINE else receiver
        pipeline = receiver.pipeline if receiver.kind == KIND_PIPELINE else None
        if method == "pipeline":
            self._pipeline_made(call)
        elif method in ("multi", "transaction"):
            self._multi(call, method, pipeline)
        elif method == "execute" and pipeline is not None:
            self._execute(call, pipeline)
        elif method == "monitor":
            self._command("monitor", (), call)
        elif method == "execute_command":
            self._raw_command(call)
        elif method in METHODS:
            self._redis_call(call, method, pipeline)

    def _lone_redis_call(self, call: ast.Call, method: str) -> bool:
        """A Redis-only method whose arguments fit redis-py, on a receiver that has no identity of its own
        (a call's result, an item of a container) and so no other use to weigh."""
        spec = METHODS.get(method)
        if spec is None or method in GENERIC_METHODS or not isinstance(call.func, ast.Attribute):
            return False
        return id(call.func.value) not in self.module.receivers.ids and binding.fits(call, spec)

    def _location(self, node: ast.expr) -> Location:
        line = node.lineno
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        column = len(text.encode("utf-8", "surrogatepass")[: node.col_offset].decode("utf-8", "replace")) + 1
        end_line = node.end_lineno or line
        end_text = self.lines[end_line - 1] if 0 < end_line <= len(self.lines) else ""
        end_offset = node.end_col_offset if node.end_col_offset is not None else len(end_text)
        end_column = len(end_text.encode("utf-8", "surrogatepass")[:end_offset].decode("utf-8", "replace")) + 1
        statement = " ".join(" ".join(self.lines[line - 1 : end_line]).split())
        context = f"{self._qualname}\n{statement}"
        return Location(SOURCE_CODE, self.path, line, column, None, end_line, end_column, context)

    def _command(self, name: str, args: tuple[bytes, ...] | None, call: ast.Call) -> None:
        self.facts.commands.append(CommandFact(name, self._location(call), EVIDENCE_CODE, args))

    def _client_made(self, call: ast.Call) -> None:
        """`Redis(db=3)` and `from_url(".../3")` select a database other than 0 for the whole client."""
        db = next((k.value for k in call.keywords if k.arg == "db"), None)
        if db is None and call.args and isinstance(call.func, ast.Attribute) and call.func.attr == "from_url":
            known, url = literal_of(call.args[0], self._scope)
            named = url_database(url) if known and isinstance(url, str) else None
            if named is not None and named.isdigit():
                self._command("select", (named.encode(),), call)
            return
        factory = isinstance(call.func, ast.Attribute) and call.func.attr in ("from_url", "from_pool")
        constructor = not factory and not _makes_pool(self.module.qualified(call.func))
        if db is None and constructor and len(call.args) > POSITIONAL_DB:
            db = call.args[POSITIONAL_DB]  # Redis(host, port, db)
        number = int_of(db, self._scope) if db is not None else None
        if number is not None:
            self._command("select", (str(number).encode(),), call)

    def _pipeline_made(self, call: ast.Call) -> None:
        handle = self._kind(call)
        explicit = call.args[:1] or [k.value for k in call.keywords if k.arg == "transaction"]
        if handle is not None and handle.pipeline is not None and explicit:
            known, value = literal_of(explicit[0], self._scope)
            if known and value:
                self._command("multi", (), call)
                handle.pipeline.announced = True

    def _multi(self, call: ast.Call, method: str, pipeline: Pipeline | None) -> None:
        """One transaction is one MULTI: `pipe.multi()` on a pipeline made with `transaction=True` written
        out, or inside a function handed to `client.transaction(fn)`, continues the transaction announced
        there."""
        if pipeline is not None:
            pipeline.transaction = True
        continued = pipeline is not None and pipeline.announced
        if method == "multi" and (continued or self._function_name in self.module.transaction_callbacks):
            return
        self._command("multi", (), call)  # two `multi()` on one pipeline are two code paths, two transactions

    def _raw_command(self, call: ast.Call) -> None:
        """`execute_command("CONFIG SET", ...)`: the first word names the command (redis-py splits it)."""
        if not call.args:
            return
        known, first = literal_of(call.args[0], self._scope)
        if not known or not isinstance(first, (str, bytes)):
            return
        words = (first.decode("latin-1") if isinstance(first, bytes) else first).split()
        if not words:
            return
        rest: list[bytes] = [w.encode() for w in words[1:]]
        rest += [binding.argument_text(argument, self._scope) for argument in call.args[1:]]
        self._command(words[0].lower(), tuple(rest), call)

    def _subscribe(self, call: ast.Call, method: str) -> None:
        """Channels come as arguments, as keywords (`news=handler`) or unpacked from a mapping (`**handlers`)."""
        size = binding.count_arguments(list(call.args), self._scope)
        for keyword in call.keywords:
            extra = 1 if keyword.arg is not None else size_of(keyword.value, self._scope)
            size = None if size is None or extra is None else size + extra
        self._emit(CodeCall(method, SUBSCRIBE_METHODS[method], self._location(call), batch=size), ())

    def _placed(self, fact: CodeCall) -> CodeCall:
        """The fact with the loops around it and its function: how often it runs, and where.

        `loop_depth` counts the loops that iterate over items (`for`, comprehensions); a `while` loop
        retries, polls or consumes (a WATCH retry, a queue worker), so it makes no bulk path of its own, but
        it still leaves the number of iterations unknown.
        """
        iterations: int | None = 1
        for _loop, size in self._loops:
            iterations = None if size is None or iterations is None else iterations * size
        depth = sum(1 for loop, _size in self._loops if loop not in self._retry_loops)
        return replace(
            fact,
            loop_depth=depth,
            loop_iterations=iterations if self._loops else None,
            scope=self._qualname,
        )

    def _execute(self, call: ast.Call, pipeline: Pipeline) -> None:
        """`pipe.execute()`: how many commands it sends, counting the loops that filled it."""
        here = {loop for loop, _size in self._loops}
        pipeline.executes_in |= here
        queued: int | None = 0
        unbounded = False
        for loops, count in pipeline.pending:
            multiplier: int | None = count
            for loop, size in loops:
                if loop in here or loop in pipeline.loops or loop in pipeline.executes_in:
                    continue
                multiplier = None if size is None or multiplier is None else multiplier * size
            if multiplier is None:
                unbounded = True
            elif queued is not None:
                queued += multiplier
        pipeline.pending.clear()
        fact = CodeCall(
            "execute",
            "",
            self._location(call),
            queued=None if unbounded else queued,
            unbounded=unbounded,
            pipelined=True,
            transaction=pipeline.transaction,
        )
        self._emit(fact, ())

    def _redis_call(
        self, call: ast.Call, method: str, pipeline: Pipeline | None, module_spec: MethodSignature | None = None
    ) -> None:
        """A command call: its facts. `module_spec` for a module command (`r.json().set`), whose keys are
        named but whose key type and options are not those of the core commands."""
        spec = module_spec or METHODS[method]
        bound = binding.bind(call, method, spec)
        scope = self._scope
        command = command_name(spec)
        key_exprs = binding.key_exprs(bound, scope)
        templates: list[KeyTemplate | None] = []
        for expr in key_exprs:
            parts = template_parts(expr, scope)
            useful = parts is not None and any(isinstance(p, bytes) and p for p in parts)
            templates.append(_template(parts) if useful and parts is not None else None)
        location = self._location(call)
        has_ttl, ttl = binding.ttl_expr(bound, scope)
        expiry = EXPIRY_OPTION if has_ttl else (EXPIRY_UNKNOWN if bound.open_kwargs else None)
        if method == "getex" and not has_ttl:
            expiry = EXPIRY_UNKNOWN
        fact = CodeCall(
            method,
            command,
            location,
            keys=tuple(t for t in templates if t is not None),
            batch=binding.batch_size(bound, scope),
            given=frozenset(bound.named) | (frozenset({"*"}) if bound.extra else frozenset()),
            literals=binding.literals(bound, scope),
            possible=binding.possible(bound, scope),
            unpacked=bound.open_args or bound.open_kwargs,
            expiry=expiry,
            constant_ttl=ttl is not None and is_constant_ttl(ttl, scope),
            pipelined=pipeline is not None,
            transaction=pipeline.transaction if pipeline is not None else False,
        )
        self._emit(fact, (*(key_id(e, scope) for e in key_exprs), *collection_ids(bound, key_exprs, scope)))
        if key_exprs:
            self._pending[-1].family = key_family(key_exprs[0], scope)
        patterns = {
            name: template.pattern
            for name, template in zip([k for k in spec.keys if k in bound.named], templates, strict=False)
            if template is not None
        }
        args = binding.redis_args(bound, scope, patterns)
        self.facts.commands.append(CommandFact(command, location, EVIDENCE_CODE, args))
        key_type = method_key_type(method) if module_spec is None else None
        for template in dict.fromkeys(t for t in templates if t is not None):
            self.facts.keys.append(KeyFact(template, location, type=key_type))
        if pipeline is not None:
            loops = tuple(self._loops)
            pipeline.pending.append((loops, 1))

    def _emit(self, fact: CodeCall, key_ids: tuple[str, ...]) -> None:
        self._pending.append(Pending(self._placed(fact), key_ids, len(self._pending), dict(self._branches)))

    def _finish_function(self) -> None:
        """Pair writes with a later EXPIRE of the same key in this function, then publish the calls."""
        self.facts.calls += settle(self._pending)
        self._pending = []


def _is_fixture(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if (target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")) == "fixture":
            return True
    return False


def _leaves(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break))


def _chains_on_pipeline(method: str) -> bool:
    """A command method no command result has (`expire`, `hset`), so its receiver is a pipeline's return."""
    return method in METHODS and method not in RESULT_METHODS


def _makes_pool(qualified: str | None) -> bool:
    """`redis.ConnectionPool(...)`, `redis.BlockingConnectionPool.from_url(...)`."""
    if qualified is None:
        return False
    return qualified.removesuffix(".from_url").rsplit(".", 1)[-1] in POOLS


def _plain_data(expr: ast.expr) -> bool:
    """A literal or a call that builds a container (`{}`, `dict()`, `defaultdict(list)`, `json.loads(...)`)."""
    if isinstance(expr, _DATA):
        return True
    if isinstance(expr, ast.Call):
        func = expr.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in _CONTAINER_CALLS
    return False


def _template(parts: list[Part]) -> KeyTemplate:
    """A code template whose literal runs are read as a concrete key's would be: `user:42` has an integer id,
    `2024-11-22` is a date, so naming rules judge a literal in code exactly as the same key on a server."""
    inferred: list[Part] = []
    for part in parts:
        pieces = infer_parts(part) if isinstance(part, bytes) else (part,)
        for piece in pieces:
            if isinstance(piece, bytes) and inferred and isinstance(inferred[-1], bytes):
                inferred[-1] += piece
            else:
                inferred.append(piece)
    return KeyTemplate(tuple(inferred))
