"""Process settings, read once from the environment (12-factor style, like the rest of our services)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


@dataclass(frozen=True)
class Settings:
    ENVIRONMENT: str = field(default_factory=lambda: _env("ENVIRONMENT", "development"))
    REDIS_URL: str = field(default_factory=lambda: _env("REDIS_URL", "redis://localhost:6379/0"))
    WEBHOOK_REDIS_URL: str = field(default_factory=lambda: _env("WEBHOOK_REDIS_URL", "redis://localhost:6379/0"))
    LEDGER_HOST: str = field(default_factory=lambda: _env("LEDGER_HOST", "localhost"))
    LEDGER_PORT: int = field(default_factory=lambda: int(_env("LEDGER_PORT", "6380")))
    WEBHOOK_MAX_ATTEMPTS: int = 8


settings = Settings()
