"""Facts from source code: one redis-py call as static analysis sees it, and inline suppression comments.

The code source (`sources/code`) resolves which names are Redis clients and pipelines, maps each method call
to the Redis command it sends, and records what the call site shows: the key templates, how many keys or
fields a batch carries when the size is visible, the literal arguments, whether the key gets a TTL, and the
loop or pipeline around the call. Rules judge these facts; they never see the syntax tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.location import SOURCE_RUNTIME, SOURCE_TRAFFIC, Location

#: A literal argument value as written in code (`timeout=0`, `count=500`, `transaction=True`).
Literal = int | float | str | bytes | bool | None

#: How a key written by a call gets its TTL.
EXPIRY_OPTION = "option"  # on the call itself: set(..., ex=60), setex, hsetex, expire
EXPIRY_SAME_SCOPE = "same-scope"  # a later EXPIRE/PEXPIRE/EXPIREAT on an equal key in the function or pipeline
EXPIRY_UNKNOWN = "unknown"  # the TTL arguments are not visible (**kwargs): judge nothing


@dataclass(frozen=True, slots=True)
class CodeCall:
    """One call of a Redis client (or pipeline) method in source code, or one command the runtime guard saw
    the application send (then `origin` is in SOURCE_RUNTIME and every value is the one sent: `at_run_time`),
    or one shape of what a server was sent, from a MONITOR sample (SOURCE_TRAFFIC, `at_run_time` too).

    * `method` is the redis-py method (`hgetall`, `scan_iter`, `pipeline`, `execute`); `command` the Redis
      command as `INFO commandstats` names it (`hgetall`, `scan`, `config|set`), or "" for client-side
      methods such as `pipeline` and `execute`.
    * `keys`: templates of the keys named by the call, in order (only those whose expression could be read).
    * `batch`: how many keys, fields, pairs or channels the call carries in one request, when visible from a
      literal list, `range(N)`, a comprehension over one, or a count of positional arguments; else None.
    * `given`: the parameters the call passes, by redis-py parameter name (positional ones mapped through the
      method's signature); `literals`: those of them whose value is a literal, as (name, value) pairs;
      `possible`: literal values a parameter that is not a literal can still take, through a fallback or a
      branch (`timeout or 0` may be 0, `None if wait else 5` may be None). `unpacked`: arguments arrive
      unpacked (`*args`, `**kwargs`), so a parameter missing from `given` may still be passed.
    * `expiry`: for a write that can create a key, how it gets a TTL (EXPIRY_*), None when it gets none.
      `expire_line` is the line of the separate EXPIRE call when `expiry` is EXPIRY_SAME_SCOPE.
    * `touched_before`: an earlier call in the same function names the same key (it was read, watched or
      written there), so a write to it updates a key that likely exists rather than creating one.
    * `constant_ttl`: the TTL given (on the call or by its separate EXPIRE) is a constant expression: no
      random jitter can be in it.
    * `loop_depth`: enclosing loops over items (`for`, comprehensions) in the same function, not `while`
      loops (retries, polling, consumers); `loop_iterations`: how many times the call runs when every
      enclosing loop's bound is visible (`range(5000)`, a literal list), else None.
    * `pipelined`: queued on a pipeline rather than sent at once; `transaction`: inside MULTI/EXEC.
    * `queued`: on `execute()` (or the end of a `with` block), how many commands the pipeline holds, when
      every loop that fills it has a visible bound; `unbounded` is True when some loop's bound is unknown.
    * `scope`: the qualified name of the enclosing function (`CartService.add`), "" at module level.
    """

    method: str
    command: str
    origin: Location
    keys: tuple[KeyTemplate, ...] = ()
    batch: int | None = None
    given: frozenset[str] = frozenset()
    literals: tuple[tuple[str, Literal], ...] = ()
    possible: tuple[tuple[str, Literal], ...] = ()
    unpacked: bool = False
    expiry: str | None = None
    expire_line: int | None = None
    touched_before: bool = False
    constant_ttl: bool = False
    loop_depth: int = 0
    loop_iterations: int | None = None
    pipelined: bool = False
    transaction: bool = False
    queued: int | None = None
    unbounded: bool = False
    scope: str = ""

    @property
    def at_run_time(self) -> bool:
        """Whether this call is a command as it was sent (seen by the runtime guard, or in a MONITOR sample of
        a server), rather than a call as code writes it (a rule words its message for what each can know)."""
        return self.origin.source in (SOURCE_RUNTIME, SOURCE_TRAFFIC)

    def literal(self, name: str, default: Literal = None) -> Literal:
        """The literal value passed for parameter `name`, or `default` when not given or not a literal."""
        for key, value in self.literals:
            if key == name:
                return value
        return default

    def may_give(self, name: str) -> bool:
        """Whether parameter `name` is passed, or may be through unpacked arguments."""
        return name in self.given or self.unpacked


@dataclass(frozen=True, slots=True)
class Directive:
    """An inline suppression comment: `# rediscipline: ignore[CMD001, KEY006]` or `file-ignore[...]`.

    `codes` empty means every rule. `line` is the line the directive applies to (the comment's own line);
    `column` where the comment starts, so an unused directive can be reported precisely.
    """

    line: int
    column: int
    codes: tuple[str, ...] = ()
    whole_file: bool = False

    def text(self) -> str:
        """The directive as it would be written, normalised: `ignore[CMD001,key-length]`, `file-ignore`.

        A malformed directive's only code is its own text (`rediscipline: ignore[`), shown as it is.
        """
        verb = "file-ignore" if self.whole_file else "ignore"
        if len(self.codes) == 1 and ":" in self.codes[0]:
            return self.codes[0]
        return f"{verb}[{','.join(self.codes)}]" if self.codes else verb


@dataclass(frozen=True, slots=True)
class FileDirectives:
    """Every suppression directive of one source file, in file order."""

    path: str
    directives: tuple[Directive, ...] = field(default=())


class UnusedSuppression(NamedTuple):
    """A directive of file `path` that suppressed nothing (`code` None: a blanket one), or one of its codes
    that did not: what the suppression step leaves for SUP001 to judge.

    `code` is as written: a rule id or slug, an unknown name, or a malformed directive's text (it starts
    with `rediscipline:`).
    """

    path: str
    directive: Directive
    code: str | None
