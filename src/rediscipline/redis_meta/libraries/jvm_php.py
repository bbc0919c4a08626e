"""Key families of Java and PHP libraries that share Redis with Python services: Spring Session, Spring Cache,
Laravel's cache and queues, and Laravel Horizon.

Laravel prefixes every key of a Redis connection with `options.prefix`, by default the application's slug and
`_database_` (5.8 to 12, `laravel_database_`) or `-database-` (13, `laravel-database-`); the application's name
is a `{name}` so that a renamed application still matches. Its Redis cache store adds the cache prefix: `_cache`
and `:` (5.8 to 9.0), `_cache_` and `:` (9.1 to 10), `_cache_` (11, 12) or `-cache-` (13). With an empty
REDIS_PREFIX its queue keys (`queues:default`) are left to the application: they are not distinctive. Spring
Cache's `{name}::{rest}` claims every key with a `::` after its first level, so it is the last row here.
"""

from __future__ import annotations

from rediscipline.redis_meta.libraries.schema import KeyFamily

_SESSION = (
    "https://github.com/spring-projects/spring-session/blob/main/spring-session-data-redis/src/main/java/org/"
    "springframework/session/data/redis/RedisIndexedSessionRepository.java"
)
_SESSION_ADVICE = (
    "Sessions expire after maxInactiveInterval (default 1800 s; Spring Boot's server.servlet.session.timeout "
    "or @EnableRedisHttpSession(maxInactiveIntervalInSeconds)).",
    "会话在 maxInactiveInterval 后过期（默认 1800 秒；可用 Spring Boot 的 server.servlet.session.timeout "
    "或 @EnableRedisHttpSession(maxInactiveIntervalInSeconds) 设置）。",
)
_QUEUE = "https://github.com/laravel/framework/blob/13.x/src/Illuminate/Queue/RedisQueue.php"
_HORIZON = "https://github.com/laravel/horizon/blob/5.x/src/Repositories/RedisJobRepository.php"
_LARAVEL_QUEUE_ADVICE = (
    "Queue keys live as long as jobs are pending; a growing queue needs more workers, not a TTL.",
    "只要还有待处理任务，队列键就会存在；持续增长的队列需要更多 worker，而不是 TTL。",
)


def _laravel(suffix: str) -> tuple[str, str]:
    """A Laravel key shape under both default database prefixes (`_database_` before 13, `-database-` since)."""
    return ("{name}_database_" + suffix, "{name}-database-" + suffix)


def _horizon(*suffixes: str) -> tuple[str, ...]:
    """Horizon key shapes under both default prefixes (`laravel_horizon:`, and `laravel-horizon:` in newer
    configurations)."""
    return tuple(prefix + suffix for suffix in suffixes for prefix in ("{name}_horizon:", "{name}-horizon:"))


JVM_PHP_FAMILIES: tuple[KeyFamily, ...] = (
    KeyFamily(
        id="spring_session.session",
        library="Spring Session",
        ecosystem="java",
        versions=">=1.0",
        shapes=("spring:session:sessions:{var}",),
        types=frozenset({"hash"}),
        purpose=(
            "One HTTP session: its attributes, creation and last access times.",
            "一个 HTTP 会话：其属性、创建时间和最后访问时间。",
        ),
        persists=False,
        setting="maxInactiveInterval",
        advice=_SESSION_ADVICE,
        examples=("spring:session:sessions:5f1b2c3d-1111-4a2b-9c3d-0123456789ab",),
        docs=_SESSION,
    ),
    KeyFamily(
        id="spring_session.expiry",
        library="Spring Session",
        ecosystem="java",
        versions=">=1.0",
        shapes=(
            "spring:session:sessions:expires:{var}",
            "spring:session:expirations:{int}",
            "spring:session:sessions:expirations",
        ),
        types=frozenset({"string", "set", "zset"}),
        purpose=(
            "Expiry bookkeeping of the indexed repository: a shadow key per session whose expiry event deletes it, "
            "and the sessions due per minute (a sorted set in the reactive one).",
            "索引型仓库的过期记录：每个会话一个影子键（其过期事件触发删除会话），以及按分钟到期的会话"
            "（响应式仓库中为有序集合）。",
        ),
        persists=False,
        setting="maxInactiveInterval",
        advice=_SESSION_ADVICE,
        examples=(
            "spring:session:sessions:expires:5f1b2c3d-1111-4a2b-9c3d-0123456789ab",
            "spring:session:expirations:1718000040000",
            "spring:session:sessions:expirations",
        ),
        docs=_SESSION,
    ),
    KeyFamily(
        id="spring_session.index",
        library="Spring Session",
        ecosystem="java",
        versions=">=1.0",
        shapes=(
            "spring:session:index:{rest}",
            "spring:session:sessions:index:{rest}",
            "spring:session:sessions:{var}:idx",
        ),
        types=frozenset({"set"}),
        purpose=(
            "The sessions of each principal (user name), for FindByIndexNameSessionRepository.",
            "每个主体（用户名）对应的会话，供 FindByIndexNameSessionRepository 使用。",
        ),
        persists=False,
        setting="maxInactiveInterval",
        advice=_SESSION_ADVICE,
        examples=(
            "spring:session:index:org.springframework.session.FindByIndexNameSessionRepository."
            "PRINCIPAL_NAME_INDEX_NAME:alice",
            "spring:session:sessions:5f1b2c3d-1111-4a2b-9c3d-0123456789ab:idx",
        ),
        docs=_SESSION,
    ),
    KeyFamily(
        id="laravel.cache",
        library="Laravel",
        ecosystem="php",
        versions=">=5.8",
        shapes=(
            "{name}_database_{name}_cache:{rest}",
            "{name}_database_{name}_cache_{rest}",
            "{name}-database-{name}-cache-{rest}",
        ),
        types=frozenset({"string", "zset", "set"}),
        purpose=(
            "Entries of the Redis cache store (Cache::put, remember, locks, rate limiter hits, tag sets, and "
            "sessions with SESSION_DRIVER=redis).",
            "Redis 缓存存储中的条目（Cache::put、remember、锁、限流计数、标签集合，"
            "以及 SESSION_DRIVER=redis 时的会话）。",
        ),
        persists=False,
        setting="ttl",
        advice=(
            "Pass the ttl argument to Cache::put/remember (Cache::forever and rememberForever never expire); "
            "sessions expire after session.lifetime (default 120 minutes).",
            "在 Cache::put/remember 中传入 ttl 参数（Cache::forever 和 rememberForever 永不过期）；会话在 "
            "session.lifetime（默认 120 分钟）后过期。",
        ),
        examples=(
            "laravel_database_laravel_cache:users.count",
            "laravel_database_laravel_cache_:tag:users:entries",
            "laravel_database_laravel_cache_illuminate:queue:restart",
            "laravel-database-laravel-cache-vJ8s1Yq2Lw9oP3xZ4cR7tK0mN5bH6gF2aD1eS8uI",
        ),
        docs="https://github.com/laravel/framework/blob/13.x/src/Illuminate/Cache/RedisStore.php",
    ),
    KeyFamily(
        id="laravel.queue",
        library="Laravel",
        ecosystem="php",
        versions=">=5.8",
        shapes=_laravel("queues:{name}") + _laravel("queues:{name}:notify"),
        types=frozenset({"list"}),
        purpose=(
            "A queue's pending jobs and the notify list blocking workers wait on (block_for).",
            "队列中待处理的任务，以及阻塞等待的 worker 所用的通知列表（block_for）。",
        ),
        persists=True,
        setting="",
        advice=_LARAVEL_QUEUE_ADVICE,
        examples=("laravel_database_queues:default", "laravel-database-queues:{emails}:notify"),
        docs=_QUEUE,
    ),
    KeyFamily(
        id="laravel.queue_delayed",
        library="Laravel",
        ecosystem="php",
        versions=">=5.8",
        shapes=_laravel("queues:{name}:delayed"),
        types=frozenset({"zset"}),
        purpose=(
            "Jobs dispatched with a delay or released for a retry, scored by when they become due.",
            "延迟派发或被释放等待重试的任务，按到期时间排序。",
        ),
        persists=True,
        setting="backoff",
        advice=(
            "Entries move back to the queue when due; a job's tries and backoff bound how often it returns here.",
            "条目到期后会回到队列；任务的 tries 和 backoff 决定它返回这里的次数。",
        ),
        examples=("laravel_database_queues:default:delayed",),
        docs=_QUEUE,
    ),
    KeyFamily(
        id="laravel.queue_reserved",
        library="Laravel",
        ecosystem="php",
        versions=">=5.8",
        shapes=_laravel("queues:{name}:reserved"),
        types=frozenset({"zset"}),
        purpose=(
            "Jobs a worker has taken, scored by when they are retried if the worker does not finish.",
            "已被 worker 取走的任务，按 worker 未完成时的重试时间排序。",
        ),
        persists=True,
        setting="retry_after",
        advice=(
            "A reserved job returns to the queue after retry_after (default 90 s in config/queue.php); "
            "failed jobs go to queue.failed, outside Redis.",
            "被保留的任务在 retry_after（config/queue.php 中默认 90 秒）后回到队列；失败任务进入 Redis 之外的 "
            "queue.failed。",
        ),
        examples=("laravel_database_queues:default:reserved", "laravel-database-queues:default:reserved"),
        docs=_QUEUE,
    ),
    KeyFamily(
        id="horizon.job",
        library="Laravel Horizon",
        ecosystem="php",
        versions=">=1.0",
        shapes=_horizon("{var}"),
        types=frozenset({"hash"}),
        purpose=(
            "One job as the Horizon dashboard shows it: payload, status, timings, exception.",
            "Horizon 面板中显示的单个任务：负载、状态、耗时和异常。",
        ),
        persists=False,
        setting="trim",
        advice=(
            "Horizon expires job records after horizon.trim (minutes: recent and completed 60, failed 10080).",
            "Horizon 按 horizon.trim 使任务记录过期（单位分钟：recent 和 completed 为 60，failed 为 10080）。",
        ),
        examples=("laravel_horizon:7d4c8f1e-2860-4f1c-9d3b-6e1a2b3c4d5e", "laravel-horizon:42"),
        docs=_HORIZON,
    ),
    KeyFamily(
        id="horizon.job_index",
        library="Laravel Horizon",
        ecosystem="php",
        versions=">=1.0",
        shapes=_horizon(
            "recent_jobs",
            "pending_jobs",
            "completed_jobs",
            "silenced_jobs",
            "failed_jobs",
            "recent_failed_jobs",
            "monitored_jobs",
            "job_id",
        ),
        types=frozenset({"zset", "string"}),
        purpose=(
            "The dashboard's job lists by state, trimmed by age.",
            "面板中按状态划分的任务列表，按时间裁剪。",
        ),
        persists=True,
        setting="trim",
        advice=(
            "Horizon trims each list by horizon.trim (minutes: recent, pending and completed 60, failed and "
            "monitored 10080).",
            "Horizon 按 horizon.trim 裁剪各列表（单位分钟：recent、pending、completed 为 60，failed 和 "
            "monitored 为 10080）。",
        ),
        examples=("laravel_horizon:recent_jobs", "laravel-horizon:failed_jobs"),
        docs=_HORIZON,
    ),
    KeyFamily(
        id="horizon.metrics",
        library="Laravel Horizon",
        ecosystem="php",
        versions=">=1.0",
        shapes=_horizon(
            "measured_jobs",
            "measured_queues",
            "last_snapshot_at",
            "job:{rest}",
            "queue:{rest}",
            "snapshot:{rest}",
            "metrics:snapshot",
        ),
        types=frozenset({"set", "hash", "zset", "string"}),
        purpose=(
            "Throughput and runtime per job class and queue, and their periodic snapshots.",
            "按任务类和队列统计的吞吐量与运行时间，及其定期快照。",
        ),
        persists=True,
        setting="metrics.trim_snapshots",
        advice=(
            "Snapshots are trimmed to horizon.metrics.trim_snapshots (24 per job and queue by default); "
            "schedule horizon:snapshot to take them.",
            "快照按 horizon.metrics.trim_snapshots 裁剪（默认每个任务和队列 24 个）；"
            "需调度 horizon:snapshot 生成快照。",
        ),
        examples=("laravel_horizon:measured_jobs", "laravel_horizon:snapshot:job:App\\Jobs\\SendEmail"),
        docs="https://github.com/laravel/horizon/blob/5.x/src/Repositories/RedisMetricsRepository.php",
    ),
    KeyFamily(
        id="horizon.supervisor",
        library="Laravel Horizon",
        ecosystem="php",
        versions=">=1.0",
        shapes=_horizon("masters", "supervisors", "master:{rest}", "supervisor:{rest}", "commands:{rest}"),
        types=frozenset({"zset", "hash", "list"}),
        purpose=(
            "The running master and supervisor processes, their state and pending commands.",
            "运行中的 master 和 supervisor 进程、其状态以及待执行的命令。",
        ),
        persists=False,
        setting="",
        advice=(
            "Horizon refreshes these with a 15-30 s TTL while its processes run.",
            "Horizon 进程运行期间会以 15-30 秒的 TTL 刷新这些键。",
        ),
        examples=("laravel_horizon:masters", "laravel_horizon:supervisor:web-1-AbCd:supervisor-1"),
        docs="https://github.com/laravel/horizon/blob/5.x/src/Repositories/RedisSupervisorRepository.php",
    ),
    KeyFamily(
        id="horizon.tag",
        library="Laravel Horizon",
        ecosystem="php",
        versions=">=1.0",
        shapes=_horizon("{rest}"),
        types=frozenset({"string", "hash", "list", "set", "zset"}),  # every key under its prefix
        purpose=(
            "Monitored tags, the jobs of each tag and Horizon's own locks (any other key under its prefix).",
            "受监控的标签、每个标签下的任务以及 Horizon 自身的锁（其前缀下的其他键）。",
        ),
        persists=False,
        setting="trim",
        advice=(
            "Tag lists follow horizon.trim; stop monitoring a tag in the dashboard to drop its list.",
            "标签列表遵循 horizon.trim；在面板中停止监控某标签即可删除其列表。",
        ),
        examples=("laravel_horizon:monitoring", "laravel_horizon:App\\Models\\User:1"),
        docs="https://github.com/laravel/horizon/blob/5.x/src/Repositories/RedisTagRepository.php",
    ),
    KeyFamily(
        id="spring_cache.entry",
        library="Spring Cache",
        ecosystem="java",
        versions=">=2.0",
        shapes=("{name}::{rest}",),
        types=frozenset({"string"}),
        purpose=(
            "A @Cacheable entry of RedisCacheManager: the cache name, `::` and the cache key.",
            "RedisCacheManager 的 @Cacheable 缓存条目：缓存名、`::` 和缓存键。",
        ),
        persists=False,
        setting="entryTtl",
        advice=(
            "Set RedisCacheConfiguration.entryTtl (Spring Boot: spring.cache.redis.time-to-live); the default "
            "Duration.ZERO keeps entries forever.",
            "设置 RedisCacheConfiguration.entryTtl（Spring Boot：spring.cache.redis.time-to-live）；"
            "默认值 Duration.ZERO 会永久保留条目。",
        ),
        examples=("users::42", "productCache::SimpleKey []"),
        docs=(
            "https://github.com/spring-projects/spring-data-redis/blob/main/src/main/java/org/springframework/data/"
            "redis/cache/CacheKeyPrefix.java"
        ),
        type_required=True,
    ),
)
