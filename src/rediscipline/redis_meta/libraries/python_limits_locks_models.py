"""Key families of Python rate limiters, locks, object mappers and channel layers: limits (and Flask-Limiter and
slowapi, which store through it), python-redis-lock, pottery, redis-om and channels-redis.

Read from limits 1.6 to 5.8 (`limits/limits.py`, `limits/storage/redis.py`), python-redis-lock 4.0, pottery 3.0,
redis-om 0.3 to 1.2 (`aredis_om/model/model.py`, `aredis_om/model/migrations/`) and channels-redis 2.4 to 4.3,
and checked by running each against a real server. Left out on purpose: Flask-Session (`session:<id>`) and
python-redis-lock's lock itself (`lock:<name>`) have shapes any application key can take; redis-py's own Lock
writes the key the application names, so it has no row.
"""

from __future__ import annotations

from functools import partial

from rediscipline.redis_meta.libraries.schema import KeyFamily

_limits = partial(KeyFamily, library="limits", ecosystem="python")
_python_redis_lock = partial(KeyFamily, library="python-redis-lock", ecosystem="python")
_pottery = partial(KeyFamily, library="pottery", ecosystem="python")
_redis_om = partial(KeyFamily, library="redis-om", ecosystem="python")
_channels_redis = partial(KeyFamily, library="channels-redis", ecosystem="python")

_LIMITS = "https://github.com/alisaifee/limits/blob/master/limits/storage/redis.py"
_LIMITS_ADVICE = (
    "Expires with its window (one hour for `100/hour`); the storage option `key_prefix` (default `LIMITS`; "
    "Flask-Limiter's `RATELIMIT_STORAGE_OPTIONS`, slowapi's `storage_options`) names the keys.",
    "随限流窗口过期（`100/hour` 即一小时）；存储选项 `key_prefix`（默认 `LIMITS`；Flask-Limiter 用 "
    "`RATELIMIT_STORAGE_OPTIONS`，slowapi 用 `storage_options`）决定键名前缀。",
)

LIMITS: tuple[KeyFamily, ...] = (
    _limits(
        id="limits.sliding_window",
        versions=">=4.1",
        shapes=(
            "LIMITS:{{LIMITER/{rest}}}",
            "LIMITS:{{LIMITER/{rest}}}/-1",
            "LIMITS:{{{rest}}}",
            "LIMITS:{{{rest}}}/-1",
        ),
        types=frozenset({"string"}),
        purpose=(
            "Sliding-window counter: the current and previous window of one limit.",
            "滑动窗口计数：某个限流项的当前窗口和上一个窗口。",
        ),
        persists=False,
        setting="key_prefix",
        advice=_LIMITS_ADVICE,
        examples=("LIMITS:{LIMITER/slidingwindowcounterratelimiter/user@example.com/10/1/minute}",),
        docs=_LIMITS,
    ),
    _limits(
        id="limits.window",
        versions=">=4.0",
        shapes=("LIMITS:LIMITER/{rest}", "LIMITS:{name}/{rest}"),  # the rate-limit namespace, LIMITER unless set
        types=frozenset({"string", "list"}),
        purpose=(
            "Fixed-window counter (a string) or moving-window log (a list) of one limit and caller.",
            "某个限流项和调用方的固定窗口计数（字符串）或移动窗口日志（列表）。",
        ),
        persists=False,
        setting="key_prefix",
        advice=_LIMITS_ADVICE,
        examples=(
            "LIMITS:LIMITER/fixedwindowratelimiter/user@example.com/10/1/minute",
            "LIMITS:LIMITER/127.0.0.1/a/5/1/minute",
        ),
        docs=_LIMITS,
    ),
    _limits(
        id="limits.window_unprefixed",
        versions="<4.0",
        shapes=("LIMITER/{rest}",),
        types=frozenset({"string", "list"}),
        purpose=(
            "Fixed- or moving-window state of one limit and caller (limits before 4.0, no storage prefix).",
            "某个限流项和调用方的固定或移动窗口状态（limits 4.0 之前，没有存储前缀）。",
        ),
        persists=False,
        setting="",
        advice=(
            "Expires with its window (one hour for `100/hour`).",
            "随限流窗口过期（`100/hour` 即一小时）。",
        ),
        examples=("LIMITER/127.0.0.1/10/1/minute",),
        docs="https://github.com/alisaifee/limits/blob/master/limits/limits.py",
    ),
)

LOCKS: tuple[KeyFamily, ...] = (
    _python_redis_lock(
        id="python-redis-lock.signal",
        versions=">=3.0",
        shapes=("lock-signal:{rest}",),
        types=frozenset({"list"}),
        purpose=("Wakes the waiters of a released lock.", "锁释放后唤醒等待者。"),
        persists=False,
        setting="signal_expire",
        advice=(
            "Expires after `signal_expire` (default 1,000 ms); give the lock itself an `expire`, which is none by "
            "default.",
            "在 `signal_expire`（默认 1000 毫秒）后过期；锁本身也应设置 `expire`，其默认不过期。",
        ),
        examples=("lock-signal:reports",),
        docs="https://github.com/ionelmc/python-redis-lock/blob/master/src/redis_lock/__init__.py",
    ),
    _pottery(
        id="pottery.redlock",
        versions=">=1.0",
        shapes=("redlock:{rest}",),
        types=frozenset({"string"}),
        purpose=("A Redlock distributed lock.", "Redlock 分布式锁。"),
        persists=False,
        setting="auto_release_time",
        advice=("Expires after `auto_release_time` (default 10 s).", "在 `auto_release_time`（默认 10 秒）后过期。"),
        examples=("redlock:printer",),
        docs="https://github.com/brainix/pottery/blob/master/pottery/redlock.py",
    ),
    _pottery(
        id="pottery.nextid",
        versions=">=1.0",
        shapes=("nextid:{rest}",),
        types=frozenset({"string"}),
        purpose=("A NextID counter that hands out unique ids.", "NextID 计数器，用于分配唯一 id。"),
        persists=True,
        setting="",
        advice=("Kept on purpose: dropping it would hand out ids again.", "有意长期保留：删除后会重复分配 id。"),
        examples=("nextid:current", "nextid:tweet-ids"),
        docs="https://github.com/brainix/pottery/blob/master/pottery/nextid.py",
    ),
    _pottery(
        id="pottery.random_key",
        versions=">=1.0",
        shapes=("pottery:{uuid}",),
        types=frozenset({"string", "hash", "list", "set", "zset"}),
        purpose=(
            "A container created without a key (deleted when the Python object is).",
            "未指定键名时创建的容器（Python 对象销毁时删除）。",
        ),
        persists=False,
        setting="key",
        advice=(
            "Left behind when the process dies: give containers a `key` and a TTL, or clean `pottery:*` keys.",
            "进程崩溃时会残留：为容器指定 `key` 并设置过期时间，或清理 `pottery:*` 键。",
        ),
        examples=("pottery:f957bc37-c5cd-4ffb-ae9e-68d5d0b6033c",),
        docs="https://github.com/brainix/pottery/blob/master/pottery/base.py",
    ),
)

_REDIS_OM = "https://github.com/redis/redis-om-python/blob/main/aredis_om/model/"

REDIS_OM: tuple[KeyFamily, ...] = (
    _redis_om(
        id="redis-om.index_meta",
        versions=">=0.1",
        shapes=(":{name}.{name}:index:hash", ":{name}.{name}:index:schema"),
        types=frozenset({"string"}),
        purpose=("The hash and text of a model's search index schema.", "模型搜索索引模式的哈希值和文本。"),
        persists=True,
        setting="",
        advice=("Kept on purpose by the migrator.", "由迁移工具有意长期保留。"),
        examples=(":__main__.Customer:index:hash", ":app.models.Customer:index:schema"),
        docs=_REDIS_OM + "migrations/schema/legacy_migrator.py",
    ),
    _redis_om(
        id="redis-om.migrations",
        versions=">=1.1",
        shapes=("redis_om:applied_migrations", "redis_om:schema_applied_migrations", "redis_om:migration_state:{rest}"),
        types=frozenset({"set", "string", "hash"}),
        purpose=("Which data and schema migrations have run.", "已执行的数据迁移和模式迁移。"),
        persists=True,
        setting="",
        advice=("Kept on purpose by the migrator.", "由迁移工具有意长期保留。"),
        examples=("redis_om:applied_migrations", "redis_om:schema_applied_migrations"),
        docs=_REDIS_OM + "migrations/data/migrator.py",
    ),
    _redis_om(
        id="redis-om.model",
        versions=">=0.1",
        shapes=(":{name}.{name}:{var}",),
        types=frozenset({"hash", "ReJSON-RL"}),
        purpose=(
            "One HashModel (hash) or JsonModel (JSON) instance, keyed by module.Class and its ULID.",
            "单个 HashModel（哈希）或 JsonModel（JSON）实例，键名为 模块.类名 加 ULID。",
        ),
        persists=True,
        setting="",
        advice=(
            "Application data, kept until deleted; `model.expire(seconds)` sets a TTL, and `Meta.global_key_prefix` "
            "(default empty, hence the leading colon) namespaces the keys.",
            "属于应用数据，删除前一直保留；`model.expire(seconds)` 可设置过期时间，`Meta.global_key_prefix`"
            "（默认为空，因此键名以冒号开头）可为键名加命名空间。",
        ),
        examples=(":__main__.Customer:01M8EPZ7MCEY3HKVQCTGE9H0XJ",),
        docs=_REDIS_OM + "model.py",
    ),
)

_CHANNELS = "https://github.com/django/channels_redis/blob/main/channels_redis/core.py"

CHANNELS_REDIS: tuple[KeyFamily, ...] = (
    _channels_redis(
        id="channels-redis.group",
        versions=">=2.0",
        shapes=("asgi:group:{name}",),
        types=frozenset({"zset"}),
        purpose=("The channels in one group, by when they joined.", "某个组中的 channel，按加入时间排列。"),
        persists=False,
        setting="group_expiry",
        advice=("Expires after `group_expiry` (default 86,400 s).", "在 `group_expiry`（默认 86400 秒）后过期。"),
        examples=("asgi:group:chat_lobby",),
        docs=_CHANNELS,
    ),
    _channels_redis(
        id="channels-redis.channel",
        versions=">=3.0",
        shapes=("asgispecific.{hex}!", "{prefix}specific.{hex}!"),
        types=frozenset({"zset"}),
        purpose=(
            "Messages waiting for the consumers of one server process.",
            "等待某个服务进程中消费者处理的消息。",
        ),
        persists=False,
        setting="expiry",
        advice=(
            "Expires after `expiry` (default 60 s); at most `capacity` messages (default 100).",
            "在 `expiry`（默认 60 秒）后过期；最多保存 `capacity` 条消息（默认 100）。",
        ),
        examples=("asgispecific.d29ccc7972594a01904b270b78fc34f2!",),
        docs=_CHANNELS,
        proves_prefix=True,
    ),
)
