"""Where to connect to a cluster node: the address it announces, or the one `--map HOST:PORT=HOST:PORT` gives
for it (NAT, containers, a tunnel: the announced address is not reachable from where the scan runs)."""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping, Sequence

from rediscipline.model.cluster import ClusterNode
from rediscipline.model.display import display_text
from rediscipline.sources.errors import SourceError

AddressMap = dict[tuple[str, int], tuple[str, int]]

_ADDRESS = re.compile(r"\[(?P<ipv6>[0-9A-Za-z:.%_-]+)\]:(?P<port6>\d{1,5})|(?P<host>[^\s:\[\]=]+):(?P<port>\d{1,5})")


def parse_address_map(entries: Sequence[str]) -> AddressMap:
    """`--map HOST:PORT=HOST:PORT` entries: the address a node announces, and the one to connect to instead
    (for NAT and containers). An IPv6 address goes in brackets (`[::1]:7000`); hosts are compared as
    `normal_host` writes them."""
    address_map: AddressMap = {}
    for entry in entries:
        pair = map_entry(entry)
        if pair is None:
            raise SourceError(
                f"--map {_quoted(entry)}: expected HOST:PORT=HOST:PORT, an IPv6 address in brackets ([::1]:7000)"
            )
        source, target = pair
        if address_map.get(source, target) != target:
            raise SourceError(f"--map {_quoted(entry)}: {_quoted(entry.partition('=')[0])} is mapped twice")
        address_map[source] = target
    return address_map


def map_entry(entry: str) -> tuple[tuple[str, int], tuple[str, int]] | None:
    """One `HOST:PORT=HOST:PORT` entry as (announced, reached) addresses, hosts in `normal_host` form; None
    when it is not one."""
    announced, sep, reached = entry.partition("=")
    source, target = _address(announced), _address(reached)
    if not sep or source is None or target is None:
        return None
    return source, target


def mapped(
    node: ClusterNode, address_map: Mapping[tuple[str, int], tuple[str, int]], *, tls: bool = False
) -> tuple[str, int]:
    """Where to connect to `node`: its announced host and port (its TLS port when `tls` and it announces
    one), or what `--map` maps that address to."""
    port = node.tls_port if tls and node.tls_port is not None else node.port
    announced = (normal_host(node.host), port)
    return address_map.get(announced, (node.host, port))


def normal_host(host: str) -> str:
    """An IP address in its canonical form (`::1`, not `0:0::1`), a host name in lower case."""
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        return host.lower()


def _address(text: str) -> tuple[str, int] | None:
    match = _ADDRESS.fullmatch(text.strip())
    if match is None:
        return None
    if match["ipv6"] is not None:
        host, port = match["ipv6"], int(match["port6"])
        try:
            ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError:
            return None
    else:
        host, port = match["host"], int(match["port"])
    return (normal_host(host), port) if 0 < port < 65536 else None


def _quoted(text: str) -> str:
    return "'" + display_text(text, 120) + "'"
