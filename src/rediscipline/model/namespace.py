"""A declared namespace: the team's key schema entry with its own policy (`[namespaces."session:*"]`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NamespacePolicy:
    """Policy for keys matching `pattern` (a Redis glob). Unset fields fall back to the rule options."""

    pattern: str
    description: str = ""
    type: str | None = None  # the Redis type every key here must have
    max_key_bytes: int | None = None  # overrides the key-length error limit for this namespace
    read_by_mget: bool = False  # keys are read by MGETs of more than 100 keys: keep names ≤ 20 bytes
    hashtag: str | None = None  # "required", "allowed" or "forbidden"
    ttl_min_seconds: int | None = None
    ttl_max_seconds: int | None = None
    ttl_required: bool | None = None
    max_elements: int | None = None
    ignore: tuple[str, ...] = ()  # rule selectors that do not apply inside this namespace
