"""Server addresses: schemes, credentials from the URL, --user and --password-env, and safe display."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.connection import connection_arguments
from rediscipline.sources.live.url import parse_address


def test_redis_url_with_credentials_and_db() -> None:
    address = parse_address("redis://app:s%40cret@cache.internal:6380/2")
    assert (address.host, address.port, address.db) == ("cache.internal", 6380, 2)
    assert (address.username, address.password) == ("app", "s@cret")
    assert address.display == "redis://app@cache.internal:6380"
    arguments = connection_arguments(address, 5.0)
    assert (arguments["host"], arguments["port"], arguments["password"]) == ("cache.internal", 6380, "s@cret")


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
        ("redis://[::1:6379", "bad address in redis://\\[::1:6379"),
        ("redis://host:0", "bad port in redis://host:0"),
        ("redis://host:", "bad port"),
        ("redis://host:65536", "bad port"),
        ("redis://host:6379/1/2", "bad database '1/2'"),
        ("redis://host:6379?db=x", "bad database 'x'"),
        ("redis://ho st:6379", "bad host"),
        ("redis://host:6379?foo=bar", "unknown URL query option 'foo'"),
        ("redis://host:6379?socket_timeout=1", "unknown URL query option 'socket_timeout'"),
        ("redis://host:6379?ssl_cert_reqs=none", "needs a TLS address"),
        ("rediss://host:6379?ssl_cert_reqs=maybe", "ssl_cert_reqs='maybe'"),
        ("rediss://host:6379?ssl_check_hostname=perhaps", "expected true or false"),
        ("redis://host:6379#frag", "unexpected '#'"),
        ("localhost:6379", "unsupported URL scheme 'localhost'"),
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


@pytest.mark.parametrize(
    ("url", "user", "password"),
    [
        ("redis://:pa#ss@h:1", None, "pa#ss"),
        ("redis://:pa/ss@h:1", None, "pa/ss"),
        ("redis://:pa?ss@h:1", None, "pa?ss"),
        ("redis://app:p@ss:w@rd@h:1/2", "app", "p@ss:w@rd"),
        ("redis://app:a%2Fb%23c@h:1", "app", "a/b#c"),
        ("redis://h:1?password=q%26w+e", None, "q&w e"),  # read as parse_qs reads it: `+` is a space
        ("redis://h:1?username=bob&password=pw", "bob", "pw"),
        ("redis://ann:userinfo@h:1?username=bob&password=query", "ann", "userinfo"),  # the user info wins
        ("unix://app:pw@/run/redis.sock?db=2", "app", "pw"),
        ("rediss://:pw@[::1]:6380", None, "pw"),
    ],
)
def test_credentials_with_any_character(url: str, user: str | None, password: str) -> None:
    address = parse_address(url)
    assert (address.username, address.password) == (user, password)
    assert password not in address.display


def test_query_options_reach_redis_py_and_ssl_password_is_a_secret() -> None:
    address = parse_address("rediss://h:1?ssl_cert_reqs=none&ssl_check_hostname=false&ssl_password=k3y&client_name=x")
    arguments = connection_arguments(address, 5.0)
    assert arguments["ssl_cert_reqs"] == "none"
    assert arguments["ssl_check_hostname"] is False
    assert arguments["ssl_password"] == "k3y"
    assert arguments["client_name"] == "x"
    assert "k3y" not in repr(address)


# ---- the password never shows, whatever it holds and wherever the URL puts it ---------------------------------------

PASSWORDS = st.text(min_size=8, max_size=24).filter(lambda p: p.strip() == p)
HOSTS = st.sampled_from(["127.0.0.1", "cache.internal", "[::1]", "h"])
TAILS = st.sampled_from(["", "/0", "/abc", "?db=1", "?foo=1", "?db=1&client_name=x", "/1/2", "#x"])
PORTS = st.sampled_from([":6379", ":0", ":", ":notaport", "", ":70000"])


def url_shapes(password: str, shape: int, host: str, port: str, tail: str) -> str:
    """One of the ways a password can be written into a URL: raw or percent-encoded, user info or query."""
    encoded = quote(password, safe="")
    return [
        f"redis://:{password}@{host}{port}{tail}",
        f"redis://user:{password}@{host}{port}{tail}",
        f"rediss://user:{encoded}@{host}{port}{tail}",
        f"redis://{host}{port}{tail}{'&' if '?' in tail else '?'}password={encoded}",
        f"unix://user:{password}@/tmp/redis.sock{tail if tail.startswith('?') else ''}",
        f"redis://user:{encoded}@{host}{port}?username=u&password={encoded}",
        f"{password}@{host}{port}",
        f"redis:/:{password}@{host}{port}",
    ][shape]


def _outcome(url: str) -> str:
    """The error message, or what a parsed address shows."""
    try:
        address = parse_address(url)
    except SourceError as error:
        return str(error)
    return address.display + repr(address)


@settings(max_examples=400, deadline=None)
@given(PASSWORDS, st.integers(0, 7), HOSTS, PORTS, TAILS)
def test_no_parse_error_shows_the_password(password: str, shape: int, host: str, port: str, tail: str) -> None:
    message = _outcome(url_shapes(password, shape, host, port, tail))
    # a password that is a word of every message (`ssl_ca_c`) is shown by coincidence, not leaked
    control = _outcome(url_shapes("\x01" * len(password), shape, host, port, tail))
    for secret in (password, quote(password, safe="")):
        assume(secret not in control)
        assert secret not in message, message


@pytest.mark.parametrize(
    "url",
    [
        "rediss://h:0?ssl_password=k3y-s3cret",
        "rediss://h:1?ssl_password=k3y-s3cret&bogus=1",
        "redis:/:k3y-s3cret@h:0",
        "redis://u:k3y-s3cret@h:1?password=k3y-s3cret&username=u&db=z",
    ],
)
def test_secrets_in_every_place_stay_out_of_errors(url: str) -> None:
    with pytest.raises(SourceError) as caught:
        parse_address(url)
    assert "k3y" not in str(caught.value)
