"""CFG003 lazyfree."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.keyspace import KeyspaceStats
from rediscipline.model.server import ServerFact
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import InstanceRule, RuleContext, rule
from rediscipline.rules.config.checks import CONFIG_CHECKS
from rediscipline.rules.options import RuleOptions, option

#: The settings that move the freeing of deleted values to a background thread, with what each covers.
LAZYFREE_SETTINGS = {
    "lazyfree-lazy-eviction": ("keys evicted at maxmemory", "达到 maxmemory 时被淘汰的数据"),
    "lazyfree-lazy-expire": ("expired keys", "过期的数据"),
    "lazyfree-lazy-server-del": (
        "values the server deletes itself (RENAME, SET over an existing key)",
        "服务端自行删除的旧值（RENAME、SET 覆盖等）",
    ),
    "lazyfree-lazy-user-del": ("keys deleted with DEL", "DEL 删除的数据"),
    "lazyfree-lazy-user-flush": (
        "databases emptied by FLUSHALL/FLUSHDB without ASYNC",
        "不带 ASYNC 的 FLUSHALL/FLUSHDB 清空的数据",
    ),
    "replica-lazy-flush": ("the old keys a replica drops before a full resync", "从节点全量同步前清空的旧数据"),
}


@dataclass(frozen=True)
class LazyfreeOptions(RuleOptions):
    settings: tuple[str, ...] = option(
        tuple(LAZYFREE_SETTINGS),
        "The lazyfree settings that must be `yes`.",
        choices=tuple(LAZYFREE_SETTINGS),
    )


@rule(
    "CFG003",
    "lazyfree",
    title=("Lazy freeing disabled", "未开启 lazyfree 异步释放"),
    severity=Severity.WARNING,
    where=CONFIG_CHECKS,
    sources=("000 §使用的命令请求遵守哪些规范？ — 数据删除",),
)
class Lazyfree(InstanceRule[LazyfreeOptions]):
    """Checks that big values are freed in the background.

    ## What it does
    Reports each of the `settings` that is `no`, with the setting's name as the code:
    `lazyfree-lazy-eviction`, `lazyfree-lazy-expire`, `lazyfree-lazy-server-del`, `lazyfree-lazy-user-del`,
    `lazyfree-lazy-user-flush` and `replica-lazy-flush`. A setting the server does not have (Redis before
    4.0; `lazyfree-lazy-user-del` before 6.0, `lazyfree-lazy-user-flush` before 6.2) is skipped, and
    nothing is reported when CONFIG was refused.

    ## Why is this bad?
    Freeing a collection with millions of elements takes the main thread seconds, and Redis does that
    for every delete, expiry, eviction or flush unless the matching lazyfree setting is on. The pause is
    not caused by a slow command, so it does not even show in the slow log: a big key whose TTL runs out
    blocks every client at an unpredictable moment. Redis up to 7.x ships all of these as `no`.

    ## Example
    ```
    lazyfree-lazy-expire no
    lazyfree-lazy-user-del no
    ```

    ## Use instead
    ```
    lazyfree-lazy-eviction yes
    lazyfree-lazy-expire yes
    lazyfree-lazy-server-del yes
    lazyfree-lazy-user-del yes
    lazyfree-lazy-user-flush yes
    replica-lazy-flush yes
    ```

    ## Options
    - `settings`: the lazyfree settings that must be `yes` (default all six; a preset may narrow the list).

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 数据删除: delete big keys with UNLINK on 4.0 and later, and enable
      the lazyfree settings so that deletion is asynchronous.
    """

    Options = LazyfreeOptions

    def check(
        self, server: ServerFact, keyspace: KeyspaceStats | None, ctx: RuleContext[LazyfreeOptions]
    ) -> Iterator[Violation]:
        for setting in ctx.options.settings:
            if server.config_value(setting) != "no":
                continue
            covers_en, covers_zh = LAZYFREE_SETTINGS[setting]
            yield Violation(
                setting,
                Text(
                    f"{setting} is no: {covers_en} are freed on the main thread, where a big value blocks every "
                    f"client until it is gone; set {setting} yes",
                    f"{setting} 为 no：{covers_zh}在主线程上同步释放，大 Key 会阻塞所有客户端直到释放完成；"
                    f"请设置 {setting} yes",
                ),
                setting=setting,
            )
