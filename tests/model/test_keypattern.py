"""Pattern inference: what becomes a placeholder, and that a template renders back to the key's length."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.keypattern import infer_parts, is_yyyymmdd


@pytest.mark.parametrize(
    ("key", "pattern", "slots"),
    [
        (b"user:profile:id:12345", b"user:profile:id:*", ["int"]),
        (b"video_info#olympic#2020-08-29#1", b"video_info#olympic#*#*", ["date-dashed", "int"]),
        (b"order:summary:date:20241122", b"order:summary:date:*", ["date"]),
        (b"order:summary:date:20241399", b"order:summary:date:*", ["int"]),
        (b"sess:6F1C0A2B-1111-2222-3333-444455556666", b"sess:*", ["uuid"]),
        (b"feed:item:5f3a2c:detail", b"feed:item:*:detail", ["hex"]),
        (b"tok:aB3xZ9Qw7pLm2Kd8", b"tok:*", ["token"]),
        (b"orderStatusOrderId98765", b"orderStatusOrderId*", ["int"]),
        (b"uid#999#99", b"uid#*#*", ["int", "int"]),
        (b"x:md5:v2:utf8", b"x:md5:v2:utf8", []),
        (b"edu0_info", b"edu0_info", []),
        (b"ip:10.0.0.1", b"ip:*", ["ip"]),
        (b"glob*key?", b"glob\\*key\\?", []),
        (b"", b"", []),
    ],
)
def test_inference(key: bytes, pattern: bytes, slots: list[str]) -> None:
    template = KeyTemplate(infer_parts(key))
    assert template.pattern == pattern
    assert [p.slot for p in template.placeholders()] == slots
    assert template.exact_length == len(key)


def test_dates() -> None:
    assert is_yyyymmdd(b"20240229") and not is_yyyymmdd(b"20230229")
    assert not is_yyyymmdd(b"20241301") and not is_yyyymmdd(b"18991231") and not is_yyyymmdd(b"2024112a")


@given(st.binary(max_size=80))
def test_any_bytes_round_trip(key: bytes) -> None:
    parts = infer_parts(key)
    template = KeyTemplate(parts)
    assert template.exact_length == len(key)
    literal = b"".join(p for p in parts if isinstance(p, bytes))
    assert all(byte in key for byte in set(literal))
    assert not any(isinstance(a, bytes) and isinstance(b, bytes) for a, b in itertools.pairwise(parts))
