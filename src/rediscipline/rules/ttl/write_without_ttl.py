"""TTL006 write-without-ttl."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.code import CodeCall
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext, rule
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.ttl.code_ttls import SENT_CHECKS, command_name, keys_text

#: Writes that create the key when it does not exist (the default of the `commands` option).
CREATING_WRITES = (
    "set",
    "setnx",
    "getset",
    "mset",
    "msetnx",
    "hset",
    "hmset",
    "hsetnx",
    "lpush",
    "rpush",
    "sadd",
    "zadd",
    "xadd",
    "incr",
    "incrby",
    "incrbyfloat",
    "decr",
    "decrby",
    "append",
    "setrange",
    "setbit",
    "pfadd",
    "geoadd",
    "hincrby",
    "hincrbyfloat",
    "zincrby",
)

#: How to give the key a TTL, for commands whose fix is not "add an EXPIRE next to it".
_FIXES = {
    "set": Text(
        "pass ex= (seconds), px=, exat= or pxat= in the same call (keepttl=True keeps an existing TTL)",
        "请在同一次调用中传入 ex=（秒）、px=、exat= 或 pxat=（keepttl=True 保留原有 TTL）",
    ),
    "setnx": Text(
        "use set(key, value, nx=True, ex=…) instead, since SETNX takes no TTL",
        "SETNX 不能带 TTL，请改用 set(key, value, nx=True, ex=…)",
    ),
    "getset": Text(
        "use set(key, value, get=True, ex=…) instead (Redis ≥ 6.2), since GETSET takes no TTL",
        "GETSET 不能带 TTL，请改用 set(key, value, get=True, ex=…)（Redis ≥ 6.2）",
    ),
    "mset": Text(
        "write each key with set(…, ex=…) on a pipeline instead, since MSET takes no TTL, or queue an EXPIRE "
        "per key in the same pipeline",
        "MSET 不能带 TTL，请在 Pipeline 中逐个 set(…, ex=…)，或在同一 Pipeline 中为每个 Key 加 EXPIRE",
    ),
}
_FIXES["msetnx"] = _FIXES["mset"]


def _fix(call: CodeCall) -> Text:
    """What to write instead, for the command of `call`."""
    fix = _FIXES.get(call.command)
    if fix is not None:
        return fix
    example = f"pipe.{call.method}(key, …); pipe.expire(key, ttl)"
    if call.at_run_time:  # only an EXPIRE queued after the write in its pipeline is seen with it
        return Text(
            f"queue an EXPIRE of the same key after it in the same pipeline ({example})",
            f"请在同一 Pipeline 中于其后对该 Key 加入 EXPIRE（{example}）",
        )
    return Text(
        f"add an EXPIRE on the same key in the same function or pipeline ({example})",
        f"请在同一函数或同一 Pipeline 中对该 Key 调用 EXPIRE（{example}）",
    )


#: Writes that replace the value and drop any TTL the key had (003: SET and GETSET clear the expiry).
CLEARS_TTL = frozenset({"set", "getset", "mset", "msetnx"})

#: Options that make a write apply only to a key that exists (so it never creates one), by command.
ONLY_EXISTING = {
    "set": ("xx", "ifeq", "ifdeq"),
    "zadd": ("xx",),
    "geoadd": ("xx",),
    "xadd": ("nomkstream",),
}


def _cannot_create(call: CodeCall) -> bool:
    """`zadd(k, m, xx=True)`, `set(k, v, xx=True)`, `xadd(k, f, nomkstream=True)`: the option, written as a
    literal, makes the write apply only to an existing key (`ifeq=`/`ifdeq=` compare with its value)."""
    for name in ONLY_EXISTING.get(call.command, ()):
        if name in ("ifeq", "ifdeq"):
            if name in call.given and call.literal(name, default=b"") is not None:
                return True
        elif call.literal(name) not in (None, False, 0, "", b""):
            return True
    return False


@dataclass(frozen=True)
class WriteWithoutTtlOptions(RuleOptions):
    commands: tuple[str, ...] = option(CREATING_WRITES, "Writes that can create a key (Redis command names).")
    required: bool = option(True, "Report writes outside namespaces that declare `ttl-required` themselves.")


@rule(
    "TTL006",
    "write-without-ttl",
    title=("Write creates a key without a TTL", "写入创建的 Key 未设置过期时间"),
    severity=Severity.WARNING,
    where=SENT_CHECKS,
    sources=(
        "001 §2.3 控制key的生命周期",
        "000 §Key 名字如何设计 — 过期",
        "002 §数据保存规范 — 规范三：在数据保存时，要设置过期时间",
        "003 §过期策略 — Key过期机制概述",
    ),
)
class WriteWithoutTtl(CallRule[WriteWithoutTtlOptions]):
    """Checks that code which creates a key also gives it a TTL.

    ## What it does
    Reports a call of a command from `commands` (SET, HSET, LPUSH, SADD, ZADD, INCR, …: writes that create
    the key when it does not exist) that gives the key no TTL: neither on the call itself (`ex=`, `px=`,
    `exat=`, `pxat=`, `keepttl=True`) nor by an EXPIRE, PEXPIRE or EXPIREAT on an equal key later in the
    same function or pipeline (an EXPIRE chained on the write, `pipe.hset(k, …).expire(k, ttl)`, or
    queued under a condition, `pipe.expire(k, ttl) if ttl else None`, `ttl and pipe.expire(k, ttl)`,
    counts). The code is the command (`set`, `hset`, …). A call whose TTL arguments are not visible
    (`**kwargs`) is not judged, nor a write other than SET/GETSET/MSET to a key the same function already
    read, watched or wrote (and did not delete since; a call in the other branch of an `if` does not
    count): it updates a key that exists (and keeps its TTL), so only the first write of the function is
    judged. SET is always judged, because it drops an existing
    TTL. A write told to apply only to an existing key cannot create one and is not judged: `xx=True` on
    SET, ZADD and GEOADD, `ifeq=`/`ifdeq=` on SET, `nomkstream=True` on XADD (written as literals).

    At run time (the guard), a SET, SETNX, GETSET, MSET or MSETNX sent at once without a TTL is reported
    as it is sent. Other writes sent at once are not judged (the EXPIRE may be the next command); queued on
    a pipeline or in a transaction they are, unless an EXPIRE, PEXPIRE, EXPIREAT or PEXPIREAT of the same
    key is queued after them (a write to a key an earlier command of the pipeline named is an update).

    In a server's traffic (`rediscipline traffic --monitor`), each key pattern the MONITOR sample saw
    written by SET without EX, PX, EXAT, PXAT or KEEPTTL, or by SETNX, GETSET, MSET or MSETNX, once per
    pattern and command.

    Keys in a namespace declared `ttl-required = false` are never reported; keys in a namespace declared
    `ttl-required = true` are errors; other keys are warnings unless `required` is turned off. The
    message says how to add the TTL for that command: SET takes it as an option, SETNX and GETSET become
    `set(…, nx=True, ex=…)` and `set(…, get=True, ex=…)`, other writes need an EXPIRE next to them.

    ## Why is this bad?
    A key without an expiry stays until something deletes it. Code is where that is decided: a cache
    entry or a counter written without a TTL becomes a zombie key the day the code that deletes it is
    changed or fails, and memory fills up until the instance evicts useful data or refuses writes. SET
    without an expiry also clears the TTL an existing key had (003: SET and GETSET overwrite the expiry).

    ## Example
    ```python
    r.set(f"product:cache:{pid}", payload)
    r.hset(f"user:session:{sid}", mapping=session)
    ```

    ## Use instead
    ```python
    r.set(f"product:cache:{pid}", payload, ex=3600 + random.randint(0, 360))
    pipe = r.pipeline(transaction=False)
    pipe.hset(f"user:session:{sid}", mapping=session)
    pipe.expire(f"user:session:{sid}", 7200)
    pipe.execute()
    ```

    ## Options
    - `commands`: writes that can create a key, by Redis command name (redis-py's `incr` sends INCRBY;
      default set, setnx, getset, mset, msetnx, hset, hmset, hsetnx, lpush, rpush, sadd, zadd, xadd, incr,
      incrby, incrbyfloat, decr, decrby, append, setrange, setbit, pfadd, geoadd, hincrby, hincrbyfloat,
      zincrby).
    - `required`: report writes outside namespaces that declare `ttl-required` (default true), as
      `missing-ttl` does for stored keys; presets that follow 003's allkeys-lru design turn it off.

    ## Source
    - 001 §2.3: all keys must have an expiry; set it with EXPIRE to avoid zombie keys.
    - 000 §过期: we suggest every key has an expiry, especially keys written in bulk.
    - 002 §规范三: set an expiry when saving data, according to how long the business uses it.
    - 003 §Key过期机制概述: SET and GETSET overwrite the value and clear the expiry; SETEX sets it at
      creation.
    """

    Options = WriteWithoutTtlOptions

    reads_namespace = frozenset({"ttl-required"})

    def check(self, call: CodeCall, ctx: RuleContext[WriteWithoutTtlOptions]) -> Iterator[Violation]:
        if call.expiry is not None or call.command not in ctx.options.commands or _cannot_create(call):
            return
        if call.touched_before and call.command not in CLEARS_TTL:
            return  # an update of a key this function already used: it exists and keeps its TTL
        namespace = ctx.namespace
        declared = namespace.ttl_required if namespace is not None else None
        if declared is False or (declared is None and not ctx.options.required):
            return
        command, keys, fix = command_name(call), keys_text(call), _fix(call)
        if declared and namespace is not None:
            yield Violation(
                call.command,
                Text(
                    f"{command} writes {keys.en} without a TTL, but namespace {namespace.pattern} requires one: "
                    f"{fix.en}",
                    f"{command} 写入 {keys.zh} 时未设置过期时间，但命名空间 {namespace.pattern} 要求设置：{fix.zh}",
                ),
                Severity.ERROR,
            )
            return
        yield Violation(
            call.command,
            Text(
                f"{command} writes {keys.en} without a TTL (kept until deleted): {fix.en}",
                f"{command} 写入 {keys.zh} 时未设置过期时间（会一直保留到被删除）：{fix.zh}",
            ),
        )
