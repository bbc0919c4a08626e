"""Events: pub/sub fan-out to connected websocket servers, and the order outbox stream."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from redis.exceptions import ResponseError

from .deps import get_events_redis, get_redis

OUTBOX = "outbox:orders"
GROUP = "billing"


async def listen_all_tenants() -> None:
    r = get_events_redis()
    pubsub = r.pubsub()
    await pubsub.subscribe(*[f"events:tenant:{tenant_id}" for tenant_id in range(200)])  # error: PUB002
    async for message in pubsub.listen():
        print(message)


async def listen_shard(shard: int) -> None:
    r = get_events_redis()
    pubsub = r.pubsub()
    first = shard * 50
    await pubsub.subscribe(*[f"events:tenant:{tenant_id}" for tenant_id in range(first, first + 50)])
    async for message in pubsub.listen():
        print(message)


async def listen_regions() -> None:
    r = get_events_redis()
    pubsub = r.pubsub()
    channels = [f"events:region:{region}" for region in range(64)]
    await pubsub.subscribe(*channels)  # error: PUB002
    async for message in pubsub.listen():
        print(message)


async def listen_broadcast() -> None:
    r = get_events_redis()
    pubsub = r.pubsub()
    await pubsub.subscribe("events:broadcast", "events:maintenance")
    await pubsub.psubscribe("events:tenant:*")
    async for message in pubsub.listen():
        print(message)


async def publish(tenant_id: int, event: dict[str, Any]) -> None:
    await get_events_redis().publish(f"events:tenant:{tenant_id}", json.dumps(event))


async def broadcast_maintenance(message: str) -> None:
    r = get_events_redis()
    async with r.pipeline(transaction=False) as pipe:
        for tenant_id in range(500):
            pipe.publish(f"events:tenant:{tenant_id}", message)
        await pipe.execute()  # error: BAT003


async def ensure_group() -> None:
    r = get_redis()
    try:
        await r.xgroup_create(OUTBOX, GROUP, id="0", mkstream=True)
    except ResponseError as error:
        if "BUSYGROUP" not in str(error):
            raise


async def append_order(order: dict[str, str]) -> None:
    await get_redis().xadd(OUTBOX, order, maxlen=100_000, approximate=True)


async def handle(fields: dict[bytes, bytes]) -> None:
    await asyncio.sleep(0)


async def consume(consumer: str) -> None:
    r = get_redis()
    while True:
        batches = await r.xreadgroup(GROUP, consumer, {OUTBOX: ">"}, count=50, block=5000)
        for _stream, messages in batches or []:
            for message_id, fields in messages:
                await handle(fields)
                await r.xack(OUTBOX, GROUP, message_id)


async def consume_audit(consumer: str) -> None:
    r = get_redis()
    while True:
        batches = await r.xreadgroup("audit", consumer, {OUTBOX: ">"}, count=10, block=0)  # error: PUB001
        for _stream, messages in batches:
            for message_id, fields in messages:
                await handle(fields)
                await r.xack(OUTBOX, "audit", message_id)


async def deliver_webhooks() -> None:
    r = get_redis()
    while True:
        item = await r.brpop("queue:webhooks", timeout=0)  # error: PUB001
        await handle({b"payload": item[1]})


async def deliver_webhooks_v2() -> None:
    r = get_redis()
    while True:
        item = await r.blmove("queue:webhooks", "queue:webhooks_inflight", 5, "RIGHT", "LEFT")
        if item is not None:
            await handle({b"payload": item})
            await r.lrem("queue:webhooks_inflight", 1, item)
