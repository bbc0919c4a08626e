"""The crawl scheduler: it makes the client once and gives it to the limits it builds."""

import redis

from kvredis.crawl import DomainLimit


class Scheduler:
    def __init__(self, server, persist):
        self.conn = server
        self.persist = persist
        self.limit = None

    @classmethod
    def from_settings(cls, settings):
        server = redis.Redis(host=settings["host"], port=settings["port"])
        return cls(server, persist=True)

    def open(self):
        self.limit = DomainLimit(self.conn, "crawl:limit", 600)

    def enqueue(self, spider, domain, suffix, url, priority):
        # a `.` between two values joins the parts of one value (a host name), not two levels
        queue = "crawl:queue:{spider}:{dom}.{suf}".format(spider=spider, dom=domain, suf=suffix)  # noqa: UP032
        self.conn.zadd(queue, {url: -priority})
        # a `-` written between two values separates them
        return self.conn.zscore(f"crawl:queue:{spider}:{domain}-{suffix}", url)  # error: KEY010
