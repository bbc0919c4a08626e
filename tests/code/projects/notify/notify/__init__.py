"""Notification service (aiohttp + redis.asyncio)."""
