"""Families under a library's configurable prefix whose shape after the prefix an application's key can take.

A job hash `<prefix>:<queue>:<id>`, a queue list `<prefix><queue>`, a cache entry `<prefix>:<version>:<key>`:
under the library's default prefix the rows of each library claim them, but under a prefix the application
chose they look like the application's own keys. So these rows claim such keys only once a key of the same
library has proved the prefix in the same run (a row with `proves_prefix`: Django's page cache under
`KEY_PREFIX`, kombu's bindings under `global_keyprefix`, dramatiq's `.DQ` queues under its namespace, a BullMQ
queue's `stalled-check` under its `prefix`, rq's `:clean_registries:` under `RQ_KEY_PREFIX`). Each row is its
library's family under another id, with the same purpose, persistence and advice; they come last in the
catalog's order, after BullMQ's jobs whose id is a word (`NAMED_JOBS`), which must follow every other row.
"""

from __future__ import annotations

from dataclasses import replace

from rediscipline.redis_meta.libraries.node import BULL_FAMILIES
from rediscipline.redis_meta.libraries.python_caches import CACHEOPS, DJANGO, FLASK_CACHING
from rediscipline.redis_meta.libraries.python_celery import KOMBU, REDBEAT
from rediscipline.redis_meta.libraries.python_dramatiq import DRAMATIQ
from rediscipline.redis_meta.libraries.python_limits_locks_models import CHANNELS_REDIS
from rediscipline.redis_meta.libraries.python_rq import RQ
from rediscipline.redis_meta.libraries.schema import KeyFamily

_BY_ID = {
    family.id: family
    for family in (
        *DJANGO,
        *FLASK_CACHING,
        *CACHEOPS,
        *KOMBU,
        *REDBEAT,
        *DRAMATIQ,
        *RQ,
        *CHANNELS_REDIS,
        *BULL_FAMILIES,
    )
}


def _under_prefix(
    family_id: str,
    shapes: tuple[str, ...],
    examples: tuple[str, ...],
    *,
    proves: bool = False,
    types: frozenset[str] | None = None,
) -> KeyFamily:
    family = _BY_ID[family_id]
    return replace(
        family,
        types=family.types if types is None else types,
        id=f"{family_id}_{'proving' if proves else 'under'}_prefix",
        shapes=shapes,
        examples=examples,
        type_required=False,
        proves_prefix=proves,
    )


#: BullMQ jobs whose id the application chose (`bull:emails:invoice-1042`): after every row of a queue's own
#: keys, so `bull:<queue>:meta` and the other bookkeeping keys stay theirs.
NAMED_JOBS: tuple[KeyFamily, ...] = (
    replace(
        _BY_ID["bullmq.job"],
        id="bullmq.job_named",
        shapes=("bull:{name}:{name}", "bull:{name}:{name}:logs"),
        types=frozenset({"hash", "list"}),
        examples=("bull:emails:invoice-9831692", "bull:emails:invoice-9831692:logs"),
    ),
)

#: Rows that prove a BullMQ prefix: a queue's bookkeeping keys, whose suffixes no application writes.
PROVING: tuple[KeyFamily, ...] = (
    _under_prefix(
        "bullmq.scheduled",
        ("{prefix}:{name}:waiting-children", "{prefix}:{name}:marker", "{prefix}:{name}:prioritized"),
        ("shop:emails:waiting-children", "shop:emails:marker"),
        proves=True,
    ),
    _under_prefix(
        "bullmq.queue_state", ("{prefix}:{name}:stalled-check",), ("shop:emails:stalled-check",), proves=True
    ),
)

#: Rows that claim keys only under a prefix another key of their library proved.
UNDER_PREFIX: tuple[KeyFamily, ...] = (
    _under_prefix("django.cache", ("{prefix}:{int}:{rest}",), ("shop:3:user_profile_1042",)),
    _under_prefix("flask-caching.memoize", ("{prefix}{token}",), ("shopfront:+05b6Sthl3+bmkzJvn+A9y",)),
    _under_prefix(
        "django-cacheops.queryset",
        ("{prefix}q:{hex}", "{prefix}q:{hex}:signal"),
        ("crm:q:5d41402abc4b2a76b9719d911017c592",),
    ),
    _under_prefix("django-cacheops.schemes", ("{prefix}schemes:{name}",), ("crm:schemes:auth_user",)),
    _under_prefix("kombu.default_queue", ("{prefix}{name}",), ("shop:analytics",)),
    _under_prefix("dramatiq.messages", ("{prefix}:{name}.msgs",), ("shop-tasks:default.msgs",)),
    _under_prefix("dramatiq.queue", ("{prefix}:{name}",), ("shop-tasks:default",)),
    _under_prefix("rq.job", ("{prefix}:job:{name}",), ("myapp:job:0f0e7d7c-b98b-482e-8d34-94eab22686ae",)),
    _under_prefix("rq.results", ("{prefix}:results:{name}",), ("myapp:results:0f0e7d7c-b98b-482e-8d34-94eab22686ae",)),
    _under_prefix("rq.queue", ("{prefix}:queue:{name}",), ("myapp:queue:default",)),
    _under_prefix("celery-redbeat.entry", ("{prefix}:{name}",), ("shop-beat:report-account-9906",)),
    _under_prefix("channels-redis.group", ("{prefix}:group:{name}",), ("chat:group:lobby",)),
    _under_prefix(
        "bullmq.queue_state",
        tuple(f"{{prefix}}:{{name}}:{suffix}" for suffix in ("meta", "id", "pc", "stalled")),
        ("shop:emails:meta", "shop:emails:id"),
    ),
    _under_prefix(
        "bullmq.queue_lists",
        ("{prefix}:{name}:wait", "{prefix}:{name}:active", "{prefix}:{name}:paused"),
        ("shop:emails:wait",),
    ),
    _under_prefix(
        "bullmq.finished", ("{prefix}:{name}:completed", "{prefix}:{name}:failed"), ("shop:emails:completed",)
    ),
    _under_prefix("bullmq.scheduled", ("{prefix}:{name}:delayed",), ("shop:emails:delayed",)),
    _under_prefix("bullmq.events", ("{prefix}:{name}:events",), ("shop:emails:events",)),
    # Under a proved prefix a job id may be a word the application chose (`invoice-1042`): a queue's own keys
    # (`meta`, `wait`...) are claimed by the rows before.
    _under_prefix(
        "bullmq.job",
        ("{prefix}:{name}:{name}", "{prefix}:{name}:{rest}:logs"),
        ("shop:emails:1042", "shop:emails:invoice-1042:logs"),
        types=frozenset({"hash", "list"}),  # the job and its log lines: a string under the prefix is another's
    ),
)
