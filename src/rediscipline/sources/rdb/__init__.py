"""Offline source: a streaming parser for RDB dumps (Redis 2.x–8.10, Valkey 7.2–9.x) and its key facts."""
