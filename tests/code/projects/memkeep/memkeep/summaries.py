"""Summaries updated under WATCH: what a command returns is data, whatever it is called."""

import redis.asyncio


async def summarize(r: redis.asyncio.Redis, session: str) -> str:
    key = f"mem:meta:{session}"
    async with r.pipeline(transaction=False) as pipe:
        await pipe.watch(key)
        metadata = await pipe.hgetall(key)  # error: CMD005
        pipe.multi()  # error: CMD007
        pipe.hset(key, "context", metadata.get("context", "") + "!")
        pipe.expire(key, 86_400)
        await pipe.execute()
    return metadata.get("context", "")


async def stamp(r: redis.asyncio.Redis, session: str) -> bytes:
    redis_reply = await r.get(f"mem:cache:{session}")
    return redis_reply.get("stamp")
