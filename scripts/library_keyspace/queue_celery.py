"""celery + kombu: Redis broker and Redis result backend, a real worker subprocess, groups, chords, ETA tasks.

The worker (`celery -A celery_app worker --pool=solo`, stopped by its PID after the keys are read) consumes the
mail and default queues; the reports queue is consumed by a worker that is not running at scan time, so it
holds a backlog, with message priorities spread over kombu's priority lists. Results are stored for every task
but the inventory sync (ignore_result); groups are saved; chords run through the Redis backend's counters;
tasks with a countdown sit in kombu's unacked hash while the worker holds them. The keyspace is read while the
worker still runs, as a production scan would see it.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sample_args as args
from queue_common import Family, Server, family

LIBRARIES = ("celery", "kombu")
HERE = Path(__file__).resolve().parent

OPTIONS: dict[str, dict[str, Any]] = {
    "a": {"queues": ("high", "default", "reports"), "priority_steps": "", "global_keyprefix": "", "tasks": 400},
    "b": {
        "queues": ("mail", "default", "analytics"),
        "priority_steps": (0, 2, 4, 6, 8),
        "global_keyprefix": "shop:",
        "result_expires": 7200,
        "result_extended": True,
        "tasks": 450,
    },
}

UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


def families(options: dict[str, Any]) -> list[Family]:
    prefix = options["global_keyprefix"].replace(".", r"\.")
    # celery's result backend joins the global prefix to its own with "_"; kombu prepends it as it is.
    results = f"{prefix}_" if prefix else ""
    rows = [
        family("celery", "celery task result", rf"{results}celery-task-meta-{UUID}"),
        family("celery", "celery group result", rf"{results}celery-taskset-meta-{UUID}"),
        family("celery", "celery chord counter", rf"{results}celery-taskset-meta-{UUID}\.[jt]"),
        family("kombu", "kombu unacked messages", rf"{prefix}unacked"),
        family("kombu", "kombu unacked index", rf"{prefix}unacked_index"),
        family("kombu", "kombu unacked mutex", rf"{prefix}unacked_mutex"),
        family("kombu", "kombu binding celery.pidbox", rf"{prefix}_kombu\.binding\.celery\.pidbox"),
        family("kombu", "kombu binding reply.celery.pidbox", rf"{prefix}_kombu\.binding\.reply\.celery\.pidbox"),
        family("kombu", "kombu binding celeryev", rf"{prefix}_kombu\.binding\.celeryev"),
        family("kombu", "kombu pidbox reply queue", rf"{prefix}{UUID}\.reply\.celery\.pidbox"),
    ]
    for queue in options["queues"]:
        rows += [
            family("kombu", f"kombu binding {queue}", rf"{prefix}_kombu\.binding\.{queue}"),
            family("kombu", f"kombu queue {queue}", rf"{prefix}{queue}"),
            family("kombu", f"kombu priority queue {queue}", rf"{prefix}{queue}\x06\x16[0-9]"),
        ]
    return rows


def run(server: Server, db: int, rng: random.Random, options: dict[str, Any]) -> Callable[[], None]:
    settings = {key: value for key, value in options.items() if value not in ("", None)}
    os.environ["LIBKEYS_CELERY_URL"] = server.url(db)
    os.environ["LIBKEYS_CELERY_OPTIONS"] = json.dumps(settings)
    shop = importlib.import_module("celery_app")
    from celery import chord, group

    mail_queue, default_queue = options["queues"][:2]
    env = dict(os.environ, PYTHONPATH=str(HERE))
    command = [sys.executable, "-m", "celery", "-A", "celery_app", "worker", "--pool=solo", "--loglevel=WARNING"]
    command += ["-Q", f"{mail_queue},{default_queue}", "-n", "celery@web-1"]
    worker = subprocess.Popen(command, cwd=HERE, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop() -> None:
        pending = shop.app.backend._pending_results
        pending.concrete.clear()
        gc.collect()
        shop.app.close()
        if worker.poll() is None:
            os.kill(worker.pid, signal.SIGTERM)
            try:
                worker.wait(30)
            except subprocess.TimeoutExpired:
                os.kill(worker.pid, signal.SIGKILL)
                worker.wait(10)

    try:
        _wait_ready(shop.app, worker)
        results = []
        for _ in range(options["tasks"]):
            pick = rng.random()
            if pick < 0.35:
                results.append(shop.send_email.delay(args.user_id(rng), args.template(rng, rng.random() < 0.05)))
            elif pick < 0.65:
                results.append(shop.resize_image.apply_async((args.image_path(rng), args.width(rng))))
            elif pick < 0.8:
                shop.sync_inventory.delay(args.sku(rng), rng.randint(-2, 40))
            else:
                priority = rng.choice((0, 0, 3, 6, 9)) if "priority_steps" not in settings else rng.randint(0, 9)
                shop.generate_report.apply_async((rng.randint(1, 5000), args.month(rng)), priority=priority)
        for _ in range(6):
            batch = group(shop.add.s(rng.randint(1, 99), rng.randint(1, 99)) for _ in range(8))()
            batch.save()
            results.append(batch)
        for _ in range(4):
            results.append(chord(shop.add.s(rng.randint(1, 99), rng.randint(1, 99)) for _ in range(6))(shop.total.s()))
        for result in results:
            result.get(timeout=120, propagate=False)
        results.clear()
        gc.collect()
        for _ in range(25):
            countdown = rng.randint(600, 7200)
            shop.send_email.apply_async((args.user_id(rng), "weekly-digest"), countdown=countdown)
        shop.app.control.inspect(timeout=1.0).active()
        _wait_unacked(shop.app, 25)
    except BaseException:
        stop()
        raise
    return stop


def _wait_ready(app: Any, worker: subprocess.Popen[bytes], timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise RuntimeError(f"celery worker exited with {worker.returncode}")
        if app.control.inspect(timeout=1.0).ping():
            return
    raise RuntimeError("celery worker did not answer ping")


def _wait_unacked(app: Any, expected: int, timeout: float = 60.0) -> None:
    """Until the worker holds the countdown tasks (reserved/scheduled), so the scan sees them unacked."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        scheduled = app.control.inspect(timeout=1.0).scheduled() or {}
        if sum(len(items) for items in scheduled.values()) >= expected:
            return
        time.sleep(0.5)
    raise RuntimeError("celery worker did not take the countdown tasks")
