"""Guarding the clients an application makes, without touching its code: the client classes' `__init__`
wrapped for the duration of a block (the pytest plugin's session, `guard_new_clients`)."""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

#: The client classes whose instances are guarded as they are made (pipelines and pub/sub objects follow
#: from their clients).
_CLASSES = (
    ("redis.client", "Redis"),
    ("redis.cluster", "RedisCluster"),
    ("redis.asyncio.client", "Redis"),
    ("redis.asyncio.cluster", "RedisCluster"),
    ("valkey.client", "Valkey"),
    ("valkey.cluster", "ValkeyCluster"),
    ("valkey.asyncio.client", "Valkey"),
    ("valkey.asyncio.cluster", "ValkeyCluster"),
)
_lock = threading.Lock()


def _classes() -> list[type]:
    found: list[type] = []
    for module_name, name in _CLASSES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        cls = getattr(module, name, None)
        if isinstance(cls, type) and cls not in found:
            found.append(cls)
    return found


def _wrapped(original: Callable[..., None], on_made: Callable[[Any], object]) -> Callable[..., None]:
    @functools.wraps(original)
    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        on_made(self)  # guarding is idempotent: a subclass's __init__ calling this one guards once

    return init


@contextmanager
def guarding_constructors(on_made: Callable[[Any], object]) -> Iterator[None]:
    """Within the block, every client made (of the classes above, or a subclass) is handed to `on_made`
    once the supported class's `__init__` has run; the classes are restored after it."""
    with _lock:
        patched: list[tuple[type, Any]] = []
        for cls in _classes():
            original = cls.__dict__.get("__init__")
            if original is not None:
                setattr(cls, "__init__", _wrapped(original, on_made))  # noqa: B010 - replacing a dunder
                patched.append((cls, original))
    try:
        yield
    finally:
        with _lock:
            for cls, original in reversed(patched):
                setattr(cls, "__init__", original)  # noqa: B010
