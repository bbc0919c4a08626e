"""What the traffic tests share: a workload thread on a connection of its own, and an observation through the
API with the view it gave."""

from __future__ import annotations

import threading
from collections.abc import Callable

import redis

from rediscipline.api.defaults import settings_for
from rediscipline.api.traffic import TrafficOptions, observe_traffic
from rediscipline.model.report import Report
from rediscipline.model.traffic import TrafficView
from rediscipline.settings.loader import Overrides
from tests.support.servers import ServerProcess


class Workload:
    """A thread sending `step` in a loop on its own connection until stopped; counts the loops."""

    def __init__(self, server: ServerProcess, step: Callable[[redis.Redis], None], name: str = "worker") -> None:
        self.client = redis.Redis(port=server.port, client_name=name)
        self.client.ping()  # connected (CLIENT SETNAME sent) before any window starts
        self.step = step
        self.loops = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.step(self.client)
            self.loops += 1

    def __enter__(self) -> Workload:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.client.close()


def observe(server: ServerProcess, seconds: float = 1.0) -> Report:
    settings = settings_for(Overrides(isolated=True))
    return observe_traffic(TrafficOptions(url=server.url, duration=seconds), settings)


def view_of(report: Report) -> TrafficView:
    assert len(report.stats.traffic) == 1
    return report.stats.traffic[0]


def calls_of(view: TrafficView) -> dict[str, int]:
    return {command.name: command.calls for command in view.commands}
