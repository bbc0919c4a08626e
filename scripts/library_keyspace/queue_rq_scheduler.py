"""rq-scheduler: jobs scheduled at a time, after a delay, at an interval and by cron, and one scheduler pass.

rq-scheduler keeps its schedule in one sorted set and the jobs as rq job hashes; a burst run of the scheduler
moves the jobs that are due onto their rq queues. The job hashes and queues are rq's own key formats, so they
are labelled as rq's (rq's own workload uses other queue names, so no key is written by both).
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Any

import queue_tasks as tasks
import sample_args as args
from queue_common import Family, Server, family

LIBRARIES = ("rq-scheduler", "rq")

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {"queues": ("maintenance", "billing"), "interval": 3600, "jobs": 240},
    "b": {"queues": ("nightly", "invoices"), "interval": 900, "jobs": 260},
}

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def families(options: dict[str, Any]) -> list[Family]:
    rows = [
        family("rq-scheduler", "rq-scheduler scheduled jobs", r"rq:scheduler:scheduled_jobs"),
        family("rq-scheduler", "rq-scheduler lock", r"rq:scheduler_lock"),
        family("rq-scheduler", "rq-scheduler instance", r"rq:scheduler_instance:[0-9a-f]{32}"),
        family("rq", "rq job", rf"rq:job:{UUID}"),
        family("rq", "rq queues index", r"rq:queues"),
    ]
    for queue in options["queues"]:
        rows.append(family("rq", f"rq queue {queue}", rf"rq:queue:{queue}"))
    return rows


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    from rq_scheduler import Scheduler

    connection = server.client(db)
    first, second = options["queues"]
    scheduler = Scheduler(queue_name=first, connection=connection)
    reports = Scheduler(queue_name=second, connection=connection)
    now = datetime.now(timezone.utc).replace(tzinfo=None)
    for _ in range(options["jobs"]):
        pick = rng.random()
        if pick < 0.4:
            when = now + timedelta(minutes=rng.randint(5, 3000))
            scheduler.enqueue_at(when, tasks.send_email, args.user_id(rng), "weekly-digest")
        elif pick < 0.75:
            scheduler.enqueue_in(timedelta(minutes=rng.randint(1, 600)), tasks.resize_image, args.image_path(rng), 256)
        elif pick < 0.9:
            when = now - timedelta(seconds=rng.randint(1, 60))
            reports.enqueue_at(when, tasks.generate_report, rng.randint(1, 5000), args.month(rng))
        else:
            reports.schedule(now, tasks.sync_inventory, args=(args.sku(rng), 5), interval=options["interval"])
    for hour in range(8):
        reports.cron(f"0 {hour} * * *", tasks.generate_report, args=(1, args.month(rng)), queue_name=second)
    reports.run(burst=True)
