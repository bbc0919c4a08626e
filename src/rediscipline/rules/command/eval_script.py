"""CMD009 eval-script."""

from __future__ import annotations

from collections.abc import Iterator

from rediscipline.model.facts import CommandFact
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import CommandRule, RuleContext, rule
from rediscipline.rules.command.evidence import CLIENT_CHECKS, from_client
from rediscipline.rules.options import RuleOptions

#: Commands that carry a script's whole text (EVAL_RO is EVAL for read-only scripts, Redis ≥ 7).
EVAL_COMMANDS = ("eval", "eval_ro")


@rule(
    "CMD009",
    "eval-script",
    title=("Lua script sent with EVAL", "使用 EVAL 发送 Lua 脚本"),
    severity=Severity.WARNING,
    where=CLIENT_CHECKS,
    sources=("000 §使用的命令请求遵守哪些规范？ — LUA 使用",),
)
class EvalScript(CommandRule[RuleOptions]):
    """Checks for Lua scripts sent in full with every call.

    ## What it does
    Reports EVAL and EVAL_RO sent by the application (code `eval` or `eval_ro`): in code, `r.eval(…)` and
    `r.eval_ro(…)`; at run time (the guard), every EVAL and EVAL_RO sent, at once or on a pipeline.
    EVALSHA, `register_script` and FCALL pass. A server's `INFO commandstats` and slow log are not
    reported, as for `transaction`: a client that follows 000's advice also sends one EVAL whenever
    EVALSHA finds the script missing.

    ## Why is this bad?
    EVAL sends the script's whole text with every call, and the server hashes it each time to find the
    compiled function (compiling it on first sight). A script of a few KB called thousands of times a
    second costs network bandwidth and CPU for nothing, and a script whose text is built per call (with
    values pasted into it instead of passed as arguments) fills the server's script cache until it is
    flushed.

    ## Example
    ```python
    LOCK_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end"
    r.eval(LOCK_RELEASE, 1, f"order:lock:{oid}", token)
    ```

    ## Use instead
    Register the script once; redis-py sends EVALSHA and loads the script again only when the server
    does not know it:
    ```python
    release_lock = r.register_script(LOCK_RELEASE)
    release_lock(keys=[f"order:lock:{oid}"], args=[token])
    ```
    On Redis ≥ 7, a library loaded with FUNCTION LOAD and called with FCALL is another way.

    ## Options
    None.

    ## Source
    - 000 §使用的命令请求遵守哪些规范？ — LUA 使用: give the script and its parameters at execution time;
      cache the script on the server and run it with EVALSHA (and EVAL again only when EVALSHA reports
      that the script does not exist). Complex scripts are not recommended at all.
    """

    commands = frozenset(EVAL_COMMANDS)

    def check(self, fact: CommandFact, ctx: RuleContext[RuleOptions]) -> Iterator[Violation]:
        name = fact.name.lower()
        if name not in EVAL_COMMANDS or not from_client(fact):
            return
        shown = name.upper()
        yield Violation(
            name,
            Text(
                f"{shown} sends the whole script with every call and the server hashes it each time: register it "
                "once with r.register_script(…) (EVALSHA), or load it as a FUNCTION and call it with FCALL",
                f"{shown} 每次调用都发送完整脚本，服务端每次都要计算其摘要：请用 r.register_script(…) 注册一次"
                "（EVALSHA），或用 FUNCTION 加载后以 FCALL 调用",
            ),
        )
