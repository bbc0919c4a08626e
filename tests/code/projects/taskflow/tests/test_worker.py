"""The worker and the scheduler against a real Redis (REDIS_PORT), one empty database per test."""

from __future__ import annotations

import os
import time

import redis
from taskflow.queue import Queue
from taskflow.scheduler import Tiger
from taskflow.worker import REGISTRY, Worker, pause, resume

PORT = int(os.environ.get("REDIS_PORT", "6379"))


class BaseTest:
    def setup_method(self) -> None:
        self.tiger = Tiger(connection=redis.Redis(port=PORT, decode_responses=True))
        self.conn = self.tiger.connection
        self.conn.flushdb()  # error: CMD002
        self.queue = Queue("emails", port=PORT)

    def teardown_method(self) -> None:
        self.conn.close()


class TestWorker(BaseTest):
    def test_heartbeat(self) -> None:
        worker = Worker([self.queue], self.tiger, name="w1")
        worker.heartbeat()
        assert 0 < self.conn.ttl("worker:heartbeat:w1") <= 30

    def test_runs_a_job(self) -> None:
        REGISTRY["add"] = lambda a, b: a + b
        job_id = self.queue.enqueue("add", 1, 2)
        worker = Worker([self.queue], self.tiger, name="w1")
        assert worker.work_once(timeout=1)
        assert self.conn.get(f"result:{job_id}") == "3"
        day = time.strftime("%Y%m%d")
        assert self.conn.hgetall(f"stats:emails:{day}") == {"ok": "1", "total": "1"}  # error: CMD005

    def test_pause(self) -> None:
        pause(self.queue)
        worker = Worker([self.queue], self.tiger)
        assert worker.paused(self.queue)
        resume(self.queue)
        assert not worker.paused(self.queue)


class TestScheduler(BaseTest):
    def test_schedule_and_move(self) -> None:
        self.tiger.schedule(self.queue, "add", at=time.time() - 1)
        assert len(self.conn.zrange("schedule:due", 0, -1)) == 1  # error: CMD005
        assert self.tiger.move_due() == 1
        assert self.conn.llen("queue:scheduled") == 1
        assert len(self.conn.keys("job:*")) == 1  # error: CMD001

    def test_periodic_lock(self) -> None:
        assert self.tiger.run_periodic("cleanup", every=60)
        assert not self.tiger.run_periodic("cleanup", every=60)
        assert self.tiger.purge_locks() == 1
