"""Static source: Redis usage facts extracted from Python code."""
