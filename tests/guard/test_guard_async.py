"""The guard on redis-py's asyncio client: the same verdicts, at the coroutine's call site, with many tasks
sharing one client."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import redis
import redis.asyncio as aredis

from rediscipline.guard import ConventionViolation, guard, guard_report
from rediscipline.model.report import Report
from tests.guard.apps import shop_async
from tests.guard.conftest import APPS, calls, recorder, seeded
from tests.support.servers import ServerProcess

SHOP = APPS / "shop_async.py"


def run(server: ServerProcess, work: Callable[[aredis.Redis], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        client = aredis.Redis(host=server.host, port=server.port)
        try:
            return await work(client)
        finally:
            await client.aclose()

    return asyncio.run(main())


def places(report: Report) -> set[tuple[str, str, int]]:
    return {(f.rule_id, Path(f.location.path or "").name, f.location.line or 0) for f in report.findings}


def test_every_seeded_break_is_reported_at_its_call_site(server: ServerProcess, plain: redis.Redis) -> None:
    async def work(client: aredis.Redis) -> Report:
        guard(client, collector=recorder())
        for uid in range(5):
            await shop_async.save_profile(client, uid, b"p")
            await shop_async.add_to_cart_clean(client, uid, "pen")
        await shop_async.load_many_profiles(client, list(range(150)))
        await shop_async.add_to_cart(client, 1, "book")
        await shop_async.cache_page(client, "/home", b"x")
        await shop_async.find_sessions(client)
        await plain_push()
        await shop_async.wait_for_job(client)
        await shop_async.follow(client)
        return guard_report(client)

    async def plain_push() -> None:
        plain.rpush("queue:jobs", "job")  # so the BLPOP returns at once

    assert places(run(server, work)) == seeded(SHOP)


def test_tasks_sharing_a_client_lose_and_duplicate_nothing(server: ServerProcess) -> None:
    async def work(client: aredis.Redis) -> Report:
        guard(client, collector=recorder())

        async def task() -> None:
            for _ in range(50):
                await shop_async.cache_page(client, "/t", b"x")
                await asyncio.sleep(0)

        await asyncio.gather(*(task() for _ in range(20)))
        return guard_report(client)

    counts = {f.rule_id: f.count for f in run(server, work).findings}
    assert counts.pop("TTL006") == 1000
    assert set(counts) <= {"BAT002"}  # 20 loops of one site: a loop when the calls follow closely enough


def test_raise_refuses_before_sending(server: ServerProcess, plain: redis.Redis) -> None:
    async def work(client: aredis.Redis) -> None:
        guard(client, collector=recorder("raise", fail_on="warning"))
        with pytest.raises(ConventionViolation, match="CMD001") as refused:
            await shop_async.find_sessions(client)
        assert refused.value.location.line == next(line for rule, _f, line in seeded(SHOP) if rule == "CMD001")
        with pytest.raises(ConventionViolation, match="KEY006"):  # the first break of the pipeline's
            await shop_async.add_to_cart(client, 2, "book")
        await shop_async.save_profile(client, 3, b"p")

    run(server, work)
    stats = calls(plain)
    assert "keys" not in stats and "hset" not in stats and "multi" not in stats
    assert plain.exists("user:profile:3") == 1
