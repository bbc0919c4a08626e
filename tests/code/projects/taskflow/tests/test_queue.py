"""Queue with a mocked redis-py, the Lua helper with a stub client, and the admin commands on a real server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from unittest import mock
from unittest.mock import MagicMock

import pytest
from taskflow import admin
from taskflow.connection import Scripts
from taskflow.queue import Queue

PORT = int(os.environ.get("REDIS_PORT", "6379"))


def test_enqueue_sends_one_pipeline() -> None:
    with mock.patch("taskflow.queue.redis.Redis") as redis_cls:
        q = Queue("emails")
        job_id = q.enqueue("send", "a@example.com")
        pipe = redis_cls.return_value.pipeline.return_value
        pipe.lpush.assert_called_once_with("queue:emails", job_id)
        pipe.execute.assert_called_once_with()


def test_dequeue_timeout_is_passed_through() -> None:
    with mock.patch("taskflow.queue.redis.Redis") as redis_cls:
        redis_cls.return_value.brpop.return_value = None
        assert Queue("emails").dequeue(timeout=2) is None
        redis_cls.return_value.brpop.assert_called_once_with("queue:emails", timeout=2)


def test_scripts_helper_runs_registered_scripts() -> None:
    client = MagicMock()
    helper = Scripts(client)
    helper.eval("claim", keys=["job:1"], args=["w1"])
    client.register_script.return_value.assert_called_with(keys=["job:1"], args=["w1"])
    client.eval.assert_not_called()


@pytest.fixture
def queue() -> Iterator[Queue]:
    q = Queue("test_admin", port=PORT)
    yield q
    q.connection.delete("queue:test_admin")  # error: CMD008


def test_requeue_all(queue: Queue) -> None:
    dead = Queue("test_dead", port=PORT)
    dead.enqueue("send", "x")
    assert admin.requeue_all(dead, queue) == 1
    assert queue.size() == 1
    assert queue.pending() == queue.peek()
    dead.clear_gently()
