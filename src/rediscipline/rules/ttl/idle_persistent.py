"""TTL004 idle-persistent."""

from __future__ import annotations

from dataclasses import dataclass

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import FactRule, RuleContext, rule
from rediscipline.rules.gate import Gate, when
from rediscipline.rules.options import RuleOptions, option

DAY = 86400


@dataclass(frozen=True)
class IdlePersistentOptions(RuleOptions):
    max_idle_days: int = option(
        30, "Warn when a key without a TTL has not been accessed for more than this many days.", minimum=1
    )


@rule(
    "TTL004",
    "idle-persistent",
    title=("Cold key that never expires", "不过期的冷数据"),
    severity=Severity.WARNING,
    where=("live", "rdb"),
    sources=(
        "002 §数据保存规范 — 规范一：使用 Redis 保存热数据",
        "001 §2.3 控制key的生命周期",
    ),
)
class IdlePersistent(FactRule[IdlePersistentOptions]):
    """Checks for keys without a TTL that nobody has used for a long time.

    ## What it does
    Reports keys that have no TTL and whose idle time (`OBJECT IDLETIME`: seconds since the key was last
    read or written) is above `max-idle-days`. The idle time is only known under an LRU or no eviction
    policy: with an LFU `maxmemory-policy` Redis keeps access frequencies instead, and the rule says
    nothing. Keys in a namespace declared `ttl-required = false` are meant to persist and are not
    reported.

    ## Why is this bad?
    Redis memory is expensive and meant for hot data. A key that nobody touched for a month and that
    never expires is a zombie: usually left behind by a feature that changed or a job that failed to
    clean up. It occupies memory (and RDB, AOF and replication bandwidth) until someone deletes it, and
    under `volatile-*` eviction it is never evicted either.

    ## Example
    `OBJECT IDLETIME report:export:2023q1` returns 9000000 (104 days), and `TTL` returns -1.

    ## Use instead
    Delete the key if it is dead (`UNLINK`), move cold data to a database, or give the family a TTL so
    it cleans itself up:
    ```
    EXPIRE report:export:2023q1 604800
    ```

    ## Options
    - `max-idle-days`: warn when a key without a TTL has not been accessed for more than this many days
      (default 30, Tencent Cloud's "idle for more than a month is cold data").

    ## Source
    - 002 §规范一: use Redis to keep hot data; memory is too expensive to hold all business data.
    - 001 §2.3: give keys an expiry to avoid zombie keys.
    """

    Options = IdlePersistentOptions
    needs = frozenset({"ttl", "idle"})

    reads_namespace = frozenset({"ttl-required"})

    def gate(self, ctx: RuleContext[IdlePersistentOptions]) -> Gate:
        return when("ttl_ms", "==", -1, ("idle_seconds", ">", ctx.options.max_idle_days * DAY))

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[IdlePersistentOptions]) -> Violation | None:
        idle = fact.idle_seconds
        limit = ctx.options.max_idle_days
        if fact.ttl_ms != -1 or idle is None or idle <= limit * DAY:
            return None
        if ctx.namespace is not None and ctx.namespace.ttl_required is False:
            return None
        days = idle / DAY
        return Violation(
            "idle",
            Text(
                f"key has no TTL and has not been accessed for {days:.1f} days (limit {limit}): delete it if it is "
                "dead, or give it a TTL so cold data leaves memory",
                f"Key 没有过期时间，且已 {days:.1f} 天未被访问（上限 {limit} 天）：如已废弃请删除，否则设置 TTL，"
                "让冷数据离开内存",
            ),
            value=round(days, 1),
        )
