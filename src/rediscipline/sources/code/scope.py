"""One function's names while the extractor walks it: what each was last bound to, and which hold Redis objects.

Names are followed through enclosing functions, then the module's constants (its own and those imported from
other project modules). A name bound to something unknown (a loop variable, a parameter) shadows a module
constant of the same name: it must not be read as that constant.
"""

from __future__ import annotations

import ast

from rediscipline.sources.code.definitions import single_return
from rediscipline.sources.code.module import ClassInfo, ModuleInfo, receiver_key
from rediscipline.sources.code.receivers import Handle, handle_of
from rediscipline.sources.code.values import Bindings

#: Stands for a bound name whose value is unknown.
_UNBOUND = object()


class Scope:
    """The names of one function (see the module docstring)."""

    def __init__(self, module: ModuleInfo, parent: Scope | None, class_info: ClassInfo | None) -> None:
        self.module = module
        self.parent = parent
        self.class_info = class_info
        self.values: dict[str, object] = {}
        self.handles: dict[str, Handle] = {}
        #: names bound by `for` or a comprehension → the iterable, or the identity of the items they are
        self.iterated: dict[str, ast.expr | str | None] = {}
        #: collections filled from loop items (`todo.append((key, ts))`) → where their items come from
        self.fills: dict[str, dict[int | None, str]] = {}

    def _bound(self, name: str) -> tuple[bool, ast.expr | None]:
        """(whether this function or an enclosing one binds `name`, the expression it holds if known)."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.values:
                value = scope.values[name]
                return True, value if isinstance(value, ast.expr) else None
            scope = scope.parent
        return False, None

    def lookup(self, name: str) -> ast.expr | None:
        found, value = self._bound(name)
        return value if found else self.module.constants.get(name)

    def attribute(self, node: ast.Attribute) -> ast.expr | None:
        """A class constant read as `self.PREFIX`, `cls.PREFIX` or `CartService.PREFIX`."""
        owner = node.value
        module = self.module.imported_modules.get(receiver_key(owner) or "")
        if module is not None:
            return module.constants.get(node.attr)  # `keys.CART_TTL`
        if not isinstance(owner, ast.Name):
            return None
        info = self.class_info if owner.id in ("self", "cls") else self.module.classes.get(owner.id)
        return info.constants.get(node.attr) if info is not None else None

    def builder(self, call: ast.Call) -> tuple[ast.expr, Bindings] | None:
        """A key-builder function of this module (`user_key(uid)`, `self._key(uid)`): the expression it
        returns, with its parameters unknown, when its body is a single `return`."""
        func = call.func
        function = None
        class_info = None
        if isinstance(func, ast.Name):
            function = self.module.functions.get(func.id)
        elif isinstance(func, ast.Attribute):
            module = self.module.imported_modules.get(receiver_key(func.value) or "")
            if module is not None:
                function = module.builders.get(func.attr)  # `keys.cart_key(uid)`
            elif isinstance(func.value, ast.Name):
                owner = func.value.id
                class_info = self.class_info if owner in ("self", "cls") else self.module.classes.get(owner)
                function = class_info.methods.get(func.attr) if class_info is not None else None
        returned = single_return(function) if function is not None else None
        if function is None or returned is None:
            return None
        inner = Scope(self.module, None, class_info)
        arguments = function.args
        for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
            inner.bind(argument.arg, None, None)
        return returned, inner

    def local(self, name: str) -> ast.expr | None:
        """What `name` was last bound to in this function or an enclosing one (not module constants)."""
        return self._bound(name)[1]

    def handle(self, name: str) -> Handle | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.handles:
                return scope.handles[name]
            if name in scope.values:
                return None  # bound to something that is not a client
            scope = scope.parent
        return handle_of(self.module.global_kind(name))

    def bind(
        self,
        name: str,
        value: ast.expr | None,
        handle: Handle | None,
        *,
        iterated: bool = False,
        iterable: ast.expr | str | None = None,
    ) -> None:
        """Bind `name`; `iterated` when it is a loop's or a comprehension's item (of `iterable` when known).
        A module global that functions assign through `global` holds whatever any of its assignments gives
        it, whatever this one is (reassigned.py)."""
        if self.parent is None and name in self.module.reassigned:
            value, handle = None, handle_of(self.module.global_kind(name)) or handle
        self.values[name] = value if value is not None else _UNBOUND
        if handle is not None:
            self.handles[name] = handle
        else:
            self.handles.pop(name, None)
        if iterated:
            self.iterated[name] = iterable
        else:
            self.iterated.pop(name, None)
        self.fills.pop(name, None)

    def is_iterated(self, name: str) -> bool:
        """Whether `name` was last bound as a loop's or a comprehension's item."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.values:
                return name in scope.iterated
            scope = scope.parent
        return False

    def iterable(self, name: str) -> ast.expr | str | None:
        """What the loop that last bound `name` iterates over, when `name` is its whole target (or the identity
        of the items it walks, for an element unpacked from a derived collection's items)."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.values:
                return scope.iterated.get(name)
            scope = scope.parent
        return None

    def fill(self, name: str, sources: dict[int | None, str]) -> None:
        """Record that an item carrying `sources` was put into the collection `name` (key_identity.py); items
        of different origins leave only what they agree on."""
        scope = self._binder(name)
        if scope is None:
            return
        known = scope.fills.get(name)
        scope.fills[name] = dict(sources) if known is None else {k: v for k, v in known.items() if sources.get(k) == v}

    def filled(self, name: str) -> dict[int | None, str]:
        """Where the items put into the collection `name` come from, when all of them agree."""
        scope = self._binder(name)
        return scope.fills.get(name, {}) if scope is not None else {}

    def _binder(self, name: str) -> Scope | None:
        scope: Scope | None = self
        while scope is not None:
            if name in scope.values:
                return scope
            scope = scope.parent
        return None
