"""The Celery application of the celery workload, importable by the worker subprocess (`celery -A celery_app`).

Broker and result backend are the same Redis database, given in LIBKEYS_CELERY_URL; LIBKEYS_CELERY_OPTIONS
(JSON) carries the variant's settings: queue names, priority steps, a global key prefix, result_expires. The
queues are not declared in the configuration: celery creates them from the routes, as most applications do.
"""

from __future__ import annotations

import json
import os
from typing import Any

import queue_tasks as tasks
from celery import Celery

URL = os.environ.get("LIBKEYS_CELERY_URL", "redis://127.0.0.1:6379/0")
OPTIONS: dict[str, Any] = json.loads(os.environ.get("LIBKEYS_CELERY_OPTIONS", "{}"))
QUEUES: list[str] = OPTIONS.get("queues", ["high", "default", "reports"])

app = Celery("shop", broker=URL, backend=URL)
transport: dict[str, Any] = {"queue_order_strategy": "priority"}
if OPTIONS.get("priority_steps"):
    transport["priority_steps"] = OPTIONS["priority_steps"]
if OPTIONS.get("global_keyprefix"):
    transport["global_keyprefix"] = OPTIONS["global_keyprefix"]
backend_transport: dict[str, Any] = {}
if OPTIONS.get("global_keyprefix"):
    backend_transport["global_keyprefix"] = OPTIONS["global_keyprefix"]
app.conf.update(
    broker_transport_options=transport,
    result_backend_transport_options=backend_transport,
    result_expires=OPTIONS.get("result_expires", 86400),
    task_default_queue="default",
    task_routes={
        "shop.send_email": {"queue": QUEUES[0]},
        "shop.generate_report": {"queue": QUEUES[2]},
    },
    task_serializer="json",
    result_extended=bool(OPTIONS.get("result_extended", False)),
    worker_hijack_root_logger=False,
    broker_connection_retry_on_startup=True,
)


@app.task(name="shop.send_email")
def send_email(user_id: int, template: str) -> str:
    return tasks.send_email(user_id, template)


@app.task(name="shop.resize_image")
def resize_image(path: str, width: int) -> dict[str, object]:
    return tasks.resize_image(path, width)


@app.task(name="shop.generate_report")
def generate_report(account_id: int, month: str) -> dict[str, object]:
    return tasks.generate_report(account_id, month)


@app.task(name="shop.sync_inventory", ignore_result=True)
def sync_inventory(sku: str, quantity: int) -> int:
    return tasks.sync_inventory(sku, quantity)


@app.task(name="shop.add")
def add(left: int, right: int) -> int:
    return tasks.add(left, right)


@app.task(name="shop.total")
def total(values: list[int]) -> int:
    return tasks.total(values)
