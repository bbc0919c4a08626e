"""CMD005 full-scan-command."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.facts import CommandFact
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.redis_meta.command_table_generated import COMMANDS
from rediscipline.redis_meta.records import READS_INDEX_RANGE, READS_LEX_RANGE, READS_SCORE_RANGE
from rediscipline.rules.base import CommandRule, RuleContext, rule
from rediscipline.rules.command.evidence import COMMAND_CHECKS, call_of, measured, seen, shown
from rediscipline.rules.options import RuleOptions, option

#: Range reads (the command table's `reads`) and how their two bounds are read: by index, by score or
#: lexicographically. ZRANGE reads by index unless BYSCORE or BYLEX says otherwise (see `_whole_range`).
RANGE_COMMANDS = {
    name: info.reads
    for name, info in COMMANDS.items()
    if info.reads in (READS_INDEX_RANGE, READS_SCORE_RANGE, READS_LEX_RANGE)
}
#: The bounds that mean "from the first element" and "to the last", per kind of range.
_LOW = {READS_INDEX_RANGE: {b"0"}, READS_SCORE_RANGE: {b"-inf"}, READS_LEX_RANGE: {b"-"}}
_HIGH = {READS_INDEX_RANGE: {b"-1"}, READS_SCORE_RANGE: {b"+inf", b"inf"}, READS_LEX_RANGE: {b"+"}}


def _instead(name: str) -> Text:
    """What to do instead of reading a whole collection, for the message."""
    if name.startswith("h"):
        return Text("iterate with HSCAN", "用 HSCAN 分批遍历")
    if name.startswith("sort"):
        return Text("keep the order in a sorted set", "用有序集合维护顺序")
    if name.startswith("s"):
        return Text("iterate with SSCAN", "用 SSCAN 分批遍历")
    if name.startswith("l"):
        return Text("read it in pages (LRANGE k 0 99, 100 199, …)", "分页读取（LRANGE k 0 99、100 199……）")
    return Text("iterate with ZSCAN or read it in pages", "用 ZSCAN 分批遍历或分页读取")


@dataclass(frozen=True)
class FullScanOptions(RuleOptions):
    commands: tuple[str, ...] = option(
        (
            "hgetall",
            "hkeys",
            "hvals",
            "smembers",
            "sinter",
            "sunion",
            "sdiff",
            "sinterstore",
            "sunionstore",
            "sdiffstore",
            "sort",
            "sort_ro",
        ),
        "Commands that read a whole collection.",
    )
    whole_range: bool = option(True, "Also report range reads whose arguments cover the whole collection.")


def _whole_range(name: str, operands: tuple[bytes, ...] | None) -> bool:
    """Whether a range read covers the whole collection (`LRANGE k 0 -1`, `ZRANGEBYSCORE k -inf +inf`).

    Unknown arguments (commandstats, non-literal code) never count: `LRANGE k 0 9` and `LRANGE k 0 -1`
    look the same there. A LIMIT bounds the read.
    """
    kind = RANGE_COMMANDS.get(name)
    if kind is None or operands is None or len(operands) < 3:
        return False
    options = {o.lower() for o in operands[3:]}
    if b"limit" in options:
        return False
    if name == "zrange" and b"byscore" in options:
        kind = READS_SCORE_RANGE
    elif name == "zrange" and b"bylex" in options:
        kind = READS_LEX_RANGE
    start, stop = operands[1].lower(), operands[2].lower()
    if kind != READS_INDEX_RANGE and (name.startswith("zrev") or b"rev" in options):
        start, stop = stop, start
    return start in _LOW[kind] and stop in _HIGH[kind]


@rule(
    "CMD005",
    "full-scan-command",
    title=("Command reads a whole collection", "命令读取整个集合"),
    severity=Severity.WARNING,
    where=COMMAND_CHECKS,
    sources=(
        "001 §命令使用 — 1. 禁止使用的命令",
        "002 §命令使用规范 — 规范三：慎用全量操作命令",
        "000 §使用的命令请求遵守哪些规范？ — 控制数量",
    ),
)
class FullScanCommand(CommandRule[FullScanOptions]):
    """Checks for commands that read or combine whole collections in one call.

    ## What it does
    Reports two kinds of call:

    - a command from `commands` (HGETALL, HKEYS, HVALS, SMEMBERS, SINTER/SUNION/SDIFF and their `STORE`
      forms, SORT), with the command as the code: they always walk every element;
    - with `whole-range`, a range read whose arguments cover the whole collection (code `whole-range`):
      `LRANGE k 0 -1`, `ZRANGE k 0 -1`, `ZREVRANGE k 0 -1`, `ZRANGEBYSCORE k -inf +inf`,
      `ZRANGEBYLEX k - +`, and the `BYSCORE`/`BYLEX` forms of ZRANGE, without LIMIT.

    Both are judged in code, at run time (every command the guard sees sent, at once or on a pipeline)
    and on a server. A range read is only judged when its arguments are known (code with literal
    arguments, the guard, the slow log); `INFO commandstats` cannot tell `LRANGE k 0 9` from
    `LRANGE k 0 -1`, so those counts are not reported. The slow log keeps at most 32 arguments of 128
    bytes each, which leaves the bounds of a range read intact.

    ## Why is this bad?
    Each of these costs O(N) in the size of the collection (SORT and the set algebra more), on the single
    thread that serves every client, and sends all N elements over the network at once. On a small
    collection that is fine; but collections grow, and the same call on a 100 000-member hash blocks the
    server for tens of milliseconds and floods the client's buffer. 000 measures HGETALL at 25 ms for 5000
    fields of 10 bytes.

    ## Example
    ```python
    profile = r.hgetall("user:profile:42")
    members = r.smembers("group:members:7")
    items = r.lrange("queue:orders", 0, -1)
    ```

    ## Use instead
    Read only what you need (`HMGET`, `HGET`, `SISMEMBER`, `LRANGE k 0 99`), iterate with
    HSCAN/SSCAN/ZSCAN, or split the collection so that each part stays small.

    ## Options
    - `commands`: commands that read a whole collection (default hgetall, hkeys, hvals, smembers, sinter,
      sunion, sdiff, sinterstore, sunionstore, sdiffstore, sort, sort_ro).
    - `whole-range`: also report range reads whose known arguments cover the whole collection (default
      true).

    ## Source
    - 001 §命令使用 — 1. 禁止使用的命令: hgetall, lrange, smembers, zrange and sinter are banned; use
      hscan/sscan/zscan.
    - 002 §命令使用规范 — 规范三：慎用全量操作命令: HGETALL and SMEMBERS scan the whole structure and block
      the main thread; use HSCAN/SSCAN or split the collection.
    - 000 §使用的命令请求遵守哪些规范？ — 控制数量: for O(N) commands such as `LRANGE 0 -1` and HGETALL,
      control the number of elements and how often they run.
    """

    Options = FullScanOptions

    def judged(self, options: FullScanOptions) -> frozenset[str]:
        return frozenset(options.commands) | (frozenset(RANGE_COMMANDS) if options.whole_range else frozenset())

    def check(self, fact: CommandFact, ctx: RuleContext[FullScanOptions]) -> Iterator[Violation]:
        call = call_of(fact)
        if call.name in ctx.options.commands:
            code = call.name
        elif ctx.options.whole_range and _whole_range(call.name, call.operands):
            code = "whole-range"
        else:
            return
        how = seen(fact)
        command = shown(call.name)
        instead = _instead(call.name)
        yield Violation(
            code,
            Text(
                f"{command} reads the whole collection{how.en}: O(N) on the server's only thread; read only what "
                f"you need, or {instead.en}",
                f"{command} 读取整个集合{how.zh}：在唯一的主线程上耗时 O(N)；请只读取需要的部分，或{instead.zh}",
            ),
            value=measured(fact),
        )
