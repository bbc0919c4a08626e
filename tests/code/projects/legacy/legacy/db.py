# -*- coding: utf-8 -*-
# ruff: noqa: UP009, PLW0603 -- Python 2 era code, ported line by line
"""Connections.  Call get_conn() everywhere; never create clients by hand."""

import redis

REDIS_HOST = "10.0.3.12"
REDIS_PORT = 6379
REDIS_DB = 2
CACHE_DB = 0

_conn = None
_cache = None


def get_conn():
    global _conn
    if _conn is None:
        _conn = redis.StrictRedis(REDIS_HOST, REDIS_PORT, REDIS_DB)  # error: CMD006
    return _conn


def get_cache():
    global _cache
    if _cache is None:
        _cache = redis.StrictRedis(REDIS_HOST, REDIS_PORT, CACHE_DB, socket_timeout=2)
    return _cache


def reset_connections():
    """Called after fork by the pre-fork server."""
    global _conn, _cache
    _conn = None
    _cache = None
