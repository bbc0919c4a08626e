"""`manage.py cache` — report, purge and reset the caches (run by operators, and by the deploy script)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.core.management.base import BaseCommand, CommandParser
from django_redis import get_redis_connection


class Command(BaseCommand):
    help = "Cache maintenance: report, purge, reset, tune, watch."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("action", choices=["report", "purge", "reset", "reset-softly", "tune", "watch"])

    def handle(self, *args: Any, **options: Any) -> None:
        getattr(self, options["action"].replace("-", "_"))()

    def report(self) -> None:
        names = cache.client.get_client().keys("*")  # error: CMD001
        self.stdout.write(f"{len(names)} keys")
        for key in cache.iter_keys("fragment:*"):
            self.stdout.write(f"{key} ttl={cache.ttl(key)}")

    def purge(self) -> None:
        removed = cache.delete_pattern("fragment:*", itersize=500)
        cache.delete_many(["version:site", "version:nav"])
        self.stdout.write(f"{removed} fragments removed")

    def reset(self) -> None:
        con = get_redis_connection("default")
        con.flushdb()  # error: CMD002

    def reset_softly(self) -> None:
        raw = cache.client.get_client(write=True)
        for key in raw.scan_iter(match="fragment:*", count=1000):
            raw.unlink(key)
        raw.flushdb(asynchronous=True)

    def keys_like(self, pattern: str) -> list[bytes]:
        raw = cache.client.get_client()
        return raw.keys(pattern)  # error: CMD001

    def tune(self) -> None:
        con = get_redis_connection("default")
        con.config_set("maxmemory-policy", "allkeys-lru")  # error: CMD004

    def watch(self) -> None:
        con = get_redis_connection("default")
        with con.monitor() as monitor:  # error: CMD003
            for command in monitor.listen():
                self.stdout.write(str(command))
