"""Settings of the search service, in the style of the other FastAPI services (environment variables)."""

from __future__ import annotations

import os


class Settings:
    """Read once at import; tests build their own instance with monkeypatched variables."""

    def __init__(self) -> None:
        self.REDIS_URL = os.getenv("SEARCH_REDIS_URL", "redis://localhost:6379/0")
        self.ANALYTICS_REDIS_HOST = os.getenv("ANALYTICS_REDIS_HOST", "localhost")
        self.QUERY_CACHE_TTL = int(os.getenv("QUERY_CACHE_TTL", "300"))
        self.DEFAULT_LOCALE = os.getenv("DEFAULT_LOCALE", "en")
        self.ADMIN_TOKEN = os.getenv("SEARCH_ADMIN_TOKEN", "")


settings = Settings()
