"""CLIENT LIST, parsed by field name (the fields and their order change with the server version; the docs say
to read them by name and to skip unknown ones, which are kept in `ClientInfo.fields`)."""

from __future__ import annotations

from rediscipline.model.traffic import ClientInfo
from rediscipline.sources.traffic.replies import reply_int

#: Connections kept in the view at most: CLIENT LIST on a server with more is summarised by the first ones
#: (the count stays exact in `TrafficView.clients_total`).
CLIENTS_KEPT = 10_000
#: Bytes of one field's value kept at most (a client name can be long).
VALUE_LIMIT = 512


def parse_clients(text: bytes, exclude: int | None = None) -> tuple[tuple[ClientInfo, ...], int]:
    """CLIENT LIST's reply → (the connections, at most CLIENTS_KEPT, this tool's own `exclude` left out;
    how many there were in all, without it)."""
    clients: list[ClientInfo] = []
    total = 0
    for raw in text.split(b"\n"):
        line = raw.strip()
        if not line:
            continue
        fields = _fields(line)
        client_id = reply_int(fields.get("id"))
        if client_id is None or client_id == exclude:
            continue
        total += 1
        if len(clients) < CLIENTS_KEPT:
            clients.append(client_of(client_id, fields))
    return tuple(clients), total


def own_address(text: bytes, own: int | None) -> str | None:
    """The address the server gives this tool's own connection `own` in CLIENT LIST (None: not listed)."""
    if own is None:
        return None
    for raw in text.split(b"\n"):
        fields = _fields(raw.strip())
        if reply_int(fields.get("id")) == own:
            return fields.get("addr")
    return None


def client_of(client_id: int, fields: dict[str, str]) -> ClientInfo:
    lib = " ".join(part for part in (fields.get("lib-name", ""), fields.get("lib-ver", "")) if part)
    multi = reply_int(fields.get("multi"))
    return ClientInfo(
        id=client_id,
        addr=fields.get("addr", ""),
        name=fields.get("name", ""),
        flags=fields.get("flags", ""),
        cmd=fields.get("cmd", ""),
        age=reply_int(fields.get("age")),
        idle=reply_int(fields.get("idle")),
        db=reply_int(fields.get("db")),
        sub=reply_int(fields.get("sub")) or 0,
        psub=reply_int(fields.get("psub")) or 0,
        ssub=reply_int(fields.get("ssub")) or 0,
        multi=-1 if multi is None else multi,
        watch=reply_int(fields.get("watch")),
        omem=reply_int(fields.get("omem")) or 0,
        tot_mem=reply_int(fields.get("tot-mem")),
        lib=lib,
        fields=fields,
    )


def _fields(line: bytes) -> dict[str, str]:
    """`id=3 addr=127.0.0.1:5000 name= ...` → field → value (a value is never empty of its `=`; client names
    cannot hold spaces). Bytes that are not UTF-8 are kept as escapes, each value bounded."""
    fields: dict[str, str] = {}
    for item in line.split(b" "):
        name, sep, value = item.partition(b"=")
        if sep:
            fields[name.decode("ascii", "replace")] = value[:VALUE_LIMIT].decode("utf-8", "backslashreplace")
    return fields
