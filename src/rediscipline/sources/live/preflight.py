"""Decide what a live scan will cover before the first SCAN, and refuse what cannot be scanned.

A database the server does not have (`--db 99`, `redis://host/99`, `--resume 99:0`) is an error naming the
server's range, not an empty report; a replica that is not in sync with its master is refused unless the
caller accepts a stale keyspace; one node of a cluster says how many masters the cluster has.
"""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.server import ServerFact
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.topology import cluster_masters, database_count, replica_out_of_sync, select_error
from rediscipline.sources.live.wire import Wire


@dataclass(frozen=True, slots=True)
class ScanScope:
    """The databases to scan and what the report must say about the node they are on."""

    dbs: tuple[int, ...]
    cluster_masters: int | None = None  # None: not a cluster node; 0: a cluster node, masters unknown
    stale_replica: str | None = None  # why this replica's keys may be missing or old (when accepted)


def scan_scope(
    wire: Wire,
    server: ServerFact,
    display: str,
    *,
    db: int | None,
    url_db: int | None,
    resume: tuple[int, int] | None,
    allow_stale: bool,
) -> ScanScope:
    """Check the requested databases against the server and read its role; raise SourceError to refuse."""
    stale = replica_out_of_sync(dict(server.info))
    if stale is not None and not allow_stale:
        raise SourceError(
            f"{display} is {stale}: its keys may be missing or old. Scan the master, wait for the sync, or "
            "pass --allow-stale to scan it anyway"
        )
    named: list[tuple[str, int]] = []
    if db is not None:
        named.append((f"--db {db}", db))
    elif url_db is not None:
        named.append((f"database {url_db} in the URL", url_db))
    if resume is not None:
        named.append((f"--resume {resume[0]}:{resume[1]}", resume[0]))
    count: int | None = None
    for what, number in named:
        if number == 0 or number in server.keyspace:
            continue  # database 0 always exists; INFO keyspace lists the others that hold keys
        if count is None:
            count = database_count(wire, dict(server.config) if server.config is not None else None)
        if count is not None and number >= count:
            raise SourceError(f"{what}: {display} has databases 0-{count - 1}")
        refusal = select_error(wire, number)
        if refusal is not None:
            raise SourceError(f"{what}: {display} refused SELECT {number} ({refusal})")
    only = db if db is not None else url_db
    if only is not None and resume is not None and resume[0] != only:
        chosen = f"--db {db}" if db is not None else f"database {url_db} in the URL"
        raise SourceError(f"--resume {resume[0]}:{resume[1]} continues database {resume[0]}, not {chosen}")
    dbs = _databases(server, db if db is not None else url_db, resume)
    cluster = server.info.get("cluster_enabled") == "1" or server.info.get("redis_mode") == "cluster"
    return ScanScope(dbs, cluster_masters(wire) if cluster else None, stale)


def _databases(server: ServerFact, db: int | None, resume: tuple[int, int] | None) -> tuple[int, ...]:
    """One database when named; else every one that holds keys (the resumed one too, even if empty now)."""
    if db is not None:
        return (db,)
    populated = {number for number, keys in server.keyspace.items() if keys > 0}
    if resume is not None:
        populated = {number for number in populated if number >= resume[0]} | {resume[0]}
    return tuple(sorted(populated)) or (0,)
