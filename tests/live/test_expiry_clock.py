"""A live key's absolute expiry is taken on the clock of the round trip that carried its PTTL.

Keys an application gave one EXPIREAT second stay in that second however long the key's later probes (a
string's length comes back one round trip later) or the work between round trips take: the scan below
pauses 1.2 s after each of its first round trips, between some keys' PTTL and their length, and every key
still falls into the second it was given (TTL002 counts all of them in it and names that second).
"""

from __future__ import annotations

import time

from rediscipline.api import LiveScanOptions, scan_live, settings_for
from rediscipline.settings.loader import Overrides
from tests.support.kinds import require_kind
from tests.support.servers import start_server

KEYS = 150
PAUSES = 3


def test_keys_of_one_expireat_second_stay_in_it_when_the_scan_pauses() -> None:
    require_kind("redis70")
    cliff = int(time.time()) + 2 * 86_400
    paused: list[int] = []

    def pause(listed: int, _total: int) -> None:
        if len(paused) < PAUSES:
            paused.append(listed)
            time.sleep(1.2)

    settings = settings_for(Overrides(isolated=True, select=("TTL002", "VAL001")))  # VAL001: a second probe stage
    with start_server("redis70") as server:
        with server.client() as client:
            pipe = client.pipeline(transaction=False)
            for index in range(KEYS):
                pipe.set(b"promo:coupon:%d" % index, b"c")
                pipe.expireat(b"promo:coupon:%d" % index, cliff)
            pipe.execute()
        report = scan_live(LiveScanOptions(server.url, batch=50), settings, progress=pause)
    assert len(paused) == PAUSES
    [finding] = [f for f in report.findings if f.rule_id == "TTL002"]
    assert (finding.code, finding.pattern, finding.count) == ("same-second", b"promo:coupon:*", KEYS)
    assert time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(cliff)) in finding.message.en
