"""The database a Redis URL names, read the way redis-py reads it: shared by the live source (which connects
to it) and the code source (which reports `from_url(".../3")` as a SELECT of database 3)."""

from __future__ import annotations

from urllib.parse import urlsplit


def url_database(url: str) -> str | None:
    """The database part of a Redis URL as written (`redis://h/3` or `?db=3`, the query winning), or None.

    A `unix://` URL's path is the socket, so only its `?db=` counts. The text is not validated: the live
    source rejects a non-number, the code source ignores it.
    """
    parts = urlsplit(url)
    path = "" if parts.scheme.lower() == "unix" else parts.path
    for item in parts.query.split("&"):
        if item.startswith("db="):
            path = item[3:]
    text = path.strip("/")
    return text or None
