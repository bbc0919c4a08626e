"""The live source: audit a running Redis/Valkey instance as a read-only guest.

`url` parses and redacts addresses, `connection` opens a redis-py connection and maps its errors to one-line
messages, `wire` pipelines raw commands over it, `server` reads INFO/CONFIG/ACL/SLOWLOG into a ServerFact,
and `scanner` walks the keyspace with SCAN and bounded per-key probes, yielding facts.
"""
