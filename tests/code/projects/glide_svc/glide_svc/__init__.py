"""An asyncio profile service: GLIDE for sessions and limits, memcached for memos, redis-py for boards."""
