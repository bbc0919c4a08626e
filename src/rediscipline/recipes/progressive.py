"""Delete a big collection a batch at a time, then UNLINK what is left: never one blocking DEL.

001 §2.1 禁止使用bigkey: "非字符串的bigkey不要使用del删除，使用hscan、sscan、zscan方式渐进式删除"; 000
§使用的命令请求遵守哪些规范？ — 数据删除 advises UNLINK for big keys (and HSCAN, SSCAN, ZSCAN where UNLINK is
missing). Freeing a hash of a million fields with DEL holds the server's only thread for as long as it
takes; removing a hundred at a time lets every other client in between, and the replicas and the AOF get
the same small commands.

How each type is taken apart, `batch` elements per command:

| type   | commands                                                                        |
|--------|---------------------------------------------------------------------------------|
| hash   | `HSCAN key cursor COUNT batch`, then `HDEL key field…` of the fields it returned |
| set    | `SSCAN key cursor COUNT batch`, then `SREM key member…`                          |
| zset   | `ZCARD key`, then `ZREMRANGEBYRANK key 0 batch-1` until one removes < batch     |
| list   | `LLEN key`, then `LLEN key` + `LTRIM key batch -1` (one pipeline), likewise     |
| stream | `XLEN key`, then `XTRIM key MAXLEN = n`, n a batch less each time, down to 0    |

and a final `UNLINK key` in every case: it removes an empty stream (a stream stays when its last entry
goes), whatever was added while the batches ran, and any other type (a string, a module's type) at once.
A small hash or set may be returned whole by one HSCAN/SSCAN (compact encodings ignore COUNT): its fields
are still removed `batch` per HDEL/SREM.

Safe under concurrent use: a key that vanishes ends the batches (a SCAN of a missing key returns nothing),
and a key replaced by a value of another type (the next command fails with WRONGTYPE) ends them too. The
ZREMRANGEBYRANK, LTRIM and XTRIM rounds are bounded by the size first read (plus one), so writers adding
elements as fast as they are removed cannot keep the delete going forever; in each of these cases the final
UNLINK removes what is there, freed in the background.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from redis.exceptions import ResponseError

from rediscipline.recipes.steps import Batch, Client, Key, Plan, run, whole_number

#: Elements removed per command by default (000 §控制数量: at most 100 per request).
BATCH = 100


@dataclass(frozen=True)
class ProgressiveDelete:
    """What `progressive_delete` did to one key."""

    key_type: str  # the type TYPE reported at the start ("none" when the key did not exist)
    elements: int  # elements removed by the batches (fields, members, list elements, stream entries)
    batches: int  # commands that removed elements (HDEL, SREM, ZREMRANGEBYRANK, LTRIM, XTRIM)
    unlinked: bool  # whether the final UNLINK found the key (a stream, another type, or elements added meanwhile)


def _text(reply: Any) -> str:
    return reply.decode("latin-1") if isinstance(reply, bytes) else str(reply)


def _scanned(reply: Any, pairs: bool) -> tuple[int, list[Any]]:
    """The cursor and the fields (HSCAN) or members (SSCAN) of a scan reply, parsed by redis-py or raw."""
    cursor, found = reply
    if isinstance(found, dict):
        return int(cursor), list(found)
    items = list(found)
    return int(cursor), items[::2] if pairs else items


def _pieces(items: Sequence[Any], size: int) -> Iterator[Sequence[Any]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _wrong_type(error: ResponseError) -> bool:
    """A WRONGTYPE error, alone or as redis-py words it for a pipeline ("Command # 1 (…) of pipeline caused
    error: WRONGTYPE …")."""
    text = str(error)
    return text.startswith("WRONGTYPE") or "caused error: WRONGTYPE" in text


def _scan_and_remove(key: Key, batch: int, scan: str, remove: str, counts: list[int]) -> Plan[None]:
    """HSCAN+HDEL or SSCAN+SREM over one full pass of the cursor; `counts` gets [elements, batches]."""
    cursor = 0
    while True:
        replies = yield Batch(((scan, key, cursor, "COUNT", batch),))
        cursor, items = _scanned(replies[0], pairs=scan == "HSCAN")
        for piece in _pieces(items, batch):
            removed = yield Batch(((remove, key, *piece),))
            counts[0] += int(removed[0])
            counts[1] += 1
        if cursor == 0:
            return


def _trim(key: Key, key_type: str, batch: int, counts: list[int]) -> Plan[None]:
    """ZREMRANGEBYRANK, LTRIM or XTRIM rounds until one removes less than a batch (the key is then empty),
    at most (size read first) / batch + 1 of them."""
    size_command = {"zset": "ZCARD", "list": "LLEN", "stream": "XLEN"}[key_type]
    size = int((yield Batch(((size_command, key),)))[0])
    for _ in range(size // batch + 1):
        if key_type == "zset":
            removed = int((yield Batch((("ZREMRANGEBYRANK", key, 0, batch - 1),)))[0])
        elif key_type == "list":
            length, _ok = yield Batch((("LLEN", key), ("LTRIM", key, batch, -1)))
            removed = min(int(length), batch)
        else:
            size = max(0, size - batch)
            removed = int((yield Batch((("XTRIM", key, "MAXLEN", "=", size),)))[0])
        if removed:
            counts[0] += removed
            counts[1] += 1
        if removed < batch or (key_type == "stream" and size == 0):
            return


def progressive_delete_plan(key: Key, batch: int) -> Plan[ProgressiveDelete]:
    key_type = _text((yield Batch((("TYPE", key),)))[0])
    counts = [0, 0]
    try:
        if key_type == "hash":
            yield from _scan_and_remove(key, batch, "HSCAN", "HDEL", counts)
        elif key_type == "set":
            yield from _scan_and_remove(key, batch, "SSCAN", "SREM", counts)
        elif key_type in ("zset", "list", "stream"):
            yield from _trim(key, key_type, batch, counts)
    except ResponseError as error:
        if not _wrong_type(error):
            raise
    unlinked = key_type != "none" and int((yield Batch((("UNLINK", key),)))[0]) > 0
    return ProgressiveDelete(key_type, counts[0], counts[1], unlinked)


def progressive_delete(client: Client, key: Key, batch: int = BATCH) -> ProgressiveDelete:
    """Remove `key` a batch of `batch` elements at a time, then UNLINK it; returns what was removed.

    A hash, set, sorted set, list or stream is emptied by commands that each remove at most `batch`
    elements (the table in the module's doc), then `UNLINK key` removes whatever is left; any other type
    is unlinked at once. Never sends DEL. A missing key sends only TYPE (`key_type="none"`). Safe when the
    key vanishes or changes type meanwhile (the batches stop, UNLINK removes the new value).

    Works on a single server and on a Redis Cluster (every command names the one key).

    Serves 001 §2.1 禁止使用bigkey (progressive deletion with HSCAN, SSCAN, ZSCAN) and 000
    §使用的命令请求遵守哪些规范？ — 数据删除 (UNLINK for big keys).
    """
    return run(client, progressive_delete_plan(key, whole_number("batch", batch)))
