"""Read a type annotation into the kind of value it promises.

`conn: Redis`, `r: redis.Redis | None` and `Optional["Redis"]` promise a client; `Pipeline` a pipeline. Some
annotations name a client type without promising one: `list[Redis]` and `Sequence[Redis]` are containers whose
items are clients (`self._clients.append(c)` is `list.append`), `dict[str, Redis]` a mapping whose values are,
`Callable[..., Redis]` a factory whose result is one, and `type[Redis]` a class whose instances are. Wrappers
that hand out the value they wrap (`Optional`, `Union`, `Annotated`, `Awaitable`, and the `Iterator` or
`Generator` a context manager or a pytest fixture yields from) are read through.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from rediscipline.sources.code.kinds import (
    KIND_CLIENT,
    KIND_OTHER,
    KIND_PIPELINE,
    SHAPE_CALLABLE,
    SHAPE_CLASS,
    SHAPE_ITEMS,
    SHAPE_MAPPING,
    Kind,
)

if TYPE_CHECKING:
    from rediscipline.sources.code.module import ModuleInfo

#: How many type aliases and nested annotations deep an annotation is followed.
ALIAS_DEPTH = 4
#: Generic types that hold values, by name (from builtins, typing or collections.abc): what the value gives.
SHAPES = {
    **dict.fromkeys(
        (
            "list", "List", "Sequence", "MutableSequence", "set", "Set", "frozenset", "FrozenSet", "AbstractSet",
            "MutableSet", "tuple", "Tuple", "deque", "Deque", "Collection", "Iterable", "AsyncIterable",
        ),
        SHAPE_ITEMS,
    ),
    **dict.fromkeys(
        ("dict", "Dict", "Mapping", "MutableMapping", "DefaultDict", "defaultdict", "OrderedDict", "ChainMap"),
        SHAPE_MAPPING,
    ),
    "Callable": SHAPE_CALLABLE,
    "type": SHAPE_CLASS,
    "Type": SHAPE_CLASS,
}  # fmt: skip
#: Generic types read as the value they wrap: the first argument (`Annotated[Redis, ...]`, `Generator[Redis,
#: None, None]`), the last (`Coroutine[Any, Any, Redis]`), or any of them (`Union`, `Optional`).
_FIRST_ARGUMENT = frozenset(
    {"Annotated", "Iterator", "Generator", "AsyncIterator", "AsyncGenerator", "ClassVar", "Final", "ContextManager",
     "AsyncContextManager", "AbstractContextManager", "AbstractAsyncContextManager", "Required", "NotRequired"}
)  # fmt: skip
_LAST_ARGUMENT = frozenset({"Coroutine", "Awaitable"})
_ANY_ARGUMENT = frozenset({"Union", "Optional"})
#: Modules whose generic names are the ones above (and not a project class of the same name).
GENERIC_MODULES = ("typing", "typing_extensions", "collections", "builtins", "contextlib")


def annotation_kind(info: ModuleInfo, annotation: ast.expr | None, depth: int = 0) -> Kind | None:
    """The kind an annotation promises (see the module docstring), or None when it names nothing known."""
    if annotation is None or depth > ALIAS_DEPTH:
        return None
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            inner = ast.parse(annotation.value.strip(), mode="eval").body
        except SyntaxError:
            return None
        return annotation_kind(info, inner, depth + 1)
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _either([annotation_kind(info, side, depth + 1) for side in (annotation.left, annotation.right)])
    if isinstance(annotation, ast.Subscript):
        return _generic(info, annotation, depth)
    if isinstance(annotation, (ast.Name, ast.Attribute)):
        return info.annotation_name(annotation, depth)
    return None


def _generic(info: ModuleInfo, annotation: ast.Subscript, depth: int) -> Kind | None:
    name = _generic_name(info, annotation.value)
    arguments = list(annotation.slice.elts) if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
    if name is None:
        return annotation_kind(info, annotation.value, depth + 1)  # a class of its own (`Pool[Redis]`)
    shape = SHAPES.get(name)
    if shape is not None:
        if shape in (SHAPE_MAPPING, SHAPE_CALLABLE):
            wanted = arguments[-1:]
        else:
            wanted = [a for a in arguments if not (isinstance(a, ast.Constant) and a.value is Ellipsis)][:1]
        item = annotation_kind(info, wanted[0], depth + 1) if wanted else None
        return Kind(KIND_OTHER, None, item, shape)
    if name in _FIRST_ARGUMENT:
        return annotation_kind(info, arguments[0], depth + 1)
    if name in _LAST_ARGUMENT:
        return annotation_kind(info, arguments[-1], depth + 1)
    if name in _ANY_ARGUMENT:
        return _either([annotation_kind(info, argument, depth + 1) for argument in arguments])
    if name == "Literal":
        return None
    return annotation_kind(info, annotation.value, depth + 1)  # another generic: what its class is


def _generic_name(info: ModuleInfo, expr: ast.expr) -> str | None:
    """`list`, `Sequence`, `Optional`... when `expr` names a generic of the standard library, else None."""
    if not isinstance(expr, (ast.Name, ast.Attribute)):
        return None
    written = expr.id if isinstance(expr, ast.Name) else expr.attr
    qualified = info.qualify(expr)
    if qualified is None:
        return written if isinstance(expr, ast.Name) else None
    return written if qualified.split(".", 1)[0] in GENERIC_MODULES else None


def _either(kinds: list[Kind | None]) -> Kind | None:
    """One of several types (`Redis | None`, `Union[Redis, RedisCluster]`): a client if any is one, then a
    pipeline, else the first that is known."""
    for wanted in (KIND_CLIENT, KIND_PIPELINE):
        match = next((kind for kind in kinds if kind is not None and kind.kind == wanted), None)
        if match is not None:
            return match
    return next((kind for kind in kinds if kind is not None), None)
