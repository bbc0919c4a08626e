"""kvcache: a namespaced cache with a Redis backend and an in-memory twin sharing one API."""

from .backend import RedisCache
from .memory import MemoryCache

__all__ = ["MemoryCache", "RedisCache"]
