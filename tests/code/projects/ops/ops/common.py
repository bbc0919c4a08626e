"""Where the scripts connect: the host comes from the environment, never from a default in the code."""

from __future__ import annotations

import os

HOST = os.environ["REDIS_HOST"]
PORT = int(os.environ.get("REDIS_PORT", "6379"))
