"""Device shadows: the last reported state of each device, one hash per device.

The MQTT bridge calls `report` for every state message; dashboards read a handful of
fields. A device silent for 30 days loses its shadow and re-registers on reconnect.
"""

from __future__ import annotations

import time

from redis.cluster import RedisCluster

from svc_iot import keys
from svc_iot.clients import cluster

SHADOW_TTL = 30 * 24 * 3600
LAST_SEEN_TTL = 2 * 24 * 3600
SHADOW_FIELDS = ("firmware", "battery", "rssi", "status", "reported_at")


class ShadowStore:
    def __init__(self, client: RedisCluster = cluster) -> None:
        self.cache = client

    def report(self, device_id: str, state: dict[str, str]) -> None:
        key = keys.shadow(device_id)
        now = int(time.time())
        pipe = self.cache.pipeline()
        pipe.hset(key, mapping={**state, "reported_at": now})
        pipe.expire(key, SHADOW_TTL)
        pipe.set(keys.last_seen(device_id), now, ex=LAST_SEEN_TTL)
        pipe.execute()

    def get(self, device_id: str) -> dict[str, bytes | None]:
        values = self.cache.hmget(keys.shadow(device_id), SHADOW_FIELDS)
        return dict(zip(SHADOW_FIELDS, values, strict=True))

    def full_state(self, device_id: str) -> dict[bytes, bytes]:
        """Support page: every field the device ever reported."""
        return self.cache.hgetall(keys.shadow(device_id))  # error: CMD005

    def reported_values(self, device_id: str) -> list[bytes]:
        return self.cache.hvals(keys.shadow(device_id))  # error: CMD005

    def mark_offline(self, device_id: str) -> None:
        """The broker's last-will message for the device lands here."""
        self.cache.hset(keys.shadow(device_id), "status", "offline")  # error: TTL006

    def last_seen_many(self, device_ids: list[str]) -> list[bytes | None]:
        """Fleet page, 50 devices per page; the client splits the read per slot."""
        return self.cache.mget_nonatomic([keys.last_seen(device_id) for device_id in device_ids[:50]])

    def import_last_seen(self, seen: dict[str, int]) -> None:
        """Migration from the old MQTT bridge: last-seen times of every device it knew."""
        pipe = self.cache.pipeline()
        for device_id, seen_at in seen.items():
            pipe.set(keys.last_seen(device_id), seen_at, ex=LAST_SEEN_TTL)  # error: TTL007
        pipe.execute()

    def firmware_target(self, device_id: str) -> bytes | None:
        """The firmware version the OTA service wants this device on."""
        return self.cache.get(f"device:{{{device_id}}}:Firmware")  # error: KEY006

    def last_reading(self, device_id: str) -> bytes | None:
        return self.cache.get(f"device:{{{device_id}}}:lastReading")  # error: KEY007

    def calibration(self, device_id: str) -> bytes | None:
        """Written once by the factory line; read at every restart."""
        key = f"device:{{{device_id}}}:calibration_coefficients_from_factory_acceptance_test"
        return self.cache.get(key)  # error: KEY005, KEY015

    # ---- fleets ----------------------------------------------------------------------------------

    def enroll(self, fleet_id: str, device_id: str) -> None:
        self.cache.sadd(keys.fleet_devices(fleet_id), device_id)

    def enroll_from_v1(self, fleet_id: str, device_ids: list[str]) -> None:
        """Fleets exported from the v1 registry keep their old key for now."""
        self.cache.sadd(f"fleet:devices:list:{fleet_id}", *device_ids)  # error: KEY016

    def fleet_page(self, fleet_id: str, cursor: int = 0) -> tuple[int, list[bytes]]:
        next_cursor, members = self.cache.sscan(keys.fleet_devices(fleet_id), cursor=cursor, count=200)
        return int(next_cursor), list(members)

    def fleet_members(self, fleet_id: str) -> set[bytes]:
        """Used by the bulk-command tool."""
        return self.cache.smembers(keys.fleet_devices(fleet_id))  # error: CMD005

    def decommission_fleet(self, fleet_id: str) -> None:
        self.cache.delete(keys.fleet_devices(fleet_id))  # error: CMD008
