"""Key families written by client libraries: one data row per family, for every library the catalog knows.

Most keys in production are written by a library (a task queue, a cache, a session store, a rate limiter), in a
shape nobody on the team chose and that only the library's configuration can change. A row says which keys a
family holds (`shapes`), what the library keeps in them, whether they are meant to persist (a queue, a
registry, a schedule) or to expire (a result, a cache entry, a session), and the library's own setting that
bounds their lifetime or size: what a report names instead of generic advice.

Shape syntax. A shape is the key written literally, with fields in braces for its variable parts; it matches a
whole key (or key template) and nothing else:

- `{var}`   one generated identifier: a number, UUID, hex digest, random token, ULID, date, e-mail or address
            (exactly one variable part of an inferred key; never a literal word).
- `{name}`  a name the application chose (a queue, a cache, a task, a view): one or more bytes without `:`,
            literal words or variable parts.
- `{rest}`  anything, `:` included (one or more bytes): the tail a library appends verbatim (a cache key the
            application chose, a URL).
- `{int}`, `{uuid}`, `{hex}`, `{token}`, `{date}`: one variable part of that kind only (use them only where `{var}`
            would claim keys that are not the library's).
- `{{` and `}}` stand for literal braces (Redis Cluster hash tags in a shape: `bull:{{{name}}}:wait`).
- `{prefix}`  only at the start: the library's configurable prefix or namespace (one or more bytes). A row
            whose keys are distinctive after it (`{prefix}:{int}:views.decorators.cache.cache_page.{rest}`)
            says `proves_prefix=True`: its keys prove the prefix is the library's. Rows whose shape after the
            prefix an application's key could take (`{prefix}:{int}:{rest}`) claim keys only under a prefix
            proved in the same run.

Everything else is literal bytes. A shape should be as specific as the library's real format allows: a row
claims every key its shapes match, so a shape that an application's own keys can take (`session:{var}`) is
only acceptable with the library's distinctive parts (`session:{token}` with the library's token length is
still too generic: prefer leaving such a family out), or with `type_required` where the Redis type alone
tells it apart (a bare `retry` zset). A library's prefix option (`KEY_PREFIX`, `global_keyprefix`,
`namespace`) is a `{prefix}` in front of the rest of the key, written only where that rest is the library's
own (`{prefix}:{int}:views.decorators.cache.cache_page.{rest}`, `{prefix}::schedule`; such rows prove the
prefix), never where an application's key could take it (`{prefix}:{int}:{rest}` is `user:1:profile`) unless
the row waits for the prefix to be proved.
"""

from __future__ import annotations

from rediscipline.redis_meta.libraries.other_ecosystems import OTHER_ECOSYSTEMS
from rediscipline.redis_meta.libraries.python_caches import CACHEOPS, DJANGO, FLASK_CACHING, OTHER_CACHES
from rediscipline.redis_meta.libraries.python_celery import CELERY, KOMBU, REDBEAT
from rediscipline.redis_meta.libraries.python_dramatiq import DRAMATIQ, DRAMATIQ_RESULTS
from rediscipline.redis_meta.libraries.python_limits_locks_models import CHANNELS_REDIS, LIMITS, LOCKS, REDIS_OM
from rediscipline.redis_meta.libraries.python_queues import ARQ, HUEY, SAQ, TASKIQ
from rediscipline.redis_meta.libraries.python_rq import RQ
from rediscipline.redis_meta.libraries.python_rq_workers import RQ_SCHEDULER, RQ_WORKERS
from rediscipline.redis_meta.libraries.schema import KeyFamily
from rediscipline.redis_meta.libraries.under_prefix import NAMED_JOBS, PROVING, UNDER_PREFIX

#: The Python libraries' families whose shapes begin or end with a literal of the library's own, each
#: library's most specific shapes before its general ones (a module lists its rows in that order).
_PYTHON: tuple[KeyFamily, ...] = (
    *RQ,
    *RQ_WORKERS,
    *RQ_SCHEDULER,
    *CELERY,
    *KOMBU,
    *REDBEAT,
    *ARQ,
    *HUEY,
    *DRAMATIQ,
    *SAQ,
    *TASKIQ,
    *DJANGO,
    *FLASK_CACHING,
    *CACHEOPS,
    *LIMITS,
    *LOCKS,
    *REDIS_OM,
    *CHANNELS_REDIS,
)

#: Every family the catalog knows, in the order attribution tries them (the first matching row wins): Django
#: precedes fastapi-cache2 (`:<namespace>:<md5>` would claim `:1:<md5>`), the Python caches with a
#: namespace of the application's precede Spring Cache (`<name>::<key>`, the last of the other ecosystems),
#: and a bare hex digest (dramatiq's results) comes after them; last, the rows of keys under a library's own
#: prefix (`under_prefix`), whose shapes many keys match.
FAMILIES: tuple[KeyFamily, ...] = (
    *_PYTHON,
    *OTHER_CACHES,
    *OTHER_ECOSYSTEMS,
    *DRAMATIQ_RESULTS,
    *NAMED_JOBS,
    *PROVING,
    *UNDER_PREFIX,
)

#: What the naming rules do with keys of a library's own format (`library-keys`): leave them alone (the team
#: cannot rename them without configuring the library) or judge them like the team's own keys.
KEY_MODES = ("skip", "judge")
#: Rules that do not apply to a family meant to persist (a queue, a registry, a schedule): they report keys
#: without a TTL. The size rules still apply: such a family may persist, not grow without bound.
PERSISTING_EXEMPT = frozenset({"TTL001", "TTL004"})

__all__ = ["FAMILIES", "KEY_MODES", "PERSISTING_EXEMPT", "KeyFamily"]
