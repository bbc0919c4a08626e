"""Every external client the platform uses, built once at import time.

Most of them have methods named like Redis commands (`get`, `set`, `delete`, `scan`, `incr`, `mget`,
`touch`, `copy`); only `redis_client` is Redis.
"""

from __future__ import annotations

import logging
import os

import boto3
import httpx
import memcache
import redis
from elasticsearch import Elasticsearch
from pymemcache.client.base import PooledClient
from sqlalchemy import create_engine
from sqlalchemy.orm import sessionmaker

log = logging.getLogger(__name__)

REDIS_URL = os.environ.get("REDIS_URL", "redis://localhost:6379/0")
BUCKET = os.environ.get("DOCS_BUCKET", "platform-docs")

s3 = boto3.client("s3", region_name=os.environ.get("AWS_REGION", "eu-west-1"))
dynamodb = boto3.resource("dynamodb")
users_table = dynamodb.Table("platform-users")
rds = boto3.client("rds")
es = Elasticsearch(os.environ.get("ES_URL", "http://localhost:9200"), request_timeout=10)
memcached = PooledClient(("memcached", 11211), connect_timeout=1, timeout=1, max_pool_size=8)
legacy_mc = memcache.Client(["127.0.0.1:11211"], debug=0)
engine = create_engine(os.environ.get("DATABASE_URL", "postgresql+psycopg://localhost/platform"))
SessionLocal = sessionmaker(bind=engine, expire_on_commit=False)
http = httpx.Client(timeout=5.0, headers={"User-Agent": "platform-sync/2"})

redis_options: dict[str, object] = {"socket_timeout": 1.0, "health_check_interval": 30}
redis_options.update(
    {name[len("REDIS_OPT_") :].lower(): value for name, value in os.environ.items() if name.startswith("REDIS_OPT_")}
)
redis_client = redis.Redis.from_url(REDIS_URL, **redis_options)


def redis_settings() -> list[str]:
    """What the client was built with, for the /debug page (a dict, not a Redis KEYS)."""
    shown = sorted(redis_options.keys())
    redis_options.pop("password", None)
    return shown


def enable_expiry_events() -> None:
    """The sync worker listens for expired keys; the ops team never enabled the notifications."""
    redis_client.config_set("notify-keyspace-events", "Ex")  # error: CMD004


def health() -> dict[str, bool]:
    status = {}
    status["redis"] = bool(redis_client.ping())
    status["elasticsearch"] = bool(es.ping())
    status["memcached"] = bool(memcached.version())
    status["s3"] = s3.head_bucket(Bucket=BUCKET)["ResponseMetadata"]["HTTPStatusCode"] == 200
    snapshots = rds.describe_db_snapshots(DBInstanceIdentifier="platform", MaxRecords=20)
    status["rds"] = bool(snapshots.get("DBSnapshots"))
    info = redis_client.info("memory")
    log.info("redis used_memory=%s", info.get("used_memory_human"))
    return status


def close_all() -> None:
    http.close()
    memcached.close()
    legacy_mc.disconnect_all()
    es.close()
    redis_client.close()
    engine.dispose()
