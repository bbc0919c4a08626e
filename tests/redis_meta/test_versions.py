"""Which server versions have a feature: from the table's first versions, or declared per release."""

from __future__ import annotations

from rediscipline.redis_meta.versions import (
    ACL,
    CLIENT_NO_TOUCH,
    EMBEDDED_KEY,
    HASH_FIELD_TTL,
    LISTPACK_SETTINGS,
    has_command,
    parse_version,
)


def test_versions_compare_as_the_releases_they_name() -> None:
    assert parse_version("7.2.4") == (7, 2, 4)
    assert parse_version("6.0.0") == (6,)
    assert parse_version("8.2.3-rc1") == (8, 2)
    assert parse_version("") == ()


def test_command_features_come_from_the_table() -> None:
    assert (CLIENT_NO_TOUCH.redis, CLIENT_NO_TOUCH.valkey) == ((7, 2), (7, 2))
    assert not CLIENT_NO_TOUCH.available("redis", (7, 0, 15))
    assert CLIENT_NO_TOUCH.available("redis", (7, 2, 0)) and CLIENT_NO_TOUCH.available("valkey", (7, 2, 4))
    assert ACL.available("redis", (6,)) and not ACL.available("redis", (5, 0, 14))
    assert HASH_FIELD_TTL.available("redis", (7, 4)) and not HASH_FIELD_TTL.available("valkey", (8, 1))
    assert HASH_FIELD_TTL.available("valkey", (9,))


def test_declared_features_differ_per_flavor() -> None:
    assert EMBEDDED_KEY.available("redis", (8, 0)) and not EMBEDDED_KEY.available("valkey", (8, 0))
    assert EMBEDDED_KEY.available("valkey", (8, 1, 1))
    assert not LISTPACK_SETTINGS.available("redis", (6, 2, 14)) and LISTPACK_SETTINGS.available("redis", (7,))


def test_an_unknown_version_has_nothing() -> None:
    assert not ACL.available("redis", ())


def test_whether_a_server_has_a_command() -> None:
    assert has_command("client|no-touch", "redis", (7, 2)) is True
    assert has_command("client|no-touch", "redis", (7, 0, 15)) is False
    assert has_command("hgetex", "valkey", (8, 1)) is False
    assert has_command("commandlog|get", "redis", (8, 2)) is False  # Valkey's own
    assert has_command("commandlog|get", "redis", (99,)) is None  # a later Redis may have added it
    assert has_command("vadd", "redis", (8, 2)) is None  # modules publish no first version
