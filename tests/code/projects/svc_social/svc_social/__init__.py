"""Social feed service: follow graph, home feeds, likes, trending tags and notifications (asyncio)."""
