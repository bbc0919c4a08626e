"""Server addresses: `redis://`, `rediss://` (TLS) and `unix://` URLs, credentials, and their safe display.

Credentials are taken out of the URL text before anything parses it (see `credentials`): every later step,
and so every error message, sees only the URL without them. A password never leaves this module in a
printable form: `ServerAddress.display` drops it, and errors quote the URL without its credentials.

The query options are read as redis-py reads them (`parse_qs`: `+` is a space, percent-escapes decoded), but
only the ones that mean something for a read-only scan are accepted; any other is a user error, named.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, unquote_plus, urlsplit

from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.credentials import Credentials, take_credentials

SCHEMES = ("redis", "rediss", "unix")
DEFAULT_PORT = 6379
URL_ENV = "REDIS_URL"
#: Query options passed to redis-py for TLS connections (`rediss://` only).
TLS_OPTIONS = (
    "ssl_cert_reqs",
    "ssl_ca_certs",
    "ssl_ca_path",
    "ssl_certfile",
    "ssl_keyfile",
    "ssl_check_hostname",
    "ssl_ciphers",
)
#: Every query option a URL may carry (credentials are taken out before: `username`, `password`, `ssl_password`).
QUERY_OPTIONS = ("db", "client_name", *TLS_OPTIONS)
_CERT_REQS = ("none", "optional", "required")
_TRUE, _FALSE = ("1", "true", "yes", "y", "t", "on"), ("0", "false", "no", "n", "f", "off")
_OPTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")
_HOST = re.compile(r"[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]")


@dataclass(frozen=True)
class ServerAddress:
    scheme: str
    host: str | None  # None for unix sockets
    port: int | None
    path: str | None  # the socket path for unix://
    db: int | None  # a database named in the URL (`/2` or `?db=2`)
    username: str | None
    password: str | None = field(default=None, repr=False)
    options: tuple[tuple[str, str], ...] = ()  # validated query options (QUERY_OPTIONS but db)
    ssl_password: str | None = field(default=None, repr=False)

    @property
    def tls(self) -> bool:
        return self.scheme == "rediss"

    @property
    def display(self) -> str:
        """The address without its password, for reports and messages."""
        user = f"{quote(self.username, safe='')}@" if self.username else ""
        if self.scheme == "unix":
            return f"unix://{user}{self.path}"
        host = f"[{self.host}]" if self.host and ":" in self.host else self.host
        return f"{self.scheme}://{user}{host}:{self.port}"


def parse_address(url: str | None, *, username: str | None = None, password_env: str | None = None) -> ServerAddress:
    """Parse `url` (or $REDIS_URL when None); `--user` and the password from `--password-env` override the URL."""
    if url is None:
        url = os.environ.get(URL_ENV)
        if not url:
            raise SourceError(f"no server given: pass a URL such as redis://host:6379 or set {URL_ENV}")
    credentials = take_credentials(url)
    address = _parse_bare(credentials)
    password = credentials.password
    if password_env is not None:
        if password_env not in os.environ:
            raise SourceError(f"--password-env {password_env}: the environment variable is not set")
        password = os.environ[password_env]
    user = username if username is not None else credentials.username
    return ServerAddress(
        address.scheme, address.host, address.port, address.path, address.db, user, password,
        address.options, credentials.ssl_password,
    )  # fmt: skip


def _parse_bare(credentials: Credentials) -> ServerAddress:
    """Everything but the credentials, from the URL without them (`credentials.bare`, safe to print)."""
    bare = credentials.bare
    scheme = credentials.scheme.lower()
    if scheme not in SCHEMES:
        shown = f"unsupported URL scheme {scheme!r}" if scheme else f"not a server URL: {bare!r}"
        raise SourceError(f"{shown}: use redis://host:port, rediss://host:port (TLS) or unix:///path")
    if "#" in bare:
        raise SourceError(f"unexpected '#' in {bare} (write '#' in a password as %23)")
    try:
        parts = urlsplit(bare)
        port = parts.port
    except ValueError as error:
        reason = "bad port" if "port" in str(error).lower() else "bad address"
        raise SourceError(f"{reason} in {bare}") from None
    options, query_db = _options(credentials.query, scheme, bare)
    if scheme == "unix":
        path = unquote(parts.path)
        if not path:
            raise SourceError("unix:// URL without a socket path (example: unix:///var/run/redis.sock)")
        return ServerAddress(scheme, None, None, path, query_db, None, None, options)
    db = _path_db(parts.path, bare) if query_db is None else query_db
    host = parts.hostname
    if parts.netloc.endswith(":") or port == 0:
        raise SourceError(f"bad port in {bare}: ports are 1-65535")
    netloc_host = parts.netloc.rpartition(":")[0] if port is not None else parts.netloc
    if not host or not _HOST.fullmatch(netloc_host):
        raise SourceError(f"no host in {bare}" if not host else f"bad host in {bare}")
    return ServerAddress(scheme, host, port or DEFAULT_PORT, None, db, None, None, options)


def _options(query: str, scheme: str, bare: str) -> tuple[tuple[tuple[str, str], ...], int | None]:
    """The query options as redis-py would read them, validated; and `?db=`."""
    seen: dict[str, str] = {}
    for item in query.split("&"):
        if not item:
            continue
        raw_name, _sep, raw_value = item.partition("=")
        name = unquote_plus(raw_name)
        if name not in QUERY_OPTIONS:
            shown = repr(name) if _OPTION_NAME.fullmatch(name) else "(not an option name)"
            raise SourceError(f"unknown URL query option {shown}: the options are {', '.join(QUERY_OPTIONS)}")
        if name in TLS_OPTIONS and scheme != "rediss":
            raise SourceError(f"URL query option {name!r} needs a TLS address (rediss://)")
        seen.setdefault(name, unquote_plus(raw_value))  # the first one, as redis-py's parse_qs reading does
    db = None
    if "db" in seen:
        db = _number(seen.pop("db"), bare)
    reqs = seen.get("ssl_cert_reqs")
    if reqs is not None and reqs.lower() not in _CERT_REQS:
        raise SourceError(f"URL query option ssl_cert_reqs={reqs!r}: expected {', '.join(_CERT_REQS)}")
    check = seen.get("ssl_check_hostname")
    if check is not None and check.lower() not in _TRUE + _FALSE:
        raise SourceError(f"URL query option ssl_check_hostname={check!r}: expected true or false")
    return tuple(seen.items()), db


def _path_db(path: str, bare: str) -> int | None:
    text = unquote(path)
    if text in ("", "/"):
        return None
    return _number(text[1:] if text.startswith("/") else text, bare)


def _number(text: str, bare: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise SourceError(f"bad database {text!r} in {bare}: expected a number")
    return int(text)


def is_true(value: str) -> bool:
    """A boolean query option's value (validated by `parse_address`)."""
    return value.lower() in _TRUE
