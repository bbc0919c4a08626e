"""Identifiers read whole: every key of a family gets one pattern, whatever bytes its generated id has."""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import ipaddress
import random
import secrets
import uuid
from collections.abc import Callable

import pytest

from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts

RNG = random.Random(20261127)
KEYS_PER_FAMILY = 3000
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _pattern(key: bytes) -> bytes:
    return KeyTemplate(infer_parts(key)).pattern


def _bytes(count: int) -> bytes:
    return RNG.getrandbits(8 * count).to_bytes(count, "big")


def _uuid() -> uuid.UUID:
    return uuid.UUID(bytes=_bytes(16), version=4)


def _email() -> str:
    first = RNG.choice(["anna", "chloé", "o'neil", "li", "jean-luc", "x"])
    last = RNG.choice(["", ".meyer", ".nguyen", "+news", "_b", "1984"])
    domain = RNG.choice(["example.com", "mail.example.co.uk", "company.io", "xn--caf-dma.fr"])
    return f"{first}{last}@{domain}"


def _ipv6() -> str:
    address = ipaddress.IPv6Address(_bytes(16))
    return RNG.choice([address.compressed, address.exploded, f"2001:db8::{RNG.randrange(1, 65535):x}", "::1"])


def _timestamp() -> str:
    moment = dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(seconds=RNG.randrange(200_000_000))
    return RNG.choice(
        [moment.isoformat(), moment.strftime("%Y-%m-%dT%H:%M:%SZ"), moment.isoformat(timespec="milliseconds")]
    )


def _ulid() -> str:
    crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    return RNG.choice("01234567") + "".join(RNG.choice(crockford) for _ in range(25))


#: (family, key maker): the generated part varies, the family's own text does not.
FAMILIES: list[tuple[str, Callable[[], str]]] = [
    ("uuid, lower case", lambda: f"rq:job:{_uuid()}"),
    ("uuid, upper case", lambda: f"celery-task-meta-{str(_uuid()).upper()}"),
    ("uuid without hyphens", lambda: f"arq:job:{_uuid().hex}"),
    ("uuid inside a level", lambda: f"jobs:{_uuid()}:dependents"),
    ("md5", lambda: f"cache:page:{hashlib.md5(_bytes(8)).hexdigest()}"),
    ("sha1 upper case", lambda: f"obj:{hashlib.sha1(_bytes(8)).hexdigest().upper()}"),
    ("sha256 glued to a word", lambda: f"flask_cache_view//search{hashlib.sha256(_bytes(8)).hexdigest()}"),
    ("8 hex", lambda: f"short:{RNG.getrandbits(32):08x}"),
    ("base64 of a digest", lambda: "flask_cache_" + base64.b64encode(_bytes(12)).decode() + "vn+A9y"),
    ("base64 padded", lambda: "tok:" + base64.b64encode(_bytes(16)).decode()),
    ("base64url token", lambda: f"session:{secrets.token_urlsafe(32)}"),
    (
        "base64url token glued to a word",
        lambda: f"main:token_{base64.urlsafe_b64encode(_bytes(16)).decode().rstrip('=')}",
    ),
    ("base64url token in a path", lambda: f"LIMITS:gw/search/apikey/{secrets.token_urlsafe(24)}/30/10/minute"),
    ("base62 token", lambda: "api:" + "".join(RNG.choice(ALPHABET) for _ in range(24))),
    ("ulid", lambda: f"app.models.Customer:{_ulid()}"),
    ("ksuid", lambda: "ev:" + "".join(RNG.choice(ALPHABET) for _ in range(27))),
    ("snowflake", lambda: f"msg:{RNG.randrange(10**17, 10**19)}"),
    ("e-mail", lambda: f"LIMITS:LIMITER/login/email/{_email()}/5/1/minute"),
    ("ipv4", lambda: f"ratelimit:{ipaddress.IPv4Address(_bytes(4))}:count"),
    ("ipv6", lambda: f"LIMITS:LIMITER/login/ip/{_ipv6()}/5/1/minute"),
    ("ipv6 after a colon", lambda: f"blocklist:ip:{ipaddress.IPv6Address(_bytes(16)).compressed}"),
    ("iso timestamp", lambda: f"events:{_timestamp()}"),
    ("date", lambda: f"stats:pv:{dt.date(2024, 1, 1) + dt.timedelta(days=RNG.randrange(700))}"),
    ("compact date", lambda: f"stats:uv:{(dt.date(2024, 1, 1) + dt.timedelta(days=RNG.randrange(700))):%Y%m%d}"),
    ("iso week", lambda: f"leaderboard:{RNG.randrange(2020, 2030)}-W{RNG.randrange(1, 54):02d}"),
    ("query string", lambda: f"view//search?q={RNG.choice(['shoes', 'café', 'a b'])}&page={RNG.randrange(50)}"),
    ("name=value", lambda: f"conj:auth_user:id={RNG.randrange(10**6)}"),
    ("dotted module path and an id", lambda: f"huey.results.app.tasks.{_uuid()}"),
    (
        "sku code",
        lambda: f"inventory:product:{RNG.choice('ABCF')}{RNG.randrange(100, 999)}-{RNG.randrange(1000, 9999)}",
    ),
    ("pipe separated", lambda: f"storefront.views:product_card|{RNG.randrange(10**5)}"),
]


@pytest.mark.parametrize(("family", "make"), FAMILIES, ids=[name for name, _make in FAMILIES])
def test_a_family_is_one_pattern(family: str, make: Callable[[], str]) -> None:
    patterns = {_pattern(make().encode()) for _ in range(KEYS_PER_FAMILY)}
    assert len(patterns) == 1, sorted(patterns)[:5]


def test_families_stay_apart() -> None:
    """The literal text of each family survives: no two families above share a pattern."""
    seen: dict[bytes, str] = {}
    for family, make in FAMILIES:
        pattern = _pattern(make().encode())
        assert seen.setdefault(pattern, family) == family, (pattern, seen[pattern], family)


@pytest.mark.parametrize(
    ("key", "pattern", "slots"),
    [
        (b"rq:queue:high", b"rq:queue:high", []),  # words stay words
        (b"rq:queue:reports", b"rq:queue:reports", []),
        (b"cache:deadbeef", b"cache:*", ["hex"]),  # eight hex letters: a hash, like its siblings with digits
        (b"cache:facade", b"cache:facade", []),  # six: a word
        (b"order:20240229", b"order:*", ["date"]),  # a date that is also a number: one placeholder either way
        (b"order:20240230", b"order:*", ["int"]),
        (b"user:email:admin@example.com", b"user:email:*@*.*", ["email"] * 3),  # `@` and `.` stay visible
        (b"a::1", b"a::*", ["int"]),  # an empty level, not an IPv6 address
        (b"x:fe80::1", b"x:*", ["ip"]),
        (b"/api/items/Ab3xYz9q", b"/api/items/*", ["token"]),
        (b"session_5f3a2c9b1d_data", b"session_*_data", ["hex"]),
        (b"user:" + b"A" * 300 + b"7", b"user:" + b"A" * 300 + b"*", ["int"]),  # a long word, not a digest
        (b"\xff\xfe:\x00:1", b"\xff\xfe:\x00:*", ["int"]),
    ],
)
def test_ambiguous_keys(key: bytes, pattern: bytes, slots: list[str]) -> None:
    template = KeyTemplate(infer_parts(key))
    assert (template.pattern, [p.slot for p in template.placeholders()]) == (pattern, slots)
    assert template.exact_length == len(key)
