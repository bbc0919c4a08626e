"""Static source: Redis usage facts extracted from Python code, through a table of redis-py's methods."""
