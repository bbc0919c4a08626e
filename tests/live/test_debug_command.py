"""DEBUG is refused to every client while `enable-debug-command` is no (the default since Redis 7.0), although
ACL DRYRUN answers OK for it: the live source must not report it as callable (SEC001)."""

from __future__ import annotations

from rediscipline.model.location import SOURCE_LIVE, Location
from rediscipline.sources.live.connection import open_connection
from rediscipline.sources.live.server import read_server
from rediscipline.sources.live.url import parse_address
from rediscipline.sources.live.wire import Wire
from tests.live.conftest import connect
from tests.support.servers import ServerProcess


def test_debug_is_not_callable_when_the_server_disables_it(redis70: ServerProcess) -> None:
    client = connect(redis70)
    try:
        assert client.config_get("enable-debug-command") == {"enable-debug-command": "no"}
        assert client.execute_command("ACL", "DRYRUN", "default", "debug", "sleep", "0") == b"OK"
    finally:
        client.close()
    connection = open_connection(parse_address(redis70.url), timeout=5)
    try:
        server = read_server(Wire(connection), Location(SOURCE_LIVE, redis70.url))
    finally:
        connection.disconnect()
    assert server.callable["debug"] is False
    assert server.callable["keys"] is True
