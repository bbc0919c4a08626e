"""CFG007 multiple-databases."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.finding import Violation
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import InstanceRule, RuleContext, rule
from rediscipline.rules.options import RuleOptions

#: Databases named in the message; the rest are summed up as "and N more".
SHOWN_DATABASES = 5


@rule(
    "CFG007",
    "multiple-databases",
    title=("Keys outside database 0", "数据存放在 db0 以外"),
    severity=Severity.WARNING,
    where=("live",),
    sources=("001 §命令使用 — 2. 禁止使用select", "002 §规范一：key 的命名规范"),
)
class MultipleDatabases(InstanceRule[RuleOptions]):
    """Checks that all keys live in logical database 0.

    ## What it does
    Reads the key count per database from `INFO keyspace` and reports keys in any database other than 0
    (`non-zero-db`). The finding's value is the number of keys outside db0; the message names the
    databases (the first five, by number) and their key counts.

    ## Why is this bad?
    Logical databases are not isolated: they share one thread, one `maxmemory` and one eviction pool, so
    one business still slows down and evicts another. Redis Cluster, and many proxies and client
    libraries, support only database 0, so data in db1–db15 blocks a later move to a cluster. Every
    connection that uses them must send `SELECT` first, and a connection pool that forgets it reads the
    wrong data silently.

    ## Example
    ```
    db0:keys=120000,expires=118000
    db3:keys=4500,expires=0
    ```

    ## Use instead
    Everything in db0, with the business as the first level of the key name (`order:…`, `user:…`), or
    one instance per business.

    ## Options
    None.

    ## Source
    - 001 §命令使用 — 2. 禁止使用select: only db0 is allowed; multiple databases are weak, poorly supported by
      clients, and still share one thread.
    - 002 §规范一：key 的命名规范: separate businesses by key prefix instead of switching databases with
      SELECT.
    """

    reads_server = frozenset()  # INFO keyspace only

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[RuleOptions]
    ) -> Iterator[Violation]:
        others = sorted((db, keys) for db, keys in server.keyspace.items() if db != 0 and keys > 0)
        if not others:
            return
        total = sum(keys for _db, keys in others)
        listed = ", ".join(f"db{db} ({_keys(keys)})" for db, keys in others[:SHOWN_DATABASES])
        listed_zh = "、".join(f"db{db}（{keys} 个 Key）" for db, keys in others[:SHOWN_DATABASES])
        more = len(others) - SHOWN_DATABASES
        if more > 0:
            listed += f" and {more} more"
            listed_zh += f"，另有 {more} 个库"
        yield Violation(
            "non-zero-db",
            Text(
                f"{_keys(total)} in databases other than 0: {listed}; keep all data in db0 and separate "
                "businesses by key prefix or by instance",
                f"{total} 个 Key 存放在 db0 以外：{listed_zh}；请把数据全部放在 db0，用 Key 前缀或独立实例区分业务",
            ),
            value=total,
        )


def _keys(count: int) -> str:
    return "1 key" if count == 1 else f"{count} keys"
