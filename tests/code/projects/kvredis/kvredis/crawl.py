"""Crawl limits kept in the store the scheduler hands over; this module never names the client library."""


class DomainLimit:
    def __init__(self, server, prefix, timeout):
        self.server = server
        self.prefix = prefix
        self.timeout = timeout

    def reached(self, domain, limit):
        counter = f"crawl:limit:{domain}"
        if not self.server.exists(counter):
            self.server.set(counter, 0)  # error: TTL008
            self.server.expire(counter, self.timeout)
        return int(self.server.incr(counter)) > limit

    def reset(self):
        cursor, counters = self.server.scan(cursor=0, match="crawl:limit:*")  # error: CMD010
        if counters:
            self.server.delete(*counters)
        return cursor
