"""Bulk reads and clean-ups: multi-key commands, commands in loops, and pipelines."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from issue_list.connection import async_client, jittered, redis_client

PREFERENCE_FIELDS = [f"pref_{n}" for n in range(120)]
SHARDS = 1024
PAGE = 50


def chunks(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# ---- MGET/MSET/HMGET/DEL with more than 100 keys when the size is visible ---------------------------------


def load_first_users() -> list[bytes | None]:
    return redis_client.mget([f"cache:user:{uid}" for uid in range(1, 501)])  # error: BAT001


def load_preferences(uid: int) -> list[bytes | None]:
    return redis_client.hmget(f"user:profile:{uid}", PREFERENCE_FIELDS)  # error: BAT001


def drop_export_parts(export_id: str) -> None:
    redis_client.delete(*[f"tmp:export:{export_id}:{part}" for part in range(2000)])  # error: BAT001


def reset_feature_flags() -> None:
    redis_client.mset({f"cache:flag:{n}": 0 for n in range(300)})  # error: BAT001, TTL006


async def drop_uploads(upload_id: str) -> None:
    await async_client.delete(*(f"tmp:upload:{upload_id}:{n}" for n in range(400)))  # error: BAT001


def load_first_page() -> list[bytes | None]:
    return redis_client.mget([f"cache:user:{uid}" for uid in range(1, PAGE + 1)])


def load_users(uids: Sequence[str]) -> list[bytes | None]:
    found: list[bytes | None] = []
    for chunk in chunks(uids, 100):
        found.extend(redis_client.mget([f"cache:user:{uid}" for uid in chunk]))
    return found


def load_contact_fields(uid: int) -> list[bytes | None]:
    return redis_client.hmget(f"user:profile:{uid}", ["name", "email", "phone"])


# ---- a command inside a loop over a large iterable ------------------------------------------------------


def read_all_users() -> list[bytes | None]:
    users = []
    for uid in range(10_000):
        users.append(redis_client.get(f"cache:user:{uid}"))  # error: BAT002
    return users


def purge_last_year() -> None:
    for day in range(365):
        redis_client.unlink(f"stats:daily:{day}")  # error: BAT002


class ShardJanitor:
    def __init__(self) -> None:
        self.redis = redis_client

    def sweep(self) -> None:
        for shard in range(SHARDS):
            self.redis.unlink(f"tmp:shard:{shard}")  # error: BAT002

    def sweep_slots(self) -> None:
        for shard in range(64):
            for slot in range(32):
                self.redis.unlink(f"tmp:shard:{shard}:{slot}")  # error: BAT002


def read_regions() -> dict[str, bytes | None]:
    return {region: redis_client.get(f"cache:region:{region}") for region in ("north", "south", "east", "west")}


def read_recent_days() -> list[bytes | None]:
    totals = []
    for day in range(7):
        totals.append(redis_client.get(f"stats:daily:{day}"))
    return totals


# ---- a pipeline that accumulates more than 200 commands before execute() --------------------------------


def read_all_users_pipelined() -> list[bytes | None]:
    pipe = redis_client.pipeline(transaction=False)
    for uid in range(1000):
        pipe.get(f"cache:user:{uid}")
    return pipe.execute()  # error: BAT003


def purge_exports_pipelined(export_id: str) -> None:
    with redis_client.pipeline(transaction=False) as pipe:
        for part in range(500):
            pipe.unlink(f"tmp:export:{export_id}:{part}")
        pipe.execute()  # error: BAT003


async def warm_counters_pipelined() -> None:
    pipe = async_client.pipeline(transaction=False)
    for n in range(300):
        pipe.set(f"stats:counter:{n}", 0, ex=jittered(3600))
    await pipe.execute()  # error: BAT003


def read_users_pipelined(uids: Sequence[str]) -> list[bytes | None]:
    found: list[bytes | None] = []
    for chunk in chunks(uids, 50):
        with redis_client.pipeline(transaction=False) as pipe:
            for uid in chunk:
                pipe.get(f"cache:user:{uid}")
            found.extend(pipe.execute())
    return found


def read_first_users_pipelined() -> list[bytes | None]:
    pipe = redis_client.pipeline(transaction=False)
    for uid in range(100):
        pipe.get(f"cache:user:{uid}")
    return pipe.execute()


# ---- transactions (transaction=True, multi) --------------------------------------------------------------


def move_to_paid(order_id: str) -> None:
    pipe = redis_client.pipeline(transaction=True)  # error: CMD007
    pipe.srem("order:pending", order_id)
    pipe.sadd("order:paid", order_id)
    pipe.expire("order:paid", jittered(3600))
    pipe.execute()


def reserve_stock(sku: str, quantity: int) -> bool:
    key = f"product:stock:{sku}"
    with redis_client.pipeline() as pipe:
        pipe.watch(key)
        available = int(pipe.get(key) or 0)
        if available < quantity:
            return False
        pipe.multi()  # error: CMD007
        pipe.decrby(key, quantity)
        pipe.execute()
    return True


class Ledger:
    def __init__(self) -> None:
        self.redis = redis_client

    def transfer(self, source: str, target: str, amount: int) -> None:
        with self.redis.pipeline(transaction=True) as pipe:  # error: CMD007
            # HINCRBY creates the hash when it is missing: 001 §2.3 wants a TTL on every key (TTL006 doc)
            pipe.hincrby(f"user:profile:{source}", "balance", -amount)  # error: TTL006
            pipe.hincrby(f"user:profile:{target}", "balance", amount)  # error: TTL006
            pipe.execute()

    def record_views(self, post_ids: Sequence[str]) -> None:
        with self.redis.pipeline(transaction=False) as pipe:
            for post_id in post_ids[:100]:
                pipe.incr(f"stats:views:{post_id}")
                pipe.expire(f"stats:views:{post_id}", jittered(3600))
            pipe.execute()
