"""Settings object of the game backend; values come from the deployment's environment."""

from __future__ import annotations

import os
from types import SimpleNamespace

settings = SimpleNamespace(
    REDIS_URL=os.environ.get("GAME_REDIS_URL", "redis://localhost:6379/0"),
    PRESENCE_REDIS_URL=os.environ.get("PRESENCE_REDIS_URL", "redis://localhost:6379/0"),
    CLUSTER_HOST=os.environ.get("LEADERBOARD_CLUSTER_HOST", "localhost"),
    CLUSTER_PORT=int(os.environ.get("LEADERBOARD_CLUSTER_PORT", "7000")),
    REGION=os.environ.get("REGION", "eu"),
    SEASON=os.environ.get("SEASON", "s12"),
)
