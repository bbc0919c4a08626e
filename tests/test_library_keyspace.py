"""The library keyspace corpus: its key escaping, its family labelling, and the committed cache corpus file."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from scripts.library_keyspace.common import escape_key, family, label

from tests.support.library_corpus import unescape

ROOT = Path(__file__).resolve().parents[1]
CACHES = ROOT / "tests" / "data" / "library_keys" / "caches.tsv"
TYPES = {"string", "hash", "list", "set", "zset", "stream"}


def test_escape_key_writes_printable_ascii_and_hex_for_everything_else() -> None:
    assert escape_key(b"user:42") == "user:42"
    assert escape_key(b"a b\tc") == "a\\x20b\\x09c"
    assert escape_key("café".encode()) == "caf\\xc3\\xa9"
    assert escape_key(b"back\\slash\x00\x7f") == "back\\\\slash\\x00\\x7f"


def test_label_gives_each_key_its_one_family() -> None:
    families = [family("user", r"user:\d+"), family("order", r"order:[0-9a-f-]{36}")]
    assert label([b"user:1", b"order:" + b"0" * 36], families) == ["user", "order"]


def test_label_names_keys_with_no_family_or_two() -> None:
    families = [family("user", r"user:\d+"), family("any user", r"user:.*")]
    with pytest.raises(ValueError, match=r"2 keys not labelled") as raised:
        label([b"user:1", b"session:\xff"], families)
    assert "user:1: families user, any user" in str(raised.value)
    assert "session:\\xff: no family" in str(raised.value)


def test_cache_corpus_rows_are_well_formed() -> None:
    lines = CACHES.read_text(encoding="utf-8").splitlines()
    header = [line for line in lines if line.startswith("#")]
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    assert any(line.startswith("# server redis ") for line in header)
    assert any(line.startswith("# library django-redis ") for line in header)
    assert CACHES.stat().st_size < 2_000_000
    assert all(len(row) == 5 for row in rows)
    for library, fam, kind, ttl, key in rows:
        assert library and fam and kind in TYPES, (library, fam, kind)
        assert int(ttl) >= -1
        assert escape_key(unescape(key)) == key
    per_library = Counter(row[0] for row in rows)
    assert {"django-redis", "django", "flask-caching", "limits", "redis-om", "-"} <= set(per_library)
    assert len({tuple(row[4:]) for row in rows}) == len(rows)  # every key once
