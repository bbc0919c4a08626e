"""Presence on the asyncio websocket gateway.

A player is online while `presence:player:<id>` exists: every heartbeat rewrites it with a short TTL, and
the `expired` keyspace event tells friends that the player went offline.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from svc_gaming import keys
from svc_gaming.infra import presence_redis

PRESENCE_TTL = 45
ONLINE_SHARDS = 64


async def heartbeat(player_id: str, node: str) -> None:
    await presence_redis.set(keys.presence_key(player_id), node, ex=PRESENCE_TTL)


async def mark_online(player_id: str) -> None:
    shard = hash(player_id) % ONLINE_SHARDS
    await presence_redis.sadd(f"presence:online:{shard}", player_id)  # error: TTL006
    await presence_redis.publish(keys.presence_channel(player_id), "online")


async def restore_sessions(node: str, player_ids: list[str]) -> None:
    """After a gateway node restarts, re-announce every player whose socket it holds again."""
    pipe = presence_redis.pipeline(transaction=False)
    for player_id in player_ids:
        pipe.set(keys.presence_key(player_id), node, ex=PRESENCE_TTL)  # error: TTL007
    await pipe.execute()


async def online_friends(player_id: str) -> list[str]:
    friends = await presence_redis.smembers(keys.friends_key(player_id))  # error: CMD005
    if not friends:
        return []
    ids = sorted(friend.decode() for friend in friends)
    nodes = await presence_redis.mget([keys.presence_key(friend) for friend in ids])
    return [friend for friend, node in zip(ids, nodes, strict=True) if node is not None]


async def enable_expiry_events() -> None:
    """Presence needs `expired` events; managed instances ship with notifications off."""
    await presence_redis.config_set("notify-keyspace-events", "Ex")  # error: CMD004


async def watch_expirations(on_offline: Callable[[str], Awaitable[None]]) -> None:
    pubsub = presence_redis.pubsub()
    await pubsub.psubscribe("__keyevent@0__:expired")
    async for message in pubsub.listen():
        name = message["data"]
        if isinstance(name, bytes) and name.startswith(b"presence:player:"):
            await on_offline(name.split(b":", 2)[2].decode())


async def follow_friends(friend_ids: list[str], on_change: Callable[[str, str], Awaitable[None]]) -> None:
    pubsub = presence_redis.pubsub()
    await pubsub.subscribe(*[keys.presence_channel(friend) for friend in friend_ids])
    async for message in pubsub.listen():
        if message["type"] == "message":
            await on_change(message["channel"].decode(), message["data"].decode())


async def follow_all_shards(on_change: Callable[[str, str], Awaitable[None]]) -> None:
    """The admin dashboard's live map listens to every gateway shard at once."""
    pubsub = presence_redis.pubsub()
    await pubsub.subscribe(*[f"presence:shard:{n}" for n in range(128)])  # error: PUB002
    async for message in pubsub.listen():
        if message["type"] == "message":
            await on_change(message["channel"].decode(), message["data"].decode())


async def next_invite(player_id: str) -> str:
    """The lobby screen waits here for a party invite."""
    _, invite = await presence_redis.brpop(keys.invites_key(player_id))  # error: PUB001
    return invite.decode()


async def drain_node(node: str) -> None:
    """Called when a gateway node is drained for deploy: its players reconnect elsewhere."""
    await presence_redis.publish("presence:drain", node)
    await presence_redis.delete("presence:player:*")  # error: KEY003
