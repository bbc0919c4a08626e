"""Real-time fan-out: pub/sub for connected browsers, a stream for the mailer and push workers."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable

from notify.deps import redis_client

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, str]], Awaitable[None]]


async def publish(room: str, message: dict[str, str]) -> int:
    return int(await redis_client.publish(f"notify:room:{room}", json.dumps(message)))


async def listen(rooms: list[str], handler: Handler) -> None:
    """Relay the messages of a user's rooms to their websocket."""
    async with redis_client.pubsub() as pubsub:
        await pubsub.subscribe(*[f"notify:room:{room}" for room in rooms])
        async for message in pubsub.listen():
            if message["type"] == "message":
                await handler(json.loads(message["data"]))


async def listen_lobby(handler: Handler) -> None:
    """The lobby screen shows all 200 public rooms at once."""
    pubsub = redis_client.pubsub()
    await pubsub.subscribe(*[f"notify:room:public:{number}" for number in range(200)])  # error: PUB002
    async for message in pubsub.listen():
        if message["type"] == "message":
            await handler(json.loads(message["data"]))


async def listen_pattern(handler: Handler) -> None:
    async with redis_client.pubsub() as pubsub:
        await pubsub.psubscribe("notify:room:public:*")
        async for message in pubsub.listen():
            if message["type"] == "pmessage":
                await handler(json.loads(message["data"]))


async def emit(event: dict[str, str]) -> str:
    return await redis_client.xadd("notify:events", event, maxlen=100_000, approximate=True)


async def emit_audit(event: dict[str, str]) -> str:
    return await redis_client.xadd("notify:audit", event)  # error: TTL006


async def ensure_groups() -> None:
    for group in ("mailer", "push"):
        try:
            await redis_client.xgroup_create("notify:events", group, id="0", mkstream=True)
        except Exception as exc:  # BUSYGROUP: the group exists already
            log.debug("group %s: %s", group, exc)


async def tail_forever(handler: Handler, last_id: str = "$") -> None:
    """Follow the stream from now on (the support console's live view)."""
    while True:
        response = await redis_client.xread({"notify:events": last_id}, count=100, block=0)  # error: PUB001
        for _stream, entries in response:
            for entry_id, fields in entries:
                last_id = entry_id
                await handler(fields)


async def poll(handler: Handler, last_id: str = "0") -> str:
    response = await redis_client.xread({"notify:events": last_id}, count=100, block=5000)
    for _stream, entries in response or []:
        for entry_id, fields in entries:
            last_id = entry_id
            await handler(fields)
    return last_id


async def consume(group: str, consumer: str, handler: Handler) -> None:
    while True:
        response = await redis_client.xreadgroup(  # error: PUB001
            group, consumer, {"notify:events": ">"}, count=50, block=0
        )
        for _stream, entries in response:
            for entry_id, fields in entries:
                await handler(fields)
                await redis_client.xack("notify:events", group, entry_id)


async def consume_with_timeout(group: str, consumer: str, handler: Handler) -> None:
    while True:
        response = await redis_client.xreadgroup(group, consumer, {"notify:events": ">"}, count=50, block=2000)
        if not response:
            await asyncio.sleep(0)
            continue
        for _stream, entries in response:
            for entry_id, fields in entries:
                await handler(fields)
                await redis_client.xack("notify:events", group, entry_id)
