"""The crawl frontier: which URLs are queued, which were already seen, and politeness per domain."""

from __future__ import annotations

import queue
import random
import time
import urllib.robotparser
from collections import deque

import redis

from crawler.store import CRAWL_PREFIX, PAGE_TTL, SEEN_TTL, jitter, page_key, queue_key, seen_key, url_hash

ROBOTS_TTL = 6 * 3600


class Frontier:
    """Seen sets and domain queues of one crawl run."""

    def __init__(self, client: redis.Redis, crawl_id: str) -> None:
        self.client = client
        self.crawl_id = crawl_id
        # Fetch results waiting to be parsed by this process's worker threads (a queue.Queue, not Redis).
        self.parse_queue: queue.Queue[tuple[str, bytes]] = queue.Queue(maxsize=1000)
        self.recent: deque[str] = deque(maxlen=100)

    def is_seen(self, url: str) -> bool:
        return bool(self.client.sismember(seen_key(self.crawl_id), url_hash(url)))

    def mark_seen(self, url: str) -> bool:
        key = seen_key(self.crawl_id)
        added = self.client.sadd(key, url_hash(url))
        self.client.expire(key, jitter(SEEN_TTL))
        return bool(added)

    def remember_urls(self, urls: list[str]) -> None:
        self.client.sadd(seen_key(self.crawl_id), *(url_hash(url) for url in urls))  # error: TTL006

    def filter_new(self, urls: list[str]) -> list[str]:
        flags = self.client.smismember(seen_key(self.crawl_id), [url_hash(url) for url in urls])
        return [url for url, flag in zip(urls, flags, strict=True) if not flag]

    def dump_seen(self) -> set[bytes]:
        return self.client.smembers(seen_key(self.crawl_id))  # error: CMD005

    def seen_in_both(self, other_crawl: str) -> set[bytes]:
        return self.client.sinter(seen_key(self.crawl_id), seen_key(other_crawl))  # error: CMD005

    def enqueue(self, domain: str, url: str) -> None:
        self.client.rpush(queue_key(domain), url)

    def next_url(self, domain: str) -> bytes | None:
        return self.client.lpop(queue_key(domain))

    def wait_for_url(self, domain: str) -> tuple[bytes, bytes] | None:
        return self.client.blpop(queue_key(domain))  # error: PUB001

    def wait_for_any(self, domains: list[str]) -> tuple[bytes, bytes] | None:
        return self.client.blpop([queue_key(d) for d in domains], timeout=5)

    def queue_depth(self, domain: str) -> int:
        return int(self.client.llen(queue_key(domain)))

    def seed_listing(self, base_url: str) -> int:
        """Queue the pages of a paginated listing that this run has not seen yet."""
        queued = 0
        for page in range(1, 1001):
            url = f"{base_url}?page={page}"
            if not self.client.sismember(seen_key(self.crawl_id), url_hash(url)):  # error: BAT002
                self.parse_queue.put((url, b""))
                queued += 1
        return queued

    def seed_first_pages(self, base_url: str) -> None:
        for page in range(1, 21):
            self.client.rpush(queue_key("listing"), f"{base_url}?page={page}")

    def store_page(self, domain: str, url: str, status: int, body_len: int) -> None:
        key = page_key(domain, url_hash(url))
        self.client.hset(key, mapping={"url": url, "status": status, "length": body_len, "at": int(time.time())})
        self.client.expire(key, PAGE_TTL + random.randint(0, 3600))
        self.recent.append(url)

    def page_fields(self, domain: str, url: str) -> list[bytes | None]:
        return self.client.hmget(page_key(domain, url_hash(url)), "url", "status", "length")


class Politeness:
    """robots.txt rules and the last fetch time of each domain."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self.parsers: dict[str, urllib.robotparser.RobotFileParser] = {}

    def cache_robots(self, domain: str, body: str) -> None:
        self.client.set("crawl:robots.txt:" + domain, body, ex=jitter(ROBOTS_TTL))  # error: KEY010

    def robots(self, domain: str) -> bytes | None:
        return self.client.get(f"crawl:robots:{domain}")

    def touch(self, domain: str) -> None:
        self.client.set(f"crawl:lastFetch:{domain}", int(time.time()), ex=60)  # error: KEY007

    def record_error(self, domain: str, status: int) -> None:
        key = CRAWL_PREFIX + ":errors:" + domain
        self.client.hincrby(key, str(status), 1)  # error: KEY009, TTL006

    def acquire_domain(self, domain: str, worker: str) -> bool:
        return bool(self.client.set(f"spider:lock:{domain}", worker, nx=True, ex=30))  # error: KEY018

    def release_domain(self, domain: str) -> None:
        self.client.unlink(f"crawl:lock:{domain}")

    def reset_all_queues(self) -> None:
        """Empty the 1024 shard queues between runs (one UNLINK each)."""
        for shard in range(1024):
            self.client.unlink(f"crawl:queue:shard:{shard}")  # error: BAT002
