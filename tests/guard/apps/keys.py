"""Key builders, in a module of their own, as applications write them: the guard reports the call that sends
the key, never the helper that built it."""

from __future__ import annotations


def profile_key(uid: int) -> str:
    return f"user:profile:{uid}"


def cart_key(uid: int) -> str:
    return f"Cart:items:{uid}"  # upper case: KEY006 where the key is sent


def page_key(path: str) -> bytes:
    return b"page:html:" + (path.strip("/").replace("/", "_") or "index").encode()


def raw_key(suffix: bytes) -> bytes:
    return b"blob:raw:" + suffix  # any bytes, not necessarily UTF-8
