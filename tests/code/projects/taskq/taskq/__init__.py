"""taskq: a small task queue on Redis. The public names are re-exported here."""

from .broker import Broker, Queue
from .connection import AsyncTaskRedis, TaskRedis, create_pool

__all__ = ["AsyncTaskRedis", "Broker", "Queue", "TaskRedis", "create_pool"]
