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
from rediscipline.sources.code.callees import function_key
from rediscipline.sources.code.constructors import fixture_request_kind
from rediscipline.sources.code.declarations import read_module
from rediscipline.sources.code.handles import Handles, chains_on_pipeline
from rediscipline.sources.code.key_identity import (
    collection_ids,
    fill_sources,
    key_family,
    key_id,
    loop_items,
    member_id,
    unpacked_items,
)
from rediscipline.sources.code.kinds import (
    KIND_CLIENT,
    KIND_MODULE,
    KIND_PIPELINE,
    KIND_PUBSUB,
    SHAPE_ITEMS,
    SHAPE_MAPPING,
    Kind,
)
from rediscipline.sources.code.module import ClassInfo, ModuleInfo
from rediscipline.sources.code.pairing import Pending, settle
from rediscipline.sources.code.receivers import GUESSED_CLIENT, OTHER, Handle, Pipeline, handle_of
from rediscipline.sources.code.scope import Scope
from rediscipline.sources.code.values import element_exprs, int_of, is_constant_ttl, literal_of, size_of, template_parts
from rediscipline.sources.url_database import url_database

#: Connection pools: their `db=` (or URL path) is the database of every client built on them.
POOLS = frozenset({"ConnectionPool", "BlockingConnectionPool"})
#: `Redis(host, port, db, ...)`: where the database sits among positional constructor arguments.
POSITIONAL_DB = 2
#: Methods that put one item into a collection (whose items then come from where that item came from).
FILLING_METHODS = frozenset({"append", "add", "appendleft"})
SUBSCRIBE_METHODS = {"subscribe": "subscribe", "psubscribe": "psubscribe", "ssubscribe": "ssubscribe"}


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
        #: `while` loops: polling, retrying or consuming, not iterating over items (see `_placed`)
        self._retry_loops: set[int] = set()
        self._branches: dict[int, int] = {}  # the `if` branches around the current statement
        self._qualname = ""
        self._function_name = ""
        self._class_body: ClassInfo | None = None  # the class whose body is being read (its defs are methods)
        self._handles = Handles(self.module, Scope(self.module, None, None), self._loop_ids)

    @property
    def _scope(self) -> Scope:
        """The names of the function being read (kept by the receiver resolution, which reads them too)."""
        return self._handles.scope

    @_scope.setter
    def _scope(self, scope: Scope) -> None:
        self._handles.scope = scope

    def _loop_ids(self) -> tuple[int, ...]:
        return tuple(loop for loop, _size in self._loops)

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
                    handle = self._handles.kind(item.context_expr)
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
        top_level = method_of is not None or not self._qualname  # a module's function or a class's method
        key = function_key(self.module, node.name, method_of) if top_level else None
        for index, argument in enumerate((*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)):
            handle = handle_of(self.module.annotation_kind(argument.annotation))
            if handle is None and argument.arg == "request":
                handle = handle_of(request)  # `request.param` is one of the fixture's `params`
            if handle is None and method_of is not None and index == 0 and argument.arg in ("self", "cls"):
                handle = handle_of(self.module.self_kind(method_of))
            elif handle is None and requests_fixtures and argument.annotation is None:
                handle = handle_of(self.module.fixture_kind(argument.arg))  # pytest passes the fixture's value
            elif handle is None and method_of is not None and index > 0 and node.name == "__init__":
                handle = handle_of(self.module.passed_kind(method_of.qualname, argument.arg))
            elif handle is None and argument.annotation is None and key is not None:  # what the run's calls pass
                handle = handle_of(self.module.passed_kind(key, argument.arg))
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
                if isinstance(node, ast.AugAssign):
                    self._scope.bind(target.id, None, None)
                    continue
                handle = self._handles.kind(value) if value is not None else None
                if isinstance(node, ast.AnnAssign):  # `client: Redis | None` promises a client, assigned or not
                    handle = handle_of(self.module.annotation_kind(node.annotation)) or handle
                self._scope.bind(target.id, value, handle)
            elif isinstance(target, (ast.Tuple, ast.List)):
                unpacked = self._unpacked(value)
                for element in ast.walk(target):
                    if isinstance(element, ast.Name):
                        self._scope.bind(element.id, None, unpacked)
            else:
                self._expr(target)
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    self._scope.fill(target.value.id, fill_sources(target.slice, self._scope))  # `mapping[key] = v`

    def _unpacked(self, value: ast.expr | None) -> Handle | None:
        """What the names unpacked from `value` hold: the items of a sequence of clients (`a, b = clients`),
        the keys of a mapping, the parts of a command's reply (`count, items = pipe.execute()`: data)."""
        found = self._handles.kind(value) if value is not None else None
        if found is not None and found.shape == SHAPE_ITEMS:
            return handle_of(found.item)
        return OTHER if found is not None and found.shape == SHAPE_MAPPING else None

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
            self._scope.bind(target.id, item, self._handles.item_kind(iterable), iterated=True, iterable=collection)
        elif target is not None:
            sources = self._walked(target, iterable) if iterable is not None else {}
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

    def _walked(self, target: ast.expr, iterable: ast.expr) -> dict[str, ast.expr | str]:
        """What the names a loop unpacks are items of: a collection (`zip(keys, values)`), or the items a
        derived collection's tuples carry (`for key, ts in todo`, key_identity.py)."""
        return {**unpacked_items(target, iterable, self._scope), **loop_items(target, iterable)}

    # -- expressions -----------------------------------------------------------------------------------

    def _expr(self, node: ast.expr) -> None:
        """Visit calls inside out (arguments and receivers before the call), in evaluation order."""
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute):
                if isinstance(node.func.value, ast.Call) and chains_on_pipeline(node.func.attr):
                    self._handles.chained.add(id(node.func.value))
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
            sources = self._walked(generator.target, generator.iter)
            for element in ast.walk(generator.target):
                if isinstance(element, ast.Name):
                    item = self._handles.item_kind(generator.iter) if element is generator.target else None
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

    # -- calls -------------------------------------------------------------------------------------------

    def _call(self, call: ast.Call) -> None:
        func = call.func
        if self.module.is_client_call(call, self._scope.class_info, self._handles.local_kind):
            self._client_made(call)
            return
        if _makes_pool(self.module.qualified(func)):
            self._client_made(call)  # `ConnectionPool(db=2)`: every client of the pool selects db 2
            return
        if not isinstance(func, ast.Attribute):
            return
        method = func.attr
        if method in FILLING_METHODS and isinstance(func.value, ast.Name) and len(call.args) == 1:
            self._scope.fill(func.value.id, fill_sources(call.args[0], self._scope))  # `todo.append((key, ts))`
        receiver = self._handles.kind(func.value)
        if receiver is None:
            if not self._handles.lone_redis_call(call, method) and not self._handles.used_as_client(func.value):
                return
            receiver = GUESSED_CLIENT  # a receiver nothing names, called with methods only Redis clients have
        elif receiver.guessed and self._handles.rejected(func.value):
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
        namespace = receiver.cls if receiver.kind == KIND_MODULE else receiver.namespace
        spec = MODULE_COMMANDS.get(namespace, {}).get(method) if namespace is not None else None
        if spec is not None:  # a module command, also queued on a module namespace's pipeline
            if binding.fits(call, spec):
                self._redis_call(call, f"{namespace}().{method}", receiver.pipeline, spec)
            return
        if receiver.kind == KIND_MODULE:
            if method == "pipeline":
                self._pipeline_made(call)
            return
        if receiver.kind not in (KIND_CLIENT, KIND_PIPELINE):
            return
        if receiver.kind == KIND_CLIENT and id(call) in self._handles.chained:
            queued = self._handles.kind(call)  # its result takes pipeline methods: it is queued on one
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
        if pipeline is not None and method in ("watch", "unwatch", "execute", "reset"):
            pipeline.watching = method == "watch"  # WATCH sends what follows at once, up to MULTI

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
        handle = self._handles.kind(call)
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
            pipeline.transaction, pipeline.watching = True, False
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
            self._pending[-1].member = member_id(key_exprs[0], scope)
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


def _makes_pool(qualified: str | None) -> bool:
    """`redis.ConnectionPool(...)`, `redis.BlockingConnectionPool.from_url(...)`."""
    if qualified is None:
        return False
    return qualified.removesuffix(".from_url").rsplit(".", 1)[-1] in POOLS


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
