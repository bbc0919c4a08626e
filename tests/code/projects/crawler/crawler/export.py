"""Export crawled pages to CSV.

python -m crawler.export --domain example.com pages.csv
python -m crawler.export --all --flush-after pages.csv
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Iterator
from pathlib import Path

import redis

from crawler.store import get_client


def iter_page_keys(client: redis.Redis, domain: str, batch: int = 500) -> Iterator[bytes]:
    yield from client.scan_iter(match=f"crawl:page:{domain}:*", count=batch)


def iter_all_page_keys(client: redis.Redis) -> Iterator[bytes]:
    for key in client.scan_iter("crawl:page:*"):  # error: CMD010
        if not key.endswith(b":lock"):
            yield key


def iter_fields(client: redis.Redis, key: bytes) -> Iterator[tuple[bytes, bytes]]:
    yield from client.hscan_iter(key)  # error: CMD010


def iter_fields_paged(client: redis.Redis, key: bytes) -> Iterator[tuple[bytes, bytes]]:
    for field, value in client.hscan_iter(key, count=200):
        if not field.startswith(b"_"):
            yield field, value


def iter_hash_keys(client: redis.Redis) -> Iterator[bytes]:
    yield from client.scan_iter(match="crawl:*", count=1000, _type="hash")


def write_csv(path: Path, rows: Iterator[list[str]]) -> int:
    written = 0
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["url", "status", "length"])
        for row in rows:
            writer.writerow(row)
            written += 1
    return written


def page_rows(client: redis.Redis, keys: Iterator[bytes]) -> Iterator[list[str]]:
    for key in keys:
        url, status, length = client.hmget(key, "url", "status", "length")
        yield [(url or b"").decode("utf-8", "replace"), (status or b"").decode(), (length or b"0").decode()]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    scope = parser.add_mutually_exclusive_group(required=True)
    scope.add_argument("--domain", help="export one domain")
    scope.add_argument("--all", action="store_true", help="export every domain")
    parser.add_argument("--flush-after", action="store_true", help="empty the crawl database when done")
    parser.add_argument("output", type=Path)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    client = get_client()
    keys = iter_all_page_keys(client) if args.all else iter_page_keys(client, args.domain)
    count = write_csv(args.output, page_rows(client, keys))
    print(f"{count} pages written to {args.output}", file=sys.stderr)
    if args.flush_after:
        client.flushdb(asynchronous=True)
    return 0


if __name__ == "__main__":
    options = parse_args()
    if options.flush_after and not options.all:
        direct = redis.Redis(host="localhost", port=6379)
        direct.flushdb()  # error: CMD002
    sys.exit(main())
