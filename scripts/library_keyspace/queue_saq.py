"""saq: jobs with results on named queues, a burst Worker in-process, scheduled jobs, retries and a cron job."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import queue_tasks as tasks
import sample_args as args
from queue_common import Family, Server, family

LIBRARIES = ("saq",)

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {"queues": ("default", "media"), "ttl": 600, "jobs": 360},
    "b": {"queues": ("emails", "thumbnails"), "ttl": 3600, "jobs": 400},
}

JOB_KEY = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|order-[0-9]{7}|cron:nightly_cleanup"


def families(options: dict[str, Any]) -> list[Family]:
    rows = [family("saq", "saq abort marker", rf"saq:abort:(?:{JOB_KEY})")]
    for queue in options["queues"]:
        rows += [
            family("saq", f"saq job {queue}", rf"saq:job:{queue}:(?:{JOB_KEY})"),
            family("saq", f"saq queued {queue}", rf"saq:{queue}:queued"),
            family("saq", f"saq incomplete {queue}", rf"saq:{queue}:incomplete"),
            family("saq", f"saq active {queue}", rf"saq:{queue}:active"),
            family("saq", f"saq schedule {queue}", rf"saq:{queue}:schedule"),
            family("saq", f"saq sweep lock {queue}", rf"saq:{queue}:sweep"),
            family("saq", f"saq stats {queue}", rf"saq:{queue}:stats"),
            family("saq", f"saq worker info {queue}", rf"saq:{queue}:worker_info:[0-9a-f-]{{36}}"),
            family("saq", f"saq worker stats {queue}", rf"saq:{queue}:stats:[0-9a-f-]{{36}}"),
        ]
    return rows


async def send_email(ctx: dict[str, Any], *, user_id: int, template: str) -> str:
    return tasks.send_email(user_id, template)


async def resize_image(ctx: dict[str, Any], *, path: str, width: int) -> dict[str, object]:
    return tasks.resize_image(path, width)


async def charge_order(ctx: dict[str, Any], *, order: int) -> str:
    return f"charged {order}"


async def nightly_cleanup(ctx: dict[str, Any]) -> int:
    return 0


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    asyncio.run(_run(server, db, rng, options))


async def _run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    from saq import CronJob, Queue, Worker

    queues = [Queue.from_url(server.url(db), name=name) for name in options["queues"]]
    ttl = options["ttl"]
    for _ in range(options["jobs"]):
        queue = rng.choice(queues)
        pick = rng.random()
        if pick < 0.4:
            failing = rng.random() < 0.06
            await queue.enqueue("send_email", user_id=args.user_id(rng), template=args.template(rng, failing), ttl=ttl)
        elif pick < 0.8:
            await queue.enqueue("resize_image", path=args.image_path(rng), width=args.width(rng), ttl=ttl)
        else:
            order = args.order_number(rng)
            await queue.enqueue("charge_order", key=f"order-{order}", order=order, retries=2)
    functions = [send_email, resize_image, charge_order]
    for index, queue in enumerate(queues):
        crons = [CronJob(nightly_cleanup, cron="0 3 * * *")] if index == 0 else []
        worker = Worker(queue, functions, cron_jobs=crons, concurrency=4, burst=True, dequeue_timeout=1.0)
        await worker.start()
    for _ in range(30):
        when = int(time.time()) + rng.randint(600, 86400)
        await queues[0].enqueue("send_email", user_id=args.user_id(rng), template="weekly-digest", scheduled=when)
    for _ in range(25):
        await rng.choice(queues).enqueue("resize_image", path=args.image_path(rng), width=args.width(rng))
    for queue in queues:
        await queue.disconnect()
