"""The follow graph: two sets per user, kept in step by one pipeline.

Celebrity accounts have millions of followers, so nothing here may read a whole set
on the request path; the fan-out worker pages through them with SSCAN.
"""

from __future__ import annotations

from redis.asyncio import Redis

from svc_social import keys

PAGE = 100
SUGGESTION_FRIENDS = 20


class FollowGraph:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def follow(self, user_id: int, target_id: int) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd(keys.following(user_id), target_id)
            pipe.sadd(keys.followers(target_id), user_id)
            await pipe.execute()

    async def unfollow(self, user_id: int, target_id: int) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.srem(keys.following(user_id), target_id)
            pipe.srem(keys.followers(target_id), user_id)
            await pipe.execute()

    async def is_following(self, user_id: int, target_id: int) -> bool:
        return bool(await self.redis.sismember(keys.following(user_id), target_id))

    async def counts(self, user_id: int) -> tuple[int, int]:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.scard(keys.followers(user_id))
            pipe.scard(keys.following(user_id))
            followers, following = await pipe.execute()
        return int(followers), int(following)

    async def followers_page(self, user_id: int, cursor: int = 0) -> tuple[int, list[bytes]]:
        next_cursor, members = await self.redis.sscan(keys.followers(user_id), cursor=cursor, count=PAGE)
        return int(next_cursor), list(members)

    async def all_followers(self, user_id: int) -> set[bytes]:
        """The "who follows you" export; fine for small accounts, fatal for celebrities."""
        return await self.redis.smembers(keys.followers(user_id))  # error: CMD005

    async def mutual_follows(self, user_id: int, other_id: int) -> set[bytes]:
        """People you follow who also follow `other_id` (profile header)."""
        return await self.redis.sinter(keys.following(user_id), keys.followers(other_id))  # error: CMD005

    async def suggestions(self, user_id: int, friend_ids: list[int]) -> set[bytes]:
        """People your friends follow and you do not."""
        friends = [keys.following(friend) for friend in friend_ids[:SUGGESTION_FRIENDS]]
        candidates = await self.redis.sunion(friends)  # error: CMD005
        mine = await self.redis.smismember(keys.following(user_id), list(candidates))
        return {c for c, followed in zip(candidates, mine, strict=True) if not followed and c != str(user_id).encode()}

    async def delete_account(self, user_id: int) -> None:
        """GDPR erasure of the user's side of the graph."""
        await self.redis.delete(keys.followers(user_id), keys.following(user_id))  # error: CMD008

    async def erase_followers_progressively(self, user_id: int) -> int:
        """What delete_account should do for big accounts: SSCAN + SREM in pages, then UNLINK."""
        key = keys.followers(user_id)
        removed, cursor = 0, 0
        while True:
            cursor, members = await self.redis.sscan(key, cursor=cursor, count=PAGE)
            if members:
                removed += await self.redis.srem(key, *members)
            if cursor == 0:
                break
        await self.redis.unlink(key)
        return removed
