"""The extractor's reading of TTL pairing, transactions and values that can fall back to a literal.

Each test is a small module whose calls are read exactly: which write is the first of its key in the
function, which EXPIRE pairs with it (chained, conditional), which MULTI is announced once, and which
literal values a parameter written as an expression can take.
"""

from __future__ import annotations

import ast
import textwrap

from rediscipline.model.code import EXPIRY_SAME_SCOPE, CodeCall
from rediscipline.sources.code.extract import Facts, ModuleExtractor


def extract(source: str) -> Facts:
    text = textwrap.dedent(source)
    return ModuleExtractor(ast.parse(text), "app.py", text.splitlines()).run()


def summary(source: str) -> list[tuple[int, str, str | None, bool]]:
    """(line, method, expiry, touched_before) of every call."""
    return [(c.origin.line or 0, c.method, c.expiry, c.touched_before) for c in extract(source).calls]


def by_line(source: str) -> dict[int, CodeCall]:
    return {c.origin.line or 0: c for c in extract(source).calls}


def test_only_the_first_write_of_a_key_in_a_function_is_a_create() -> None:
    assert summary(
        """
        import redis
        r = redis.Redis()
        def f(k):
            r.hset(k, "a", 1)
            r.hset(k, "b", 2)
            r.hincrby(k, "c", 1)
            r.delete(k)
            r.hset(k, "a", 1)
            r.hdel(k, "a")
            r.sadd("tags", "x")
        def g(k):
            r.hdel(k, "a")
            r.hset(k, "a", 1)
        """
    ) == [
        (5, "hset", None, False),
        (6, "hset", None, True),
        (7, "hincrby", None, True),
        (8, "delete", None, True),
        (9, "hset", None, False),  # DEL dropped the key: this write creates it again
        (10, "hdel", None, True),
        (11, "sadd", None, False),
        (13, "hdel", None, False),
        (14, "hset", None, True),  # the function already wrote the key (HDEL): an update
    ]


def test_writes_in_other_branches_of_an_if_are_not_earlier_writes() -> None:
    assert summary(
        """
        import redis
        r = redis.Redis()
        def add(k, pipe, xx):
            if pipe is not None:
                pipe.zadd(k, {"a": 1}, xx=xx)
            else:
                r.zadd(k, {"a": 1}, xx=xx)
            r.zadd(k, {"b": 1})
        def set_quantity(k, n):
            if n <= 0:
                r.hdel(k, "n")
                return
            r.hset(k, "n", n)
        def both(k):
            if k:
                r.rename(k, "tmp")
            r.rpush(k, 1)
        """
    ) == [
        (6, "zadd", None, False),
        (8, "zadd", None, False),  # the other branch of the same `if`
        (9, "zadd", None, True),  # after the `if`: both branches ran before it
        (12, "hdel", None, False),
        (14, "hset", None, False),  # the `if` returned: this is its other branch
        (17, "rename", None, False),
        (18, "rpush", None, True),
    ]


def test_an_expire_chained_on_a_write_of_an_injected_pipeline_pairs_with_it() -> None:
    calls = extract(
        """
        def fill(pipe, key, mapping, ttl):
            pipe.hset(key, mapping=mapping).expire(key, ttl)
            pipe.zadd(key + ":rank", mapping).expire(key + ":rank", ttl).sadd("all", key)
        """
    ).calls
    assert [(c.origin.line, c.method, c.expiry, c.expire_line, c.pipelined) for c in calls] == [
        (3, "hset", EXPIRY_SAME_SCOPE, 3, True),
        (3, "expire", "option", None, True),
        (4, "zadd", EXPIRY_SAME_SCOPE, 4, True),
        (4, "expire", "option", None, True),
        (4, "sadd", None, None, True),
    ]


def test_a_command_result_used_as_data_is_not_a_pipeline() -> None:
    calls = extract(
        """
        import redis
        r = redis.Redis()
        def f(k):
            name = r.hgetall(k).get(b"name")
            return r.smembers(k).copy(), name
        """
    ).calls
    assert [(c.method, c.pipelined) for c in calls] == [("hgetall", False), ("smembers", False)]


def test_a_conditional_expire_on_the_same_pipeline_pairs_with_the_write() -> None:
    calls = by_line(
        """
        import redis
        r = redis.Redis()
        def f(k, m, ttl):
            pipe = r.pipeline(transaction=False)
            pipe.hset(k, mapping=m)
            pipe.expire(k, ttl) if ttl else None
            pipe.execute()
        def g(k, m, ttl):
            pipe = r.pipeline(transaction=False)
            pipe.hset(k, mapping=m)
            ttl and pipe.expire(k, ttl)
            pipe.execute()
        """
    )
    assert (calls[6].expiry, calls[6].expire_line) == (EXPIRY_SAME_SCOPE, 7)
    assert (calls[11].expiry, calls[11].expire_line) == (EXPIRY_SAME_SCOPE, 12)


def test_one_transaction_is_one_multi() -> None:
    facts = extract(
        """
        import redis
        r = redis.Redis()
        def explicit(k):
            with r.pipeline(transaction=True) as pipe:
                pipe.watch(k)
                pipe.multi()
                pipe.incr(k)
                pipe.execute()
        def default(k):
            with r.pipeline() as pipe:
                pipe.watch(k)
                pipe.multi()
                pipe.incr(k)
                pipe.execute()
        def move(pipe):
            pipe.hget("stock:a", "n")
            pipe.multi()
            pipe.hincrby("stock:a", "n", -1)
        def rebalance():
            r.transaction(move, "stock:a")
        class Mover:
            def _step(self, pipe):
                pipe.multi()
                pipe.hincrby("stock:b", "n", -1)
            def run(self):
                r.transaction(self._step, "stock:b")
        """
    )
    assert [(c.origin.line, c.name) for c in facts.commands if c.name == "multi"] == [
        (5, "multi"),  # pipeline(transaction=True): the multi() on line 7 is the same transaction
        (13, "multi"),  # the default pipeline: its multi() is the one MULTI
        (21, "multi"),  # r.transaction(move): the multi() inside `move` is that transaction's
        (27, "multi"),
    ]


def test_literal_values_a_parameter_can_fall_back_to() -> None:
    calls = by_line(
        """
        import redis
        r = redis.Redis()
        FOREVER = 0
        def f(timeout, wait, kwargs):
            r.blpop(["q"], timeout=timeout or 0)
            r.blpop(["q"], timeout=None if wait else 5)
            r.blpop(["q"], timeout=timeout or FOREVER)
            r.blpop(["q"], timeout=timeout)
            r.blpop(["q"], timeout=5 or 0)
            r.blpop(["q"], timeout=wait and 0)
            r.blpop(["q"], timeout=0)
            r.scan_iter(match="a:*", **kwargs)
            r.scan_iter("a:*")
        """
    )
    assert [calls[line].possible for line in range(6, 13)] == [
        (("timeout", 0),),
        (("timeout", None), ("timeout", 5)),
        (("timeout", 0),),
        (),
        (("timeout", 5),),  # `5 or 0` is 5: the fallback is never reached
        (("timeout", 0),),
        (),
    ]
    assert (calls[13].unpacked, calls[13].may_give("count")) == (True, True)
    assert (calls[14].unpacked, calls[14].may_give("count")) == (False, False)


def test_an_expire_in_a_loop_over_the_written_keys_or_their_builder_pairs_with_the_write() -> None:
    calls = extract(
        """
        import redis
        r = redis.Redis()
        def cache_many(accum, timeout):
            pipe = r.pipeline(transaction=False)
            pipe.mset(accum)
            if timeout:
                for key in accum:
                    pipe.expire(key, timeout)
            pipe.execute()
        def put(queue, pri, message, steps):
            key = queue_key(queue, pri)
            with r.pipeline(transaction=False) as pipe:
                pipe.lpush(key, message)
                for step in steps:
                    pipe.pexpire(queue_key(queue, step), 60_000)
                pipe.execute()
        def put_unpaired(queue, pri, message, steps):
            with r.pipeline(transaction=False) as pipe:
                pipe.lpush(queue_key(queue, pri), message)
                pipe.pexpire(other_key(queue), 60_000)
                pipe.execute()
        """
    ).calls
    writes = {(c.origin.line, c.method): (c.expiry, c.expire_line) for c in calls if c.method in ("mset", "lpush")}
    assert writes == {
        (6, "mset"): (EXPIRY_SAME_SCOPE, 9),
        (14, "lpush"): (EXPIRY_SAME_SCOPE, 16),
        (20, "lpush"): (None, None),  # an EXPIRE outside a loop pairs with the same key only
    }


def test_items_of_loops_over_the_same_collection_are_the_same_keys() -> None:
    assert summary(
        """
        import redis
        r = redis.Redis()
        def rename(keys, mapping, old, new):
            pipe = r.pipeline(transaction=False)
            for key in keys:
                pipe.hget(key, old)
            values = pipe.execute()
            pipe = r.pipeline(transaction=False)
            for key, value in zip(keys, values):
                pipe.hset(key, new, value)
            for index, key in enumerate(sorted(keys)):
                pipe.rpush(key, index)
            for name in mapping.keys():
                r.get(name)
            for name, value in mapping.items():
                r.sadd(name, value)
            for name in other(mapping):
                r.lpush(name, 1)
        """
    ) == [
        (7, "hget", None, False),
        (8, "execute", None, False),
        (11, "hset", None, True),
        (13, "rpush", None, True),
        (15, "get", None, False),
        (17, "sadd", None, True),
        (19, "lpush", None, False),  # the items of another collection
    ]


def test_two_locals_bound_to_an_unknown_call_are_two_keys() -> None:
    assert summary(
        """
        import os
        import redis
        r = redis.Redis()
        def f(uid):
            foo = os.urandom(10)
            bar = os.urandom(10)
            r.sadd(foo, "a")
            r.sadd(bar, "b")
            r.expire(foo, 60)
            key = make_key(uid)
            r.get(key)
            key = make_key(uid)
            r.hset(key, "f", 1)
            built = f"user:{uid}"
            again = f"user:{uid}"
            r.get(built)
            r.set(again, 1)
        """
    ) == [
        (8, "sadd", EXPIRY_SAME_SCOPE, False),
        (9, "sadd", None, False),
        (10, "expire", "option", True),
        (12, "get", None, False),
        (14, "hset", None, True),  # the same local bound again to the same call: the same key
        (17, "get", None, False),
        (18, "set", None, True),  # a template is the same key whatever local holds it
    ]
