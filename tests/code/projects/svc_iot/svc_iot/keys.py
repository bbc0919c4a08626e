"""Key builders of the telemetry service.

Every per-device key carries the device id as a hashtag (`{device_id}`): the shadow, the
streams and the rollups of one device live on one cluster slot.
"""

from __future__ import annotations


def shadow(device_id: str) -> str:
    """Hash of the last reported state."""
    return f"device:{{{device_id}}}:shadow"


def last_seen(device_id: str) -> str:
    return f"device:{{{device_id}}}:last_seen"


def command_queue(device_id: str) -> str:
    """List of downlink commands waiting for the device."""
    return f"device:{{{device_id}}}:commands"


def readings(device_id: str, day: str) -> str:
    """Stream of one day's readings (day is YYYYMMDD)."""
    return f"telemetry:{{{device_id}}}:date:{day}"


def minute_buckets(device_id: str, day: str) -> str:
    """Hash minute-of-day -> sum of values."""
    return f"rollup:{{{device_id}}}:minute:date:{day}"


def hourly(device_id: str, day: str) -> str:
    """Hash hour -> average value."""
    return f"rollup:{{{device_id}}}:hourly:date:{day}"


def fleet_devices(fleet_id: str) -> str:
    return f"fleet:devices:{fleet_id}"


def device_rate(device_id: str, window: int) -> str:
    return f"rate_limit:device:{device_id}:{window}"


def ingest_quota(tenant: str, day: str) -> str:
    return f"rate_limit:tenant:{tenant}:date:{day}"
