"""Load seed URLs from CSV files into the frontier.

    python -m crawler.load_seeds seeds.csv [--chunk 200] [--naive]

The CSV has `domain,url` rows; exports from partners run to millions of lines.
"""

from __future__ import annotations

import argparse
import csv
import shelve
from collections.abc import Iterable, Iterator
from pathlib import Path

import redis

from crawler.store import get_client, queue_key

CHUNK = 200
STATE_FILE = Path.home() / ".crawler-seed-state"


def read_rows(path: Path) -> Iterator[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        yield from csv.DictReader(fh)


def load_naive(client: redis.Redis, rows: Iterable[dict[str, str]]) -> None:
    """Queue everything in one pipeline: fine for the 50-line test file, not for partner exports."""
    pipe = client.pipeline(transaction=False)
    for row in rows:
        pipe.rpush(queue_key(row["domain"]), row["url"])
    pipe.execute()  # error: BAT003


def load_chunked(client: redis.Redis, rows: Iterable[dict[str, str]], chunk: int = CHUNK) -> int:
    """Queue the rows in pipelines of at most `chunk` commands."""
    pipe = client.pipeline(transaction=False)
    total = 0
    for row in rows:
        pipe.rpush(queue_key(row["domain"]), row["url"])
        total += 1
        if len(pipe) >= chunk:
            pipe.execute()
    if len(pipe):
        pipe.execute()
    return total


def load_list(client: redis.Redis, urls: list[tuple[str, str]]) -> None:
    """Queue an in-memory list, 200 commands per round trip."""
    for start in range(0, len(urls), CHUNK):
        pipe = client.pipeline(transaction=False)
        for domain, url in urls[start : start + CHUNK]:
            pipe.rpush(queue_key(domain), url)
        pipe.execute()


def load_one_by_one(client: redis.Redis, rows: Iterable[dict[str, str]]) -> None:
    for row in rows:
        client.rpush(queue_key(row["domain"]), row["url"])


def remember_file(path: Path) -> None:
    """Which files were loaded already (a shelve on local disk, not Redis)."""
    with shelve.open(str(STATE_FILE)) as state:
        loaded = set(state.get("loaded", []))
        loaded.add(str(path.resolve()))
        state["loaded"] = sorted(loaded)
        for name in list(state.keys()):
            if name.startswith("tmp-"):
                del state[name]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Load seed URLs into the crawl frontier.")
    parser.add_argument("csv", type=Path, nargs="+")
    parser.add_argument("--chunk", type=int, default=CHUNK)
    parser.add_argument("--naive", action="store_true", help="one pipeline per file (small files only)")
    args = parser.parse_args(argv)
    client = get_client()
    for path in args.csv:
        if args.naive:
            load_naive(client, read_rows(path))
        else:
            load_chunked(client, read_rows(path), args.chunk)
        remember_file(path)


if __name__ == "__main__":
    main()
