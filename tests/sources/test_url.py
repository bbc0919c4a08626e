"""Server addresses: schemes, credentials from the URL, --user and --password-env, and safe display."""

from __future__ import annotations

import pytest

from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.url import parse_address


def test_redis_url_with_credentials_and_db() -> None:
    address = parse_address("redis://app:s%40cret@cache.internal:6380/2")
    assert (address.host, address.port, address.db) == ("cache.internal", 6380, 2)
    assert (address.username, address.password) == ("app", "s@cret")
    assert address.display == "redis://app@cache.internal:6380"
    assert "s%40cret" in address.connection_url()


def test_defaults_and_tls() -> None:
    address = parse_address("rediss://cache")
    assert (address.port, address.db, address.tls, address.password) == (6379, None, True, None)


def test_unix_socket_with_db_query() -> None:
    address = parse_address("unix:///var/run/redis.sock?db=3")
    assert (address.path, address.db, address.host) == ("/var/run/redis.sock", 3, None)
    assert address.display == "unix:///var/run/redis.sock"


def test_user_and_password_env_override_the_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RD_PW", "from-env")
    address = parse_address("redis://old:old@h:1", username="scanner", password_env="RD_PW")
    assert (address.username, address.password) == ("scanner", "from-env")
    assert "from-env" not in address.display


def test_redis_url_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://envhost:7000")
    assert parse_address(None).display == "redis://envhost:7000"
    monkeypatch.delenv("REDIS_URL")
    with pytest.raises(SourceError, match="REDIS_URL"):
        parse_address(None)


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://host:6379", "unsupported URL scheme 'http'"),
        ("redis://host:notaport", "bad port"),
        ("redis://host:6379/abc", "bad database 'abc'"),
        ("unix://", "without a socket path"),
        ("redis://:6379", "no host"),
    ],
)
def test_bad_urls(url: str, message: str) -> None:
    with pytest.raises(SourceError, match=message):
        parse_address(url)


def test_missing_password_variable_and_password_never_in_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RD_NOPE", raising=False)
    with pytest.raises(SourceError, match="RD_NOPE"):
        parse_address("redis://h:1", password_env="RD_NOPE")
    with pytest.raises(SourceError) as caught:
        parse_address("redis://u:topsecret@h:bad")
    assert "topsecret" not in str(caught.value)
