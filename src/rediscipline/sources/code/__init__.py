"""Static source: Redis usage facts extracted from Python code (issue 5; the command table comes first)."""
