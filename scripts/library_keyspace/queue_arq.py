"""arq: jobs with arq's default ids and a few custom ids, a burst Worker in-process, deferred and cron jobs.

Jobs are enqueued on the variant's queues (arq's default `arq:queue`, or queue names an application picks);
a burst worker per queue runs them, keeps results (keep_result), retries a job that asks for it, and runs a
cron job at startup; deferred jobs and a backlog are enqueued afterwards (a burst worker does not stop while
its queue holds deferred jobs), so they wait for the next worker as they would in production.
"""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import timedelta
from typing import Any

import queue_tasks as tasks
import sample_args as args
from queue_common import Family, Server, family

LIBRARIES = ("arq",)

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {"queues": ("arq:queue",), "keep_result": 3600, "jobs": 420},
    "b": {"queues": ("shop:emails", "shop:media"), "keep_result": 600, "jobs": 480},
}

JOB_ID = r"[0-9a-f]{32}|order-[0-9]{7}|cron:nightly_cleanup:[0-9]{13}"


def families(options: dict[str, Any]) -> list[Family]:
    rows = [
        family("arq", "arq job", rf"arq:job:(?:{JOB_ID})"),
        family("arq", "arq job result", rf"arq:result:(?:{JOB_ID})"),
        family("arq", "arq job in progress", rf"arq:in-progress:(?:{JOB_ID})"),
        family("arq", "arq job retry count", rf"arq:retry:(?:{JOB_ID})"),
        family("arq", "arq aborted jobs", r"arq:abort"),
    ]
    for queue in options["queues"]:
        rows += [
            family("arq", f"arq queue {queue}", queue),
            family("arq", f"arq health check {queue}", f"{queue}:health-check"),
        ]
    return rows


async def send_email(ctx: dict[str, Any], user_id: int, template: str) -> str:
    return tasks.send_email(user_id, template)


async def resize_image(ctx: dict[str, Any], path: str, width: int) -> dict[str, object]:
    return tasks.resize_image(path, width)


async def charge_order(ctx: dict[str, Any], order: int) -> str:
    from arq import Retry

    if ctx["job_try"] < 2 and order % 3 == 0:
        raise Retry(defer=timedelta(seconds=0.01))
    return f"charged {order}"


async def nightly_cleanup(ctx: dict[str, Any]) -> int:
    return 0


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    asyncio.run(_run(server, db, rng, options))


async def _run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    from arq import Worker, create_pool, cron
    from arq.connections import RedisSettings

    settings = RedisSettings(host="127.0.0.1", port=server.port, database=db)
    pool = await create_pool(settings)
    queues = options["queues"]
    for _ in range(options["jobs"]):
        queue = rng.choice(queues)
        pick = rng.random()
        if pick < 0.4:
            failing = rng.random() < 0.06
            await pool.enqueue_job("send_email", args.user_id(rng), args.template(rng, failing), _queue_name=queue)
        elif pick < 0.8:
            await pool.enqueue_job("resize_image", args.image_path(rng), args.width(rng), _queue_name=queue)
        else:
            order = args.order_number(rng)
            await pool.enqueue_job("charge_order", order, _job_id=f"order-{order}", _queue_name=queue)
    logging.getLogger("arq").disabled = True
    logging.getLogger("arq.worker").disabled = True
    functions = [send_email, resize_image, charge_order]
    for index, queue in enumerate(queues):
        crons = [cron(nightly_cleanup, hour=3, minute=0, run_at_startup=True)] if index == 0 else []
        worker = Worker(
            functions=functions,
            cron_jobs=crons,
            queue_name=queue,
            redis_settings=settings,
            burst=True,
            keep_result=options["keep_result"],
            max_jobs=20,
            handle_signals=False,
            poll_delay=0.05,
        )
        await worker.main()
        await worker.close()

    for _ in range(30):
        defer = timedelta(minutes=rng.randint(10, 900))
        await pool.enqueue_job("send_email", args.user_id(rng), "weekly-digest", _defer_by=defer, _queue_name=queues[0])
    for _ in range(40):
        queue = rng.choice(queues)
        await pool.enqueue_job("resize_image", args.image_path(rng), args.width(rng), _queue_name=queue)
    await pool.aclose()
