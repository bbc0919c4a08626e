"""huey: three applications sharing a database (RedisHuey, PriorityRedisHuey, RedisExpireHuey).

Tasks are enqueued and executed the way huey's consumer does (`huey.dequeue()` + `huey.execute()`), so results,
the schedule of delayed tasks, revocations, stored values (`huey.put`) and task locks are written by huey
itself. Some results are read back (huey then deletes them), others wait; a task lock is held while the
keyspace is read, as a long-running task would hold it.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from typing import Any

import queue_tasks as tasks
import sample_args as args
from queue_common import Family, Server, family

LIBRARIES = ("huey",)

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {"apps": ("shop", "media", "notifications"), "expire_time": 86400, "tasks": 700},
    "b": {"apps": ("webapp", "thumbnails", "mailer"), "expire_time": 3600, "tasks": 760},
}

TASK_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def families(options: dict[str, Any]) -> list[Family]:
    plain, priority, expiring = (name.replace(".", r"\.") for name in options["apps"])
    rows = []
    for app in (plain, priority):
        rows += [
            family("huey", f"huey queue {app}", rf"huey\.redis\.{app}"),
            family("huey", f"huey schedule {app}", rf"huey\.schedule\.{app}"),
            family("huey", f"huey results {app}", rf"huey\.results\.{app}"),
            family("huey", f"huey counters {app}", rf"huey\.counters\.{app}"),
        ]
    rows += [
        family("huey", f"huey queue {expiring}", rf"huey\.redis\.{expiring}"),
        family("huey", f"huey schedule {expiring}", rf"huey\.schedule\.{expiring}"),
        family("huey", f"huey expiring result {expiring}", rf"huey\.r\.{expiring}\.{TASK_ID}"),
        family(
            "huey", f"huey expiring stored value {expiring}", rf"huey\.r\.{expiring}\.(?:import-status|last-digest)"
        ),
        family(
            "huey", f"huey expiring task lock {expiring}", rf"huey\.r\.{expiring}\.(?:{expiring}|huey)\.lock\.[a-z-]+"
        ),
        family("huey", f"huey expiring revoked task {expiring}", rf"huey\.r\.{expiring}\.r:{TASK_ID}"),
    ]
    return rows


def _drain(huey: Any, limit: int) -> None:
    """What huey's consumer does per task: dequeue, then execute (which stores the result or schedules)."""
    for _ in range(limit):
        task = huey.dequeue()
        if task is None:
            return
        huey.execute(task)


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> Callable[[], None]:
    from huey import PriorityRedisHuey, RedisExpireHuey, RedisHuey
    from huey.exceptions import TaskException

    connection = {"host": "127.0.0.1", "port": server.port, "db": db}
    plain_name, priority_name, expiring_name = options["apps"]
    shop = RedisHuey(plain_name, **connection)
    media = PriorityRedisHuey(priority_name, **connection)
    notify = RedisExpireHuey(expiring_name, expire_time=options["expire_time"], **connection)

    @shop.task()
    def generate_report(account_id: int, month: str) -> dict[str, object]:
        return tasks.generate_report(account_id, month)

    @shop.task(retries=1)
    def sync_inventory(sku: str, quantity: int) -> int:
        return tasks.sync_inventory(sku, quantity)

    @media.task(priority=5)
    def resize_image(path: str, width: int) -> dict[str, object]:
        return tasks.resize_image(path, width)

    @notify.task()
    def send_email(user_id: int, template: str) -> str:
        return tasks.send_email(user_id, template)

    @notify.task()
    def import_catalog(supplier: str) -> str:
        with notify.lock_task("import-catalog"):
            return supplier

    kept = []
    for _ in range(options["tasks"]):
        pick = rng.random()
        if pick < 0.3:
            kept.append(generate_report(rng.randint(1, 5000), args.month(rng)))
        elif pick < 0.45:
            sync_inventory(args.sku(rng), rng.randint(-2, 40))
        elif pick < 0.6:
            kept.append(resize_image(args.image_path(rng), args.width(rng), priority=rng.choice((0, 5, 10))))
        else:
            kept.append(send_email(args.user_id(rng), args.template(rng, rng.random() < 0.05)))
    for _ in range(3):
        import_catalog(rng.choice(("acme", "globex", "initech")))
    for _ in range(20):
        generate_report.schedule((rng.randint(1, 5000), args.month(rng)), delay=rng.randint(600, 86400))
    for _ in range(15):
        send_email.schedule((args.user_id(rng), "weekly-digest"), delay=rng.randint(600, 86400))
    for _ in range(6):
        resize_image(args.image_path(rng), args.width(rng)).revoke()
        send_email(args.user_id(rng), "welcome").revoke()

    for huey in (shop, media, notify):
        _drain(huey, 10_000)
    for result in kept[: len(kept) // 3]:
        with contextlib.suppress(TaskException):
            result.get()
    notify.put("import-status", {"supplier": "acme", "rows": 1200})
    notify.put("last-digest", "2025-11-24")
    for _ in range(25):
        resize_image(args.image_path(rng), args.width(rng), priority=rng.choice((0, 10)))
        generate_report(rng.randint(1, 5000), args.month(rng))

    lock = notify.lock_task("nightly-export")
    lock.__enter__()

    def release() -> None:
        lock.__exit__(None, None, None)

    return release
