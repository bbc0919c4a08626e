"""The rules on code calls (TTL006–TTL008, BAT, PUB, CMD007–CMD010): exact messages and the helpers behind them.

The case files check which calls are reported, with which code and at which line; these tests check what
the messages say (the fix they give, the key they name, escaping) in both languages.
"""

from __future__ import annotations

from typing import Any

import pytest

from rediscipline.model.code import CodeCall, Literal
from rediscipline.model.keyname import SLOT_ANY, KeyTemplate, Placeholder
from rediscipline.model.location import Location
from rediscipline.model.text import Text
from rediscipline.rules.base import CallRule, RuleContext
from rediscipline.rules.batch.command_in_loop import CommandInLoop
from rediscipline.rules.batch.multi_key import batched_form
from rediscipline.rules.command.scan_count import ScanCount
from rediscipline.rules.options import build
from rediscipline.rules.pubsub.blocking import is_zero
from rediscipline.rules.pubsub.blocking_timeout import BlockingTimeout
from rediscipline.rules.ttl.code_ttls import keys_text, ttl_argument
from rediscipline.rules.ttl.constant_ttl import ConstantTtl
from rediscipline.rules.ttl.set_then_expire import SetThenExpire
from rediscipline.rules.ttl.write_without_ttl import WriteWithoutTtl
from tests.rules.casefile import glob_template

HERE = Location("code", "app.py", 7, 5)


def _call(method: str, *keys: str | bytes, command: str | None = None, **fields: Any) -> CodeCall:
    templates = tuple(glob_template(k) if isinstance(k, str) else KeyTemplate.literal(k) for k in keys)
    return CodeCall(method, method if command is None else command, HERE, keys=templates, **fields)


def _messages(rule: CallRule[Any], call: CodeCall, **options: Any) -> list[tuple[str, Text]]:
    ctx = RuleContext(build(type(rule).Options, options), type(rule).meta.severity)
    return [(v.code, v.message) for v in rule.check(call, ctx)]


def test_glob_template_turns_each_star_into_an_unknown_part() -> None:
    template = glob_template("user:*:profile")
    assert template.parts == (b"user:", Placeholder(SLOT_ANY), b":profile")
    assert template.pattern == b"user:*:profile"
    assert glob_template("*:x*").parts == (Placeholder(SLOT_ANY), b":x", Placeholder(SLOT_ANY))


def test_keys_text_names_the_first_key_and_counts_the_others() -> None:
    assert keys_text(_call("set")) == Text("the key", "Key")
    assert keys_text(_call("set", "a:*")) == Text("`a:*`", "`a:*`")
    assert keys_text(_call("mset", "a:*", "b:*")) == Text("`a:*` and 1 more key", "`a:*` 等 2 个 Key")
    assert keys_text(_call("mset", "a:*", "b:*", "c")) == Text("`a:*` and 2 more keys", "`a:*` 等 3 个 Key")


def test_keys_are_escaped_in_messages() -> None:
    assert keys_text(_call("set", b"job:\x1b\x07:\xff")).en == "`job:\\x1b\\x07:\\xff`"


@pytest.mark.parametrize(
    ("literals", "expected"),
    [
        ((("time", 3600),), ("time", 3600)),
        ((("ex", True), ("px", 1500)), ("px", 1500)),  # a boolean is no TTL
        ((("ex", "3600"),), None),
        ((), None),
    ],
)
def test_ttl_argument(literals: tuple[tuple[str, Literal], ...], expected: tuple[str, int] | None) -> None:
    assert ttl_argument(_call("set", "k", literals=literals)) == expected


def test_write_without_ttl_gives_the_fix_of_its_command() -> None:
    assert _messages(WriteWithoutTtl(), _call("set", "product:cache:*")) == [
        (
            "set",
            Text(
                "SET writes `product:cache:*` without a TTL (kept until deleted): pass ex= (seconds), px=, exat= or "
                "pxat= in the same call (keepttl=True keeps an existing TTL)",
                "SET 写入 `product:cache:*` 时未设置过期时间（会一直保留到被删除）："
                "请在同一次调用中传入 ex=（秒）、px=、exat= 或 pxat=（keepttl=True 保留原有 TTL）",
            ),
        )
    ]
    [(_code, setnx)] = _messages(WriteWithoutTtl(), _call("setnx", "order:lock:*"))
    assert setnx.en.endswith(": use set(key, value, nx=True, ex=…) instead, since SETNX takes no TTL")
    [(_code, hset)] = _messages(WriteWithoutTtl(), _call("hset", "user:session:*"))
    assert hset.en.endswith("(pipe.hset(key, …); pipe.expire(key, ttl))")
    assert hset.zh.endswith(
        "请在同一函数或同一 Pipeline 中对该 Key 调用 EXPIRE（pipe.hset(key, …); pipe.expire(key, ttl)）"
    )


def test_constant_ttl_shows_the_ttl_and_the_loop_size() -> None:
    call = _call(
        "setex",
        "seckill:stock:*",
        literals=(("time", 3600),),
        expiry="option",
        constant_ttl=True,
        loop_depth=1,
        loop_iterations=100_000,
    )
    [(code, message)] = _messages(ConstantTtl(), call)
    assert code == "loop"
    assert message.en == (
        "SETEX gives `seckill:stock:*` a constant TTL (time=3600) in a loop (100,000 keys): all these keys expire "
        "at the same moment and are deleted in one burst; add random jitter (e.g. `ttl + random.randint(0, ttl // "
        "10)`)"
    )
    assert message.zh.startswith(
        "SETEX 在循环中（100,000 个 Key）为 `seckill:stock:*` 设置了固定的过期时间（time=3600）："
    )


def test_set_then_expire_names_the_expire_line_and_the_transaction() -> None:
    outside = _call("set", "sms:code:*", expiry="same-scope", expire_line=42)
    [(_code, message)] = _messages(SetThenExpire(), outside)
    assert message.en == (
        "SET of `sms:code:*` and its EXPIRE on line 42 are two commands: a crash or a lost connection between them "
        "leaves the key without a TTL; write `set(key, value, ex=…)` instead"
    )
    inside = _call("set", "sms:code:*", expiry="same-scope", expire_line=42, pipelined=True, transaction=True)
    [(_code, message)] = _messages(SetThenExpire(), inside)
    assert "the transaction keeps them together, but one command is simpler" in message.en


@pytest.mark.parametrize(
    ("command", "key", "form"),
    [
        ("get", "user:score:*", "MGET"),
        ("set", "user:score:*", None),  # MSET takes no TTL
        ("sadd", "tag:users", "SADD"),  # the same key every time: one SADD with many members
        ("sadd", "tag:*:users", None),  # a different key each time
        ("hget", "config:site", "HMGET"),
        ("incrby", "stat:pv", None),
    ],
)
def test_batched_form(command: str, key: str, form: str | None) -> None:
    assert batched_form(_call(command, key)) == form


def test_command_in_loop_suggests_the_batched_form() -> None:
    call = _call("sismember", "blacklist:users", loop_depth=1, loop_iterations=5000)
    [(_code, message)] = _messages(CommandInLoop(), call)
    assert message.en == (
        "SISMEMBER on `blacklist:users` is sent 5,000 times in a loop, one network round trip each: queue the calls "
        "on a pipeline and execute() it every ≤ 200 commands, or send one SMISMEMBER per ≤ 100 of them"
    )
    assert message.zh == (
        "SISMEMBER `blacklist:users` 在循环中逐条发送 5,000 次，每次一个网络往返："
        "请放入 Pipeline 并每 200 条以内执行一次 execute()，或改用 SMISMEMBER，每次不超过 100 个"
    )


@pytest.mark.parametrize(
    ("value", "zero"),
    [(0, True), (0.0, True), ("0", True), (b" 0 ", True), (5, False), (False, False), (None, False), ("x", False)],
)
def test_is_zero(value: Literal, zero: bool) -> None:
    assert is_zero(value) is zero


def test_blocking_timeout_without_a_key() -> None:
    [(code, message)] = _messages(BlockingTimeout(), _call("brpop"))
    assert code == "no-timeout"
    assert message.en.startswith("BRPOP has no timeout, and redis-py's default 0 waits for ever:")
    assert message.zh.startswith("BRPOP 未设置 timeout，redis-py 默认值 0 会永久等待：")


def test_scan_count_names_a_non_utf8_match_pattern_escaped() -> None:
    call = _call("scan_iter", command="scan", literals=(("match", b"sess\xff:*"),), given=frozenset({"match"}))
    [(code, message)] = _messages(ScanCount(), call)
    assert code == "no-count"
    assert message.en.startswith("scan_iter matching `sess\\xff:*` has no count:")
    assert message.zh.startswith("scan_iter（匹配 `sess\\xff:*`）未指定 count：")


def test_scan_count_range_is_off_by_default() -> None:
    call = _call("scan_iter", command="scan", literals=(("count", 1),), given=frozenset({"count"}))
    assert _messages(ScanCount(), call) == []
    assert [code for code, _m in _messages(ScanCount(), call, **{"min-count": 10})] == ["count-low"]


def test_blocking_timeout_none_is_zero_for_redis_py() -> None:
    call = _call("blpop", "queue:jobs", given=frozenset({"keys", "timeout"}), literals=(("timeout", None),))
    assert [code for code, _text in _messages(BlockingTimeout(), call)] == ["timeout-zero"]


def test_delete_collection_looks_at_every_deleted_key() -> None:
    from rediscipline.model.namespace import NamespacePolicy
    from rediscipline.rules.command.delete_collection import DeleteCollection

    rule = DeleteCollection()
    namespaces = (NamespacePolicy("coupon:*", type="string"), NamespacePolicy("coupon:claimed:*", type="set"))
    call = _call("delete", "coupon:stock:*", "coupon:claimed:*", command="del")
    ctx = RuleContext(build(DeleteCollection.Options, {}), DeleteCollection.meta.severity, namespaces[0], namespaces)
    found = list(rule.check(call, ctx))
    assert [v.code for v in found] == ["del"]
    assert "`coupon:claimed:*` (namespace coupon:claimed:* " in found[0].message.en
