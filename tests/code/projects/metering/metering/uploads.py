"""Uploaded usage files: each file's SHA-256 digest is kept under `file:<id>:hash` to skip duplicates.

`hash` here is the data the key holds (a digest string), not the Redis type of the key.
"""

from __future__ import annotations

import hashlib

from .store import get_redis

UPLOAD_TTL = 3 * 86400


def file_hash_key(file_id: str) -> str:
    return f"file:{file_id}:hash"


def store_digest(file_id: str, data: bytes) -> str:
    digest = hashlib.sha256(data).hexdigest()
    get_redis().set(file_hash_key(file_id), digest, ex=UPLOAD_TTL)
    return digest


def digest_of(file_id: str) -> bytes | None:
    return get_redis().get(file_hash_key(file_id))


def same_content(first: str, second: str) -> bool:
    r = get_redis()
    return r.get(f"file:{first}:hash") == r.get(f"file:{second}:hash")


def digests(file_ids: list[str]) -> list[bytes | None]:
    return get_redis().mget([file_hash_key(fid) for fid in file_ids])


def claim_digest(file_id: str, digest: str) -> bool:
    """First upload of a content wins; later duplicates point at it."""
    return bool(get_redis().set(f"upload:by_digest:{digest}", file_id, nx=True, ex=UPLOAD_TTL))


def store_part_digest(upload_id: str, part: int, data: bytes) -> None:
    get_redis().setex(f"upload:{upload_id}:{part}:hash", UPLOAD_TTL, hashlib.md5(data).hexdigest())


def forget(file_id: str) -> None:
    get_redis().unlink(file_hash_key(file_id), f"upload:meta:{file_id}")


def store_meta(file_id: str, meta: dict[str, str]) -> None:
    r = get_redis()
    r.hset(f"upload:meta:{file_id}", mapping=meta)  # error: TTL006
