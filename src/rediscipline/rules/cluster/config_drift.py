"""CLU004 shard-config-drift."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.cluster import ClusterView, ShardStat
from rediscipline.model.display import QUOTE_LIMIT, display_text
from rediscipline.model.finding import Violation
from rediscipline.model.plan import SERVER_CONFIG
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import ClusterRule, RuleContext, SubjectViolation, rule
from rediscipline.rules.cluster.shards import CLUSTER_CHECKS, address_of, listing
from rediscipline.rules.config.lazyfree import LAZYFREE_SETTINGS
from rediscipline.rules.options import RuleOptions, option

#: Distinct values of one setting named in a message before `and N more values`.
VALUES_SHOWN = 4
MAXMEMORY = "maxmemory"
POLICY = "maxmemory-policy"

#: What differing values of a setting do to a cluster, for the settings compared by default.
EFFECTS = {
    MAXMEMORY: (
        "the shard with the lowest limit fills first and evicts or refuses writes while the others have room",
        "上限最低的分片最先写满，在其他分片仍有空间时就开始淘汰数据或拒绝写入",
    ),
    POLICY: (
        "a key is evicted, or a write refused, depending on the slot it hashes to",
        "一个 Key 是被淘汰还是写入被拒绝，取决于它被哈希到的槽位",
    ),
}


@dataclass(frozen=True)
class ConfigDriftOptions(RuleOptions):
    settings: tuple[str, ...] = option(
        (MAXMEMORY, POLICY, *LAZYFREE_SETTINGS), "The settings every shard must have the same value of."
    )


@rule(
    "CLU004",
    "shard-config-drift",
    title=("Shards configured differently", "分片配置不一致"),
    severity=Severity.WARNING,
    where=CLUSTER_CHECKS,
    sources=(
        "002 §数据保存规范 — 规范四：控制 Redis 实例的容量",
        "000 §使用的命令请求遵守哪些规范？ — 数据删除",
    ),
)
class ShardConfigDrift(ClusterRule[ConfigDriftOptions]):
    """Checks that every shard of a cluster runs with the same settings.

    ## What it does
    Compares, for each of the `settings`, the value each shard's node gave (`CONFIG GET` on the node
    scanned: the master, or the replica read with `--prefer replicas`). A setting with two or more values
    is reported once, with the setting as the subject: the message names each value and the shards that
    have it, the most common first (at most four values and three shards per value are listed, then how
    many more), and the finding's value is the number of distinct values. `maxmemory` is read from `INFO
    memory` on a node that refuses CONFIG (as managed services do) and shown in bytes.

    A shard whose configuration was not read (CONFIG refused, or the node never reached), or whose server
    does not have the setting (an older version), is left out of that setting's comparison, and the message
    names it. Values are compared as the server wrote them.

    ## Why is this bad?
    A cluster is one database to its clients, but every shard applies its own settings to the keys it
    holds, and which shard holds a key depends only on its hash. Different `maxmemory` limits make the
    smallest shard fill first and evict (or refuse writes) while the others have room; a different
    `maxmemory-policy` evicts some keys and not others, or refuses writes on one shard only; a lazyfree
    setting off on one shard blocks that shard, and only it, when a big key there is deleted or expires.
    Settings drift this way when a node is replaced or a change is applied to some nodes only, and a
    failover to a replica configured differently changes the shard's behaviour without warning.

    ## Example
    ```
    10.0.0.1:7000  maxmemory 4gb  maxmemory-policy allkeys-lru
    10.0.0.2:7000  maxmemory 4gb  maxmemory-policy allkeys-lru
    10.0.0.3:7000  maxmemory 2gb  maxmemory-policy noeviction
    ```

    ## Use instead
    The same settings on every node, masters and replicas, applied from one place (a shared config file,
    or `redis-cli --cluster call HOST:PORT CONFIG SET … ` followed by `CONFIG REWRITE` on each node):
    ```
    maxmemory 4gb
    maxmemory-policy allkeys-lru
    ```

    ## Options
    - `settings`: the settings every shard must have the same value of (default `maxmemory`,
      `maxmemory-policy` and the six lazyfree settings CFG003 checks; any `CONFIG GET` parameter may be
      listed, when the scan reads it).

    ## Source
    - 002 §数据保存规范 — 规范四：控制 Redis 实例的容量: every instance is sized and limited the same way
      (2–6 GB each); a shard whose `maxmemory` differs is sized differently.
    - 000 §使用的命令请求遵守哪些规范？ — 数据删除: enable the lazyfree settings so that deletion is
      asynchronous, on every node, since any shard may hold a big key.
    """

    Options = ConfigDriftOptions
    reads_server = frozenset({SERVER_CONFIG})

    def check(self, cluster: ClusterView, ctx: RuleContext[ConfigDriftOptions]) -> Iterator[SubjectViolation]:
        for setting in ctx.options.settings:
            values: dict[str, list[ShardStat]] = {}
            missing: list[ShardStat] = []
            for shard in cluster.shards:
                value = _value(shard, setting)
                if value is None:
                    missing.append(shard)
                else:
                    values.setdefault(value, []).append(shard)
            if len(values) >= 2:
                yield _finding(setting, values, missing)


def _value(shard: ShardStat, setting: str) -> str | None:
    """The shard's value of `setting`, None when its configuration was not read or lacks the setting."""
    for name, value in shard.config:
        if name == setting:
            return value
    if setting == MAXMEMORY and shard.maxmemory is not None:
        return str(shard.maxmemory)
    return None


def _shown(setting: str, values: list[str]) -> dict[str, Text]:
    """How each value reads in the message: maxmemory in binary units (in bytes when two would read alike)."""
    if setting == MAXMEMORY and all(value.isdigit() for value in values):
        human = {value: human_bytes(int(value)) for value in values}
        if len(set(human.values())) == len(human):
            return {
                value: Text(shown, shown) if int(value) else Text("0 (no limit)", "0（不限制）")
                for value, shown in human.items()
            }
        return {value: Text(f"{int(value):,} bytes", f"{int(value):,} 字节") for value in values}
    return {value: Text(display_text(value, QUOTE_LIMIT), display_text(value, QUOTE_LIMIT)) for value in values}


def _effect(setting: str) -> tuple[str, str]:
    if setting in EFFECTS:
        return EFFECTS[setting]
    if setting in LAZYFREE_SETTINGS:
        covers_en, covers_zh = LAZYFREE_SETTINGS[setting]
        return (
            f"{covers_en} are freed in the background on some shards and on the main thread, blocking every client, "
            "on others",
            f"{covers_zh}在一些分片上由后台线程释放，在另一些分片上则在主线程上释放并阻塞所有客户端",
        )
    return ("a key's behaviour depends on the shard its slot is on", "一个 Key 的行为取决于它所在槽位的分片")


def _finding(setting: str, values: dict[str, list[ShardStat]], missing: list[ShardStat]) -> SubjectViolation:
    ordered = sorted(values, key=lambda value: -len(values[value]))  # stable: ties keep the shards' order
    shown = _shown(setting, ordered)
    parts_en: list[str] = []
    parts_zh: list[str] = []
    for value in ordered[:VALUES_SHOWN]:
        shards = listing([address_of(shard) for shard in values[value]])
        parts_en.append(f"{shown[value].en} on {shards.en}")
        parts_zh.append(f"{shards.zh} 为 {shown[value].zh}")
    if len(ordered) > VALUES_SHOWN:
        more = len(ordered) - VALUES_SHOWN
        parts_en.append(f"and {more} more values")
        parts_zh.append(f"另有 {more} 种取值")
    left = Text("", "")
    if missing:
        names = listing([address_of(shard) for shard in missing])
        left = Text(f" (not read on {names.en})", f"（未能读取：{names.zh}）")
    effect_en, effect_zh = _effect(setting)
    name = display_text(setting, QUOTE_LIMIT)
    message = Text(
        f"{name} differs between shards: {'; '.join(parts_en)}{left.en}: {effect_en}; give every node the same value",
        f"各分片的 {name} 不一致：{'；'.join(parts_zh)}{left.zh}：{effect_zh}；请让所有节点使用相同的值",
    )
    violation = Violation("differs", message, value=len(values), setting=setting)
    return SubjectViolation(violation, name)
