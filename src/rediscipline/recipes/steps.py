"""Each recipe is written once, as a plan of round trips, and run by a sync or an asyncio driver.

A plan is a generator: it yields a `Batch` (the commands of one round trip), receives the replies as a list,
and finally returns the recipe's result. `run` drives a plan with a sync redis-py client;
`rediscipline.recipes.aio.run_async` drives the same plan with a `redis.asyncio` client. So the sync and
the asyncio recipes send exactly the same commands in the same round trips, and only the drivers know
about I/O.

Every command goes through the client's `execute_command` (or a pipeline's), the seam every redis-py call
passes through: a guarded client (`rediscipline.guard`) sees each one with its real arguments. A batch of
several commands is sent on a non-transactional pipeline (`transaction=False`: 001 §命令使用 — 3.
不建议使用redis事务, and nothing here needs one). A server error aborts the plan, except a `ResponseError`
the plan catches: the driver throws it into the plan (`progressive_delete` uses it to see a key change type).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

import redis
from redis.exceptions import ResponseError

T = TypeVar("T")

#: One command as `execute_command` takes it: the name, then the arguments.
Command: TypeAlias = tuple[Any, ...]

#: A sync redis-py client: a single server (`redis.Redis`) or a Redis Cluster (`redis.RedisCluster`).
Client: TypeAlias = "redis.Redis | redis.RedisCluster"

#: A key as redis-py takes it: bytes, or str encoded with the client's encoding.
Key: TypeAlias = bytes | str


@dataclass(frozen=True, slots=True)
class Batch:
    """The commands of one round trip: one alone is sent with `execute_command`, several on a pipeline."""

    commands: tuple[Command, ...]


#: A recipe: yields batches, receives each batch's replies (one per command, in order), returns its result.
Plan: TypeAlias = Generator[Batch, list[Any], T]


def whole_number(name: str, value: int) -> int:
    """`value` itself, after checking it is a whole number >= 1 (ValueError naming `name` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a whole number >= 1, not {value!r}")
    return value


def slot_function(client: object) -> Callable[[Key], int] | None:
    """The client's `keyslot` (key → cluster hash slot, with the client's encoding) for a cluster client,
    None for a single server.

    Cluster clients of redis-py (`redis.RedisCluster`, `redis.asyncio.RedisCluster`) and of its fork
    valkey-py have `keyslot`; single-server clients do not.
    """
    keyslot = getattr(client, "keyslot", None)
    return keyslot if callable(keyslot) else None


def run(client: Client, plan: Plan[T]) -> T:
    """Drive `plan` with a sync client: send each batch, hand its replies back, return the plan's result."""
    try:
        batch = next(plan)
        while True:
            try:
                replies = send(client, batch)
            except ResponseError as error:
                batch = plan.throw(error)
            else:
                batch = plan.send(replies)
    except StopIteration as done:
        result: T = done.value
        return result


def send(client: Client, batch: Batch) -> list[Any]:
    """The replies to one batch, in the order of its commands."""
    if len(batch.commands) == 1:
        return [client.execute_command(*batch.commands[0])]  # type: ignore[no-untyped-call]
    pipe = client.pipeline(transaction=False)
    for command in batch.commands:
        pipe.execute_command(*command)
    replies: list[Any] = pipe.execute()
    return replies
