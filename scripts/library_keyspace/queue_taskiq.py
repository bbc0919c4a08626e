"""taskiq-redis: a ListQueueBroker with the Redis result backend, an in-process Receiver, a schedule source."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import random
from typing import Any

import queue_tasks as tasks
import sample_args as args
from queue_common import Family, Server, family

LIBRARIES = ("taskiq-redis", "taskiq")

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {"queue": "taskiq", "result_ex_time": 600, "schedule_prefix": "schedule", "messages": 380},
    "b": {"queue": "shop:tasks", "result_ex_time": 3600, "schedule_prefix": "shop:schedules", "messages": 420},
}

HEX32 = r"[0-9a-f]{32}"


def families(options: dict[str, Any]) -> list[Family]:
    queue = options["queue"]
    prefix = options["schedule_prefix"]
    return [
        family("taskiq-redis", f"taskiq queue {queue}", queue),
        family("taskiq-redis", "taskiq result", HEX32),
        family("taskiq-redis", "taskiq schedule", rf"{prefix}:{HEX32}"),
    ]


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    asyncio.run(_run(server, db, rng, options))


async def _run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    from taskiq import TaskiqScheduler
    from taskiq.receiver import Receiver
    from taskiq.scheduler.scheduled_task import ScheduledTask
    from taskiq_redis import ListQueueBroker, RedisAsyncResultBackend, RedisScheduleSource

    url = server.url(db)
    backend: Any = RedisAsyncResultBackend(url, result_ex_time=options["result_ex_time"])
    broker = ListQueueBroker(url, queue_name=options["queue"]).with_result_backend(backend)

    @broker.task(task_name="shop.send_email")
    async def send_email(user_id: int, template: str) -> str:
        return tasks.send_email(user_id, template)

    @broker.task(task_name="shop.resize_image")
    async def resize_image(path: str, width: int) -> dict[str, object]:
        return tasks.resize_image(path, width)

    await broker.startup()
    sent = []
    for _ in range(options["messages"]):
        if rng.random() < 0.5:
            sent.append(await send_email.kiq(args.user_id(rng), args.template(rng, rng.random() < 0.05)))
        else:
            sent.append(await resize_image.kiq(args.image_path(rng), args.width(rng)))
    finished = asyncio.Event()
    receiver = Receiver(broker, run_startup=False, max_async_tasks=8, propagate_exceptions=False)
    # Receiver.listen() takes the event that ends it from taskiq 0.11.x on; older ones run until cancelled.
    takes_event = "finish_event" in inspect.signature(receiver.listen).parameters
    listening = asyncio.create_task(receiver.listen(finished) if takes_event else receiver.listen())
    for task in sent:
        await task.wait_result(timeout=120)
    if takes_event:
        finished.set()
        await asyncio.wait_for(listening, 30)
    else:
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listening
    for _ in range(20):
        await resize_image.kiq(args.image_path(rng), args.width(rng))

    source = RedisScheduleSource(url, prefix=options["schedule_prefix"])
    scheduler = TaskiqScheduler(broker, sources=[source])
    for hour in range(12):
        schedule = ScheduledTask(
            task_name="shop.send_email",
            labels={},
            args=[args.user_id(rng), "weekly-digest"],
            kwargs={},
            cron=f"0 {hour} * * *",
        )
        await source.add_schedule(schedule)
    del scheduler
    await source.shutdown()
    await broker.shutdown()
