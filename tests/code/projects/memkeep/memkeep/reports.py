"""Report helpers: they work on whatever index object the engine hands them, and name no client library."""


def warm(index, name):
    index.conn.set(f"mem:cache:{name}", 1)  # error: TTL006


def describe(index, name):
    return index.describe(name)
