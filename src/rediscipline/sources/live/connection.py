"""Open a connection with redis-py and turn every way it can fail into one clear line.

redis-py does the handshake (TLS, AUTH/HELLO with ACL users, unix sockets, timeouts); the scanner then
pipelines raw commands over the same socket (see `wire`). Errors name the address without its password.
"""

from __future__ import annotations

import ssl
from typing import Any

import redis
from redis.connection import Connection, ConnectionPool, SSLConnection, UnixDomainSocketConnection

from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.url import ServerAddress, is_true

CONNECT_TIMEOUT = 5.0


def open_connection(address: ServerAddress, timeout: float) -> Any:
    """A connected redis-py `Connection` (binary-safe: decode_responses off).

    redis-py gets the parts of the address as arguments, never a URL: nothing it could print holds a secret.
    """
    pool = ConnectionPool(**connection_arguments(address, timeout))
    connection = pool.make_connection()
    try:
        connection.connect()  # type: ignore[no-untyped-call]
    except Exception as error:  # redis-py wraps socket, TLS and protocol errors in several classes
        connection.disconnect()  # type: ignore[no-untyped-call]
        raise connection_error(address, error) from None
    return connection


def connection_arguments(address: ServerAddress, timeout: float) -> dict[str, Any]:
    """The keyword arguments of redis-py's ConnectionPool for `address`."""
    arguments: dict[str, Any] = {
        "socket_connect_timeout": CONNECT_TIMEOUT,
        "socket_timeout": timeout,
        "decode_responses": False,
        "protocol": 2,
        "username": address.username,
        "password": address.password,
    }
    options = dict(address.options)
    if "client_name" in options:
        arguments["client_name"] = options.pop("client_name")
    if address.scheme == "unix":
        arguments.update(connection_class=UnixDomainSocketConnection, path=address.path)
        return arguments
    arguments.update(host=address.host, port=address.port, connection_class=Connection)
    if address.tls:
        arguments["connection_class"] = SSLConnection
        if address.ssl_password is not None:
            arguments["ssl_password"] = address.ssl_password
        for name, value in options.items():
            arguments[name] = is_true(value) if name == "ssl_check_hostname" else value
    return arguments


def connection_error(address: ServerAddress, error: BaseException) -> SourceError:
    """Map a redis-py or socket exception raised while connecting to a one-line SourceError."""
    where = address.display
    text = _first_line(error)
    lowered = text.lower()
    if isinstance(error, redis.AuthenticationError) or "wrongpass" in lowered or "invalid password" in lowered:
        return SourceError(f"authentication failed for {where}: wrong user name or password")
    if "noauth" in lowered or "authentication required" in lowered:
        return SourceError(f"{where} requires a password: put it in the URL or use --password-env VAR")
    if isinstance(error, redis.BusyLoadingError) or ("loading" in lowered and "dataset" in lowered):
        return SourceError(f"{where} is loading its dataset into memory: try again when loading has finished")
    if address.tls and (isinstance(error, ssl.SSLError) or "ssl" in lowered or "tls" in lowered):
        return SourceError(f"TLS handshake with {where} failed ({text}): is TLS enabled on that port?")
    if isinstance(error, redis.TimeoutError) or "timed out" in lowered or "timeout" in lowered:
        hint = " (TLS to a plain-text port?)" if address.tls else ""
        return SourceError(f"cannot connect to {where}: timed out{hint}")
    if isinstance(error, redis.ConnectionError | OSError):
        return SourceError(f"cannot connect to {where}: {_reason(text)}")
    return SourceError(f"cannot talk to {where}: {text}")


def _reason(text: str) -> str:
    """`Error 111 connecting to 127.0.0.1:1. Connection refused.` → `connection refused`."""
    tail = text.rsplit(". ", 1)[-1] if "connecting to" in text else text
    return tail.strip().rstrip(".").lower() or "connection failed"


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]
