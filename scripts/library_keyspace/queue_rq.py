"""rq: jobs on several named queues, a burst SimpleWorker in-process, scheduled, dependent and failing jobs.

Jobs get rq's default ids (uuid4 hex with hyphens) except a few with ids an application picks (`invoice-<n>`,
`nightly-report-<month>`); some set result_ttl / failure_ttl. Two workers with different names drain the
queues in burst mode, so there are finished and failed registries, results and worker bookkeeping. Groups and
repeats are used when the installed rq has them (2.x and later).
"""

from __future__ import annotations

import importlib
import logging
import random
from datetime import timedelta
from typing import Any

import queue_tasks as tasks
import sample_args as args
from queue_common import Family, Server, family

LIBRARIES = ("rq",)

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {
        "queues": ("high", "default", "reports"),
        "result_ttl": 600,
        "failure_ttl": 3600,
        "jobs": 360,
        "worker_names": "web-1.<n>,reports-worker",
    },
    "b": {
        "queues": ("critical", "default", "exports"),
        "result_ttl": 86400,
        "failure_ttl": 604800,
        "jobs": 420,
        "worker_names": "rq default (uuid4 hex)",
    },
}

JOB_ID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|invoice-[0-9]+|nightly-report-[0-9]{4}-[0-9]{2}"


def families(options: dict[str, Any]) -> list[Family]:
    rows = [
        family("rq", "rq job", rf"rq:job:(?:{JOB_ID})"),
        family("rq", "rq job dependents", rf"rq:job:(?:{JOB_ID}):dependents"),
        family("rq", "rq job dependencies", rf"rq:job::?(?:{JOB_ID}):dependencies"),
        family("rq", "rq job executions", rf"rq:executions:(?:{JOB_ID})"),
        family("rq", "rq job results", rf"rq:results:(?:{JOB_ID})"),
        family("rq", "rq queues index", r"rq:queues"),
        family("rq", "rq workers index", r"rq:workers"),
        family("rq", "rq group", r"rq:group:[0-9a-f]{32}|rq:group:[a-z-]+-[0-9]{4}-[0-9]{2}"),
        family("rq", "rq groups index", r"rq:groups"),
        family("rq", "rq clean groups lock", r"rq:clean_groups"),
        family("rq", "rq worker", r"rq:worker:(?:web-1\.[0-9]{4}|reports-worker|[0-9a-f]{32})"),
        family("rq", "rq clean registries lock", r"rq:clean_registries:[a-z]+"),
        family("rq", "rq scheduler lock", r"rq:scheduler-lock:[a-z]+"),
    ]
    for queue in options["queues"]:
        rows += [
            family("rq", f"rq queue {queue}", rf"rq:queue:{queue}"),
            family("rq", f"rq workers of queue {queue}", rf"rq:workers:{queue}"),
            family("rq", f"rq finished registry {queue}", rf"rq:finished:{queue}"),
            family("rq", f"rq failed registry {queue}", rf"rq:failed:{queue}"),
            family("rq", f"rq started registry {queue}", rf"rq:wip:{queue}"),
            family("rq", f"rq deferred registry {queue}", rf"rq:deferred:{queue}"),
            family("rq", f"rq scheduled registry {queue}", rf"rq:scheduled:{queue}"),
            family("rq", f"rq canceled registry {queue}", rf"rq:canceled:{queue}"),
        ]
    return rows


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> None:
    from rq import Queue, SimpleWorker

    connection = server.client(db)
    names = options["queues"]
    queues = {name: Queue(name, connection=connection) for name in names}
    mail, media, reports = queues[names[0]], queues["default"], queues[names[2]]
    try:
        group_cls: Any = importlib.import_module("rq.group").Group
    except ImportError:
        group_cls = None

    for _ in range(options["jobs"]):
        pick = rng.random()
        if pick < 0.35:
            failing = rng.random() < 0.08
            mail.enqueue(tasks.send_email, args.user_id(rng), args.template(rng, failing))
        elif pick < 0.7:
            media.enqueue(tasks.resize_image, args.image_path(rng), args.width(rng), result_ttl=options["result_ttl"])
        elif pick < 0.85:
            quantity = rng.randint(-3, 40)
            media.enqueue(tasks.sync_inventory, args.sku(rng), quantity, failure_ttl=options["failure_ttl"])
        else:
            reports.enqueue(tasks.generate_report, rng.randint(1, 5000), args.month(rng))

    for _ in range(12):
        order = args.order_number(rng)
        mail.enqueue(tasks.send_email, args.user_id(rng), "invoice", job_id=f"invoice-{order}")
    for month in sorted({args.month(rng) for _ in range(6)}):
        reports.enqueue(tasks.generate_report, 1, month, job_id=f"nightly-report-{month}", result_ttl=-1)

    for _ in range(25):
        parent = reports.enqueue(tasks.generate_report, rng.randint(1, 5000), args.month(rng))
        mail.enqueue(tasks.send_email, args.user_id(rng), "invoice", depends_on=parent)
    for _ in range(30):
        delay = timedelta(minutes=rng.randint(5, 600))
        mail.enqueue_in(delay, tasks.send_email, args.user_id(rng), "weekly-digest")

    logging.getLogger("rq.worker").disabled = True
    first, second = list(queues.values()), list(reversed(queues.values()))
    named = options["worker_names"].startswith("web-1")
    first_name = f"web-1.{rng.randint(1000, 9999)}" if named else None
    SimpleWorker(first, connection=connection, name=first_name).work(burst=True, logging_level="WARNING")
    for _ in range(40):
        media.enqueue(tasks.resize_image, args.image_path(rng), args.width(rng), result_ttl=options["result_ttl"])
    for _ in range(15):
        mail.enqueue(tasks.send_email, args.user_id(rng), args.template(rng, True), failure_ttl=options["failure_ttl"])
    SimpleWorker(second, connection=connection, name="reports-worker" if named else None).work(
        burst=True, max_jobs=45, logging_level="WARNING"
    )

    for _ in range(20):
        media.enqueue(tasks.resize_image, args.image_path(rng), args.width(rng))
    for _ in range(8):
        parent = reports.enqueue(tasks.generate_report, rng.randint(1, 5000), args.month(rng))
        mail.enqueue(tasks.send_email, args.user_id(rng), "invoice", depends_on=parent)
    if group_cls is not None:
        for _ in range(6):
            group = group_cls.create(connection=connection)
            batch = [Queue.prepare_data(tasks.resize_image, (args.image_path(rng), args.width(rng))) for _ in range(5)]
            group.enqueue_many(queue=media, job_datas=batch)
