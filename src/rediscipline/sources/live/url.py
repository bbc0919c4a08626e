"""Server addresses: `redis://`, `rediss://` (TLS) and `unix://` URLs, credentials, and their safe display.

A password never leaves this module in a printable form: `ServerAddress.display` drops it, and every error
message is built from the display form.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

from rediscipline.sources.errors import SourceError
from rediscipline.sources.urls import url_database

SCHEMES = ("redis", "rediss", "unix")
DEFAULT_PORT = 6379
URL_ENV = "REDIS_URL"


@dataclass(frozen=True)
class ServerAddress:
    scheme: str
    host: str | None  # None for unix sockets
    port: int | None
    path: str | None  # the socket path for unix://
    db: int | None  # a database named in the URL (`/2` or `?db=2`)
    username: str | None
    password: str | None
    query: str = ""

    @property
    def tls(self) -> bool:
        return self.scheme == "rediss"

    @property
    def display(self) -> str:
        """The address without its password, for reports and messages."""
        user = f"{quote(self.username)}@" if self.username else ""
        if self.scheme == "unix":
            return f"unix://{user}{self.path}"
        host = f"[{self.host}]" if self.host and ":" in self.host else self.host
        return f"{self.scheme}://{user}{host}:{self.port}"

    def connection_url(self) -> str:
        """The URL handed to redis-py (with credentials, never displayed)."""
        auth = ""
        if self.username or self.password:
            auth = f"{quote(self.username or '', safe='')}:{quote(self.password or '', safe='')}@"
        query = f"?{self.query}" if self.query else ""
        if self.scheme == "unix":
            return f"unix://{auth}{self.path}{query}"
        host = f"[{self.host}]" if self.host and ":" in self.host else self.host
        return f"{self.scheme}://{auth}{host}:{self.port}{query}"


def parse_address(url: str | None, *, username: str | None = None, password_env: str | None = None) -> ServerAddress:
    """Parse `url` (or $REDIS_URL when None); `--user` and the password from `--password-env` override the URL."""
    if url is None:
        url = os.environ.get(URL_ENV)
        if not url:
            raise SourceError(f"no server given: pass a URL such as redis://host:6379 or set {URL_ENV}")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        shown = scheme or url.split("/", 1)[0]
        raise SourceError(
            f"unsupported URL scheme {shown!r}: use redis://host:port, rediss://host:port (TLS) or unix:///path"
        )
    try:
        port = parts.port
    except ValueError:
        raise SourceError(f"bad port in {_redacted(url)}") from None
    db = _db_of(url)
    password = unquote(parts.password) if parts.password is not None else None
    if password_env is not None:
        if password_env not in os.environ:
            raise SourceError(f"--password-env {password_env}: the environment variable is not set")
        password = os.environ[password_env]
    user = username if username is not None else (unquote(parts.username) if parts.username else None)
    query = "&".join(p for p in parts.query.split("&") if p and not p.startswith("db="))
    if scheme == "unix":
        if not parts.path:
            raise SourceError("unix:// URL without a socket path (example: unix:///var/run/redis.sock)")
        return ServerAddress(scheme, None, None, parts.path, db, user, password, query)
    if not parts.hostname:
        raise SourceError(f"no host in {_redacted(url)}")
    return ServerAddress(scheme, parts.hostname, port or DEFAULT_PORT, None, db, user, password, query)


def _db_of(url: str) -> int | None:
    text = url_database(url)
    if text is None:
        return None
    if not text.isdigit():
        raise SourceError(f"bad database {text!r} in the URL: expected a number")
    return int(text)


def _redacted(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return url.replace(f":{parts.password}@", ":***@", 1)
