"""celery-redbeat: a Celery beat schedule kept in Redis (static entries from beat_schedule and dynamic ones).

The scheduler takes its distributed lock the way `celery beat` does at start (redbeat's beat_init handler,
given the scheduler) and ticks once, so due entries are sent and the schedule is rewritten.
"""

from __future__ import annotations

import random
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

from queue_common import Family, Server, family

LIBRARIES = ("celery-redbeat", "celery")

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {"key_prefix": "redbeat:", "entries": 220},
    "b": {"key_prefix": "shop-beat:", "entries": 260},
}


def families(options: dict[str, Any]) -> list[Family]:
    prefix = options["key_prefix"]
    return [
        family(
            "celery-redbeat",
            "redbeat entry",
            rf"{prefix}(?:report-account-[0-9]+|digest-[a-z]+|cleanup-[a-z-]+|celery\.backend_cleanup)",
        ),
        family("celery-redbeat", "redbeat schedule", rf"{prefix}:schedule"),
        family("celery-redbeat", "redbeat statics", rf"{prefix}:statics"),
        family("celery-redbeat", "redbeat lock", rf"{prefix}:lock"),
    ]


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    from celery import Celery
    from celery.schedules import crontab
    from redbeat import RedBeatScheduler, RedBeatSchedulerEntry
    from redbeat.schedulers import acquire_distributed_beat_lock

    app = Celery("shop-beat", broker=server.url(db))
    app.conf.update(
        redbeat_redis_url=server.url(db),
        redbeat_key_prefix=options["key_prefix"],
        beat_schedule={
            "cleanup-sessions": {"task": "shop.cleanup", "schedule": timedelta(hours=1)},
            "cleanup-uploads": {"task": "shop.cleanup", "schedule": crontab(minute=0, hour=4)},
        },
    )
    for _ in range(options["entries"]):
        account = rng.randint(1, 50_000)
        schedule = crontab(minute=rng.randint(0, 59), hour=rng.randint(0, 23))
        entry = RedBeatSchedulerEntry(
            f"report-account-{account}", "shop.generate_report", schedule, args=[account], app=app
        )
        entry.save()
    for name in ("daily", "weekly", "monthly"):
        RedBeatSchedulerEntry(f"digest-{name}", "shop.send_digest", timedelta(days=1), app=app).save()
    scheduler = RedBeatScheduler(app=app, lock_timeout=300)
    acquire_distributed_beat_lock(SimpleNamespace(scheduler=scheduler))
    scheduler.tick()
