"""dramatiq: RedisBroker with the Results middleware on the Redis backend, an in-process Worker, delays, a DLQ.

Actors on several queues store their results; an actor without retries fails some messages, which go to the
dead-letter queue; delayed messages wait in the delay queues. The keyspace is read while the worker still runs
(its heartbeat and ack sets exist then), and the worker is stopped afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import queue_tasks as tasks
import sample_args as args
from queue_common import Family, Server, family

LIBRARIES = ("dramatiq",)

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {"namespace": "dramatiq", "queues": ("default", "emails", "reports"), "result_ttl": 600000, "messages": 500},
    "b": {
        "namespace": "shop-tasks",
        "queues": ("default", "mailers", "exports"),
        "result_ttl": 86400000,
        "messages": 560,
    },
}


def families(options: dict[str, Any]) -> list[Family]:
    space = options["namespace"].replace(".", r"\.")
    rows = [
        family("dramatiq", "dramatiq result", r"[0-9a-f]{32}"),
        family("dramatiq", "dramatiq worker heartbeats", rf"{space}:__heartbeats__"),
    ]
    for queue in options["queues"]:
        rows += [
            family("dramatiq", f"dramatiq queue {queue}", rf"{space}:{queue}"),
            family("dramatiq", f"dramatiq queue messages {queue}", rf"{space}:{queue}\.msgs"),
            family("dramatiq", f"dramatiq delay queue {queue}", rf"{space}:{queue}\.DQ"),
            family("dramatiq", f"dramatiq delay queue messages {queue}", rf"{space}:{queue}\.DQ\.msgs"),
            family("dramatiq", f"dramatiq dead letters {queue}", rf"{space}:{queue}\.XQ"),
            family("dramatiq", f"dramatiq dead letter messages {queue}", rf"{space}:{queue}\.XQ\.msgs"),
            family(
                "dramatiq",
                f"dramatiq worker acks {queue}",
                rf"{space}:__acks__\.[0-9a-f]{{8}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{4}}-[0-9a-f]{{12}}\.{queue}(?:\.DQ)?",
            ),
        ]
    return rows


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> Callable[[], None]:
    import dramatiq
    from dramatiq.brokers.redis import RedisBroker
    from dramatiq.results import Results
    from dramatiq.results.backends import RedisBackend

    broker = RedisBroker(url=server.url(db), namespace=options["namespace"])
    backend = RedisBackend(url=server.url(db))
    broker.add_middleware(Results(backend=backend))
    dramatiq.set_broker(broker)
    default, mail_queue, report_queue = options["queues"]
    ttl = options["result_ttl"]

    @dramatiq.actor(queue_name=mail_queue, store_results=True, max_retries=0, result_ttl=ttl)
    def send_email(user_id: int, template: str) -> str:
        return tasks.send_email(user_id, template)

    @dramatiq.actor(queue_name=default, store_results=True, result_ttl=ttl)
    def resize_image(path: str, width: int) -> dict[str, object]:
        return tasks.resize_image(path, width)

    @dramatiq.actor(queue_name=report_queue, store_results=True)
    def generate_report(account_id: int, month: str) -> dict[str, object]:
        return tasks.generate_report(account_id, month)

    @dramatiq.actor(queue_name=default, max_retries=0)
    def sync_inventory(sku: str, quantity: int) -> int:
        return tasks.sync_inventory(sku, quantity)

    worker = dramatiq.Worker(broker, worker_threads=2, worker_timeout=100)
    worker.start()

    def stop() -> None:
        worker.stop()
        broker.close()

    try:
        for _ in range(options["messages"]):
            pick = rng.random()
            if pick < 0.35:
                send_email.send(args.user_id(rng), args.template(rng, rng.random() < 0.05))
            elif pick < 0.7:
                resize_image.send(args.image_path(rng), args.width(rng))
            elif pick < 0.85:
                sync_inventory.send(args.sku(rng), rng.randint(-3, 40))
            else:
                generate_report.send(rng.randint(1, 5000), args.month(rng))
        for queue in options["queues"]:
            broker.join(queue, timeout=120_000)
        for _ in range(30):
            delay = rng.randint(10, 600) * 60_000
            send_email.send_with_options(args=(args.user_id(rng), "weekly-digest"), delay=delay)
        for _ in range(10):
            delay = rng.randint(60, 240) * 60_000
            generate_report.send_with_options(args=(rng.randint(1, 5000), args.month(rng)), delay=delay)
    except BaseException:
        stop()
        raise
    return stop
