"""Observe what a live server is sent: one window over its own statistics, judged by the command and traffic
rules (`sources.traffic`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rediscipline.api.defaults import baseline_at, settings_for
from rediscipline.api.driver import run
from rediscipline.model.report import Report
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.sources.traffic.cluster import open_traffic
from rediscipline.sources.traffic.defaults import DEFAULT_DURATION, MAX_DURATION
from rediscipline.sources.traffic.queues import declared_queues
from rediscipline.sources.traffic.source import TrafficOptions

__all__ = ["DEFAULT_DURATION", "MAX_DURATION", "TrafficOptions", "observe_traffic"]


def observe_traffic(
    options: TrafficOptions,
    settings: Settings | None = None,
    *,
    registry: Registry | None = None,
    baseline: Path | None = None,
) -> Report:
    """Observe the server `options.url` names for `options.duration` seconds and report on what it was sent
    (every master of its cluster, when it is a cluster node).
    `baseline`: hide the findings recorded in this file."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    declared = declared_queues(settings.namespaces)
    source = open_traffic(replace(options, queues=options.queues + declared))
    return run([source], settings, command="traffic", registry=registry, baseline=baseline_at(baseline))
