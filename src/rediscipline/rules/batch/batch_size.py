"""BAT001 batch-size."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.code import CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.batch.multi_key import KEYS_PER_CALL, carries, first_key
from rediscipline.rules.options import RuleOptions, option

#: Multi-key and multi-element commands whose size is the caller's choice (the `commands` default).
MULTI_KEY_COMMANDS = (
    "mget",
    "mset",
    "msetnx",
    "hmget",
    "hdel",
    "del",
    "unlink",
    "exists",
    "touch",
    "sadd",
    "srem",
    "zadd",
    "zrem",
    "lpush",
    "rpush",
    "hset",
)


@dataclass(frozen=True)
class BatchSizeOptions(RuleOptions):
    max_keys: int = option(KEYS_PER_CALL, "Most keys, fields or members one call may carry.", minimum=1)
    commands: tuple[str, ...] = option(MULTI_KEY_COMMANDS, "Multi-key commands to check (Redis command names).")


def _subject(call: CodeCall, code: str) -> Text:
    """Which keys the batch is about: "such as `user:*`" for a list of keys, "of `k`" for one collection."""
    key = first_key(call)
    if key is None:
        return Text("", "")
    if code == "keys":
        return Text(f" such as {key}", f"（如 {key}）")
    return Text(f" of {key}", f"（Key {key}）")


@rule(
    "BAT001",
    "batch-size",
    title=("Too many keys in one call", "单次请求的 Key 过多"),
    severity=Severity.WARNING,
    where=("code", "runtime", "traffic"),
    sources=("000 §使用的命令请求遵守哪些规范？ — 控制数量", "000 §Key 名字如何设计 — 大小"),
)
class BatchSize(CallRule[BatchSizeOptions]):
    """Checks how many keys, fields or members one multi-key call carries.

    ## What it does
    Reports a call of a command from `commands` (MGET, MSET, HMGET, HDEL, DEL, UNLINK, EXISTS, SADD,
    ZADD, LPUSH, HSET with a mapping, …) that carries more than `max-keys` keys, fields or members. In
    code, when the number is visible: a literal list or mapping, `range(N)`, a comprehension over one, or
    that many arguments (a batch whose size the code does not show is not judged). At run time (the
    guard), every such command sent, at once or on a pipeline, with the real number it carries (the guard
    counts the items of MGET, MSET, MSETNX, HMGET, HDEL, DEL, UNLINK, EXISTS, TOUCH, SADD, SREM, ZADD,
    ZREM, LPUSH, RPUSH, HSET, HMSET, SMISMEMBER and ZMSCORE). In a server's traffic (`rediscipline traffic
    --monitor`), the largest call of each multi-key command the MONITOR sample saw (MGET, MSET, DEL, UNLINK,
    EXISTS, ...: commands that take any number of keys), with its number of keys; the report's traffic
    section has every such command with its calls by number of keys. The finding's code says what is counted:
    `keys`, `fields`, `members`, `elements` (or `items` for a command added to `commands`).

    ## Why is this bad?
    One request is served in one go on the server's only thread: an MGET of 5000 keys blocks every other
    client while it runs, builds its whole reply in memory and sends it at once, and a timeout on it
    retries all of it. Many small batches interleave with other clients' commands and keep each reply
    small. Long key names make it worse, which is why 000 wants keys ≤ 20 bytes when an MGET reads more
    than 100 of them.

    ## Example
    ```python
    profiles = r.mget([f"user:profile:{uid}" for uid in range(5000)])
    ```

    ## Use instead
    Split the batch into chunks of at most 100, sent one by one or queued on a pipeline:
    ```python
    pipe = r.pipeline(transaction=False)
    for start in range(0, len(uids), 100):
        pipe.mget([f"user:profile:{uid}" for uid in uids[start:start + 100]])
    profiles = [p for chunk in pipe.execute() for p in chunk]
    ```

    ## Options
    - `max-keys`: most keys, fields or members one call may carry (default 100).
    - `commands`: multi-key commands to check, by Redis command name (redis-py's `delete` sends DEL;
      default mget, mset, msetnx, hmget, hdel, del, unlink, exists, touch, sadd, srem, zadd, zrem, lpush,
      rpush, hset).

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — 控制数量: keep a single batched request within 100 keys (MGET at
      most 100 keys, HMGET at most 100 fields).
    - 000 §Key 名字如何设计 — 大小: when an MGET reads more than 100 keys, keep key names within 20 bytes.
    """

    Options = BatchSizeOptions

    def check(self, call: CodeCall, ctx: RuleContext[BatchSizeOptions]) -> Iterator[Violation]:
        limit, size = ctx.options.max_keys, call.batch
        if size is None or size <= limit or call.command not in ctx.options.commands:
            return
        code, noun = carries(call.command)
        shown, subject = call.command.upper(), _subject(call, code)
        yield Violation(
            code,
            Text(
                f"{shown} carries {size:,} {noun.en}{subject.en} in one request (more than {limit}): it blocks the "
                f"server while it runs and returns everything at once; split it into chunks of ≤ {limit} (or a "
                "pipeline of such chunks)",
                f"{shown} 一次请求携带 {size:,} {noun.zh}{subject.zh}，超过 {limit}："
                "执行期间阻塞服务端且一次返回全部结果；"
                f"请拆分为每批不超过 {limit} 的多次请求（或放入 Pipeline 分批执行）",
            ),
            value=size,
        )
