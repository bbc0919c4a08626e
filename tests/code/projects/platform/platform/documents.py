"""Document storage: bytes in S3, metadata in DynamoDB, a scratch copy on local disk, indexes in Redis."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from boto3.dynamodb.conditions import Attr

from .clients import BUCKET, redis_client, s3, users_table

SCRATCH = Path(os.environ.get("SCRATCH_DIR", tempfile.gettempdir())) / "platform"
RECENT_UPLOADS = "docs:recent"
CHECKSUM_TTL = 7 * 24 * 3600


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 16), b""):
            sha.update(block)
    return sha.hexdigest()


def store(doc_id: str, owner: str, source: Path) -> str:
    SCRATCH.mkdir(parents=True, exist_ok=True)
    staged = SCRATCH / f"{doc_id}.part"
    shutil.copy(source, staged)
    staged.touch()
    digest = _digest(staged)
    final = staged.with_suffix(".bin")
    staged.rename(final)
    s3.upload_file(str(final), BUCKET, f"docs/{doc_id}")
    s3.copy({"Bucket": BUCKET, "Key": f"docs/{doc_id}"}, BUCKET, f"archive/{doc_id}")
    users_table.update_item(
        Key={"owner": owner},
        UpdateExpression="ADD doc_count :one",
        ExpressionAttributeValues={":one": 1},
    )
    redis_client.set(f"docs:checksum:{doc_id}", digest, ex=CHECKSUM_TTL)
    redis_client.set(f"docs:owner:{doc_id}", owner)  # error: TTL006
    redis_client.zadd(RECENT_UPLOADS, {doc_id: time.time()})  # error: TTL006
    redis_client.zremrangebyrank(RECENT_UPLOADS, 0, -1001)
    final.unlink(missing_ok=True)
    return digest


def content_address(body: bytes) -> str:
    """Short content address for dedup in S3 keys: the first 12 bytes of the SHA-256, base16."""
    return hashlib.sha256(body).digest()[:12].hex()


def fetch(doc_id: str) -> bytes:
    local = SCRATCH / f"{doc_id}.bin"
    if local.exists():
        return local.read_bytes()
    obj = s3.get_object(Bucket=BUCKET, Key=f"docs/{doc_id}")
    body = obj["Body"].read()
    expected = redis_client.get(f"docs:checksum:{doc_id}")
    if expected is not None and hashlib.sha256(body).hexdigest() != expected.decode():
        raise ValueError(f"checksum mismatch for {doc_id}")
    return body


def remove(doc_id: str, owner: str) -> None:
    s3.delete_object(Bucket=BUCKET, Key=f"docs/{doc_id}")
    users_table.delete_item(Key={"owner": owner, "doc_id": doc_id})
    for leftover in SCRATCH.glob(f"{doc_id}.*"):
        os.remove(leftover)
    if SCRATCH.exists() and not any(SCRATCH.iterdir()):
        shutil.rmtree(SCRATCH)
    redis_client.unlink(f"docs:checksum:{doc_id}", f"docs:owner:{doc_id}")
    redis_client.zrem(RECENT_UPLOADS, doc_id)


def recent(limit: int = 50) -> list[bytes]:
    return redis_client.zrevrange(RECENT_UPLOADS, 0, limit - 1)


def tag(doc_id: str, tags: list[str]) -> None:
    key = f"docs:tags:{doc_id}"
    redis_client.sadd(key, *tags)
    redis_client.expire(key, CHECKSUM_TTL + random.randint(0, 3600))


def tags_of(doc_id: str) -> set[bytes]:
    return redis_client.smembers(f"docs:tags:{doc_id}")  # error: CMD005


def owner_profile(owner: str) -> dict[str, Any]:
    item = users_table.get_item(Key={"owner": owner}).get("Item", {})
    item.pop("password_hash", None)
    return item


def inactive_owners() -> list[str]:
    """A DynamoDB scan, page by page: nothing to do with Redis SCAN."""
    owners: list[str] = []
    kwargs: dict[str, Any] = {"FilterExpression": Attr("doc_count").eq(0)}
    while True:
        page = users_table.scan(**kwargs)
        owners.extend(item["owner"] for item in page.get("Items", []))
        if "LastEvaluatedKey" not in page:
            return owners
        kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]


def list_archive(prefix: str = "archive/") -> list[str]:
    names = []
    paginator = s3.get_paginator("list_objects_v2")
    for page in paginator.paginate(Bucket=BUCKET, Prefix=prefix):
        names.extend(obj["Key"] for obj in page.get("Contents", []))
    return names


def purge_scratch(max_age: float = 3600) -> int:
    removed = 0
    now = time.time()
    for path in SCRATCH.glob("*.bin"):
        if now - path.stat().st_mtime > max_age:
            path.unlink()
            removed += 1
    return removed
