"""The guard on a synchronous redis-py client against a real server: every seeded break of a sample
application is reported at its call site with its rule, nothing on the clean paths, and each mode reacts as
documented."""

from __future__ import annotations

import io
import json
import logging
import os
import threading
import warnings
from pathlib import Path

import pytest
import redis

from rediscipline.guard import (
    ConventionViolation,
    ConventionWarning,
    GuardError,
    guard,
    guard_report,
    unguard,
)
from rediscipline.model.report import Report
from rediscipline.render.json_output import render_json
from rediscipline.settings.errors import ConfigError
from tests.guard.apps import shop
from tests.guard.conftest import APPS, calls, recorder, seeded
from tests.support.servers import ServerProcess

SHOP = APPS / "shop.py"


def places(report: Report) -> set[tuple[str, str, int]]:
    """(rule, file name, line) of every finding."""
    return {(f.rule_id, Path(f.location.path or "").name, f.location.line or 0) for f in report.findings}


def run_shop(r: redis.Redis) -> None:
    """Every function of the shop once, clean ones and seeded ones."""
    for uid in range(5):
        shop.save_profile(r, uid, b"profile")
    shop.load_profiles(r, list(range(100)))
    shop.load_many_profiles(r, list(range(150)))
    shop.add_to_cart(r, 7, "book")
    shop.add_to_cart_clean(r, 8, "pen")
    shop.cache_page(r, "/home", b"<html></html>")
    shop.cache_big_page(r, "/big", os.urandom(20_000))
    shop.store_raw(r, b"\xff\xfe\x00", b"\x80\x81")
    shop.find_sessions(r)
    shop.fill_queue(r, 250)
    shop.read_all(r, 8)
    shop.purge(r)


def test_every_seeded_break_is_reported_at_its_call_site(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    run_shop(client)
    assert places(guard_report(client)) == seeded(SHOP)


def test_clean_paths_report_nothing(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    for uid in range(20):
        shop.save_profile(client, uid, b"profile")
        shop.add_to_cart_clean(client, uid, "pen")
    shop.load_profiles(client, list(range(100)))
    shop.fill_queue(client, 199)
    report = guard_report(client)
    assert report.findings == ()
    assert [n.params["commands"] for n in report.notes if n.code == "guard-commands"] == [20 + 20 * 2 + 1 + 200]


def test_counts_are_per_call_site(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    for _ in range(3):
        shop.cache_page(client, "/a", b"x")
    (finding,) = guard_report(client).findings
    assert (finding.rule_id, finding.count, finding.pattern) == ("TTL006", 3, b"page:html:a")


def test_raise_refuses_before_anything_is_sent(client: redis.Redis, plain: redis.Redis) -> None:
    guard(client, collector=recorder("raise"))
    with pytest.raises(ConventionViolation) as refused:
        shop.find_sessions(client)
    error = refused.value
    assert (error.rule_id, error.command, Path(error.location.path or "").name) == ("CMD001", "keys", "shop.py")
    assert error.location.line == next(line for rule, _f, line in seeded(SHOP) if rule == "CMD001")
    assert "keys" not in calls(plain)
    shop.save_profile(client, 1, b"p")  # a clean command goes through
    assert plain.exists("user:profile:1") == 1


def test_raise_threshold_follows_fail_on(client: redis.Redis, plain: redis.Redis) -> None:
    guard(client, collector=recorder("raise", fail_on="warning"))
    with pytest.raises(ConventionViolation, match="TTL006"):
        shop.cache_page(client, "/home", b"x")
    assert plain.exists(b"page:html:/home") == 0
    assert "set" not in calls(plain)


def test_raise_refuses_a_whole_pipeline(client: redis.Redis, plain: redis.Redis) -> None:
    guard(client, collector=recorder("raise", fail_on="warning"))
    with pytest.raises(ConventionViolation, match="BAT003"):
        shop.fill_queue(client, 250)
    assert plain.exists("queue:jobs") == 0
    assert "rpush" not in calls(plain)
    pipe = client.pipeline()
    assert pipe.execute() == []  # a new pipeline starts empty


def test_warn_once_per_rule_pattern_and_site(client: redis.Redis) -> None:
    guard(client, collector=recorder("warn"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(10):
            shop.cache_page(client, "/same", b"x")
    ours = [w for w in caught if issubclass(w.category, ConventionWarning)]
    assert len(ours) == 1
    (warning,) = ours
    assert (Path(warning.filename).name, warning.lineno) == ("shop.py", _line("TTL006", "cache_page"))
    assert str(warning.message).startswith("TTL006 SET writes `page:html:same` without a TTL")


def test_log_mode_writes_structured_records(client: redis.Redis, caplog: pytest.LogCaptureFixture) -> None:
    guard(client, collector=recorder("log"))
    with caplog.at_level(logging.INFO, logger="rediscipline.guard"):
        shop.find_sessions(client)
    (record,) = [r for r in caplog.records if r.name == "rediscipline.guard"]
    fields = record.rediscipline  # type: ignore[attr-defined]
    assert record.levelno == logging.ERROR
    assert fields["rule"] == "CMD001" and fields["command"] == "keys"
    assert (Path(fields["path"]).name, fields["line"], fields["function"]) == (
        "shop.py",
        _line("CMD001", "find_sessions"),
        "find_sessions",
    )


def test_guarding_twice_changes_nothing_and_unguard_restores(client: redis.Redis) -> None:
    owner = recorder()
    assert guard(client, collector=owner) is client
    hook = client.execute_command
    guard(client, collector=recorder())
    assert client.execute_command is hook
    shop.cache_page(client, "/x", b"x")
    unguard(client)
    assert "execute_command" not in vars(client)
    shop.cache_page(client, "/y", b"y")
    (finding,) = guard_report_of(owner).findings
    assert finding.count == 1


def test_an_unsupported_object_is_a_type_error() -> None:
    with pytest.raises(GuardError, match=r"cannot guard a builtins\.dict") as error:
        guard({}, mode="record")
    assert isinstance(error.value, TypeError)


def test_a_convention_file_error_is_raised_by_guard(client: redis.Redis, tmp_path: Path) -> None:
    broken = tmp_path / "rediscipline.toml"
    broken.write_text('preset = "default"\n[rules.KEY005]\nmax-bytes = "long"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="KEY005"):
        guard(client, mode="record", config=broken)
    assert "execute_command" not in vars(client)


def test_non_utf8_keys_and_values(client: redis.Redis, plain: redis.Redis) -> None:
    guard(client, collector=recorder())
    shop.store_raw(client, b"\xff\xfe\x00", b"\x80\x81")
    client.set(b"Blob:\xff\xfe", b"\x00" * 20_000, ex=60)
    report = guard_report(client)
    assert {(f.rule_id, f.code, f.pattern) for f in report.findings} == {
        ("KEY001", "control", b"blob:raw:\xff\xfe\x00"),
        ("KEY002", "invalid-utf8", b"blob:raw:\xff\xfe\x00"),
        ("KEY002", "invalid-utf8", b"Blob:\xff\xfe"),
        ("KEY006", "uppercase", b"Blob:\xff\xfe"),
        ("VAL001", "over-limit", b"Blob:\xff\xfe"),
    }
    assert plain.get(b"blob:raw:\xff\xfe\x00") == b"\x80\x81"
    json.loads(rendered(report))  # bytes are escaped


def test_commands_redis_py_does_not_know(client: redis.Redis, plain: redis.Redis) -> None:
    guard(client, collector=recorder())
    assert client.execute_command("SET", "Odd:Key", "v", "EX", 60) is True
    assert "maxmemory" in client.execute_command("CONFIG GET", "maxmemory")
    client.execute_command("FLUSHALL")
    with pytest.raises(redis.ResponseError, match="unknown command"):
        client.execute_command("NOT-A-COMMAND", b"Some:\xffKey")
    rules = {f.rule_id for f in guard_report(client).findings}
    assert rules == {"KEY006", "CMD002"}  # an unknown command: no key is known, nothing is judged
    assert plain.dbsize() == 0


def test_a_pipeline_that_fails_midway(client: redis.Redis, plain: redis.Redis) -> None:
    guard(client, collector=recorder())
    plain.set("counter:text", "not a number", ex=60)
    pipe = client.pipeline(transaction=False)
    pipe.set("Counter:A", 1, ex=60)
    pipe.incr("counter:text")
    pipe.set("Counter:B", 2)
    replies = pipe.execute(raise_on_error=False)
    assert isinstance(replies[1], redis.ResponseError)
    found = {(f.rule_id, f.location.line) for f in guard_report(client).findings}
    line = _this_line('pipe.set("Counter:B", 2)')
    assert ("TTL006", line) in found
    assert ("KEY006", _this_line('pipe.set("Counter:A", 1, ex=60)')) in found


def test_threads_lose_and_duplicate_nothing(client: redis.Redis) -> None:
    owner = recorder()
    guard(client, collector=owner)
    barrier = threading.Barrier(8)

    def work() -> None:
        barrier.wait()
        for _ in range(100):
            shop.cache_page(client, "/t", b"x")

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    counts = {f.rule_id: f.count for f in guard_report_of(owner).findings}
    assert counts.pop("TTL006") == 800
    assert set(counts) <= {"BAT002"}  # one site called in loops: BAT002 when the calls follow closely enough
    assert [n.params["commands"] for n in guard_report_of(owner).notes if n.code == "guard-commands"] == [800]


def test_a_client_made_for_another_database(server: ServerProcess, plain: redis.Redis) -> None:
    owner = recorder()
    other = guard(redis.Redis(host=server.host, port=server.port, db=3), collector=owner)
    other.close()
    (finding,) = guard_report_of(owner).findings
    assert (finding.rule_id, finding.code, finding.location.line) == (
        "CMD006",
        "non-zero-db",
        _this_line("db=3), collector=owner)"),
    )


def test_subscriptions_count_the_channels_held(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    pubsub = client.pubsub()
    pubsub.subscribe(*[f"news:channel:{i}" for i in range(40)])
    pubsub.subscribe(*[f"news:channel:{i}" for i in range(40, 80)])
    pubsub.close()
    (finding,) = guard_report(client).findings
    assert (finding.rule_id, finding.location.line) == ("PUB002", _this_line("range(40, 80)"))


def test_guard_report_renders_in_every_format(client: redis.Redis) -> None:
    guard(client, collector=recorder())
    run_shop(client)
    document = json.loads(rendered(guard_report(client)))
    assert document["run"]["command"] == "guard"
    assert {f["location"]["source"] for f in document["findings"]} == {"runtime"}


def rendered(report: Report) -> str:
    out = io.StringIO()
    render_json(report, out)
    return out.getvalue()


def guard_report_of(owner: object) -> Report:
    from rediscipline.guard import report_of

    return report_of(owner)  # type: ignore[arg-type]


def _line(rule: str, function: str) -> int:
    """The line of the seeded `rule` inside `function` of the shop."""
    lines = SHOP.read_text(encoding="utf-8").splitlines()
    start = next(i for i, text in enumerate(lines) if text.startswith(f"def {function}("))
    return next(i + 1 for i in range(start, len(lines)) if f"seeded: {rule}" in lines[i] or f", {rule}" in lines[i])


def _this_line(text: str) -> int:
    """The line of this test file holding `text`."""
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    return next(i + 1 for i, line in enumerate(lines) if text in line and "_this_line" not in line)
