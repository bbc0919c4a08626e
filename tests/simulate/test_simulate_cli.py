"""`rediscipline simulate eviction` as a user runs it: a trace in, hit ratios per policy and size out (text and
JSON), a curve over the working set by default; bad options and traces one line and exit 2."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rediscipline.simulate.memory import REDIS_70, model_for
from tests.support.cli import run_cli


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("simulate", "eviction", *args)


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    """Two hot keys read in turn every 100 ms, and twenty cold ones read once each, one a second: a cold key is
    seconds older than a hot one on the LRU clock (whole seconds). Values of 100 bytes."""
    lines = []
    for index in range(200):
        lines.append(f"{index * 100} hot:{index % 2} 100")
        if index % 10 == 0:
            lines.append(f"{index * 100} cold:{index // 10} 100")
    path = tmp_path / "trace.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_json_has_a_result_per_policy_and_size(trace: Path) -> None:
    per_key = REDIS_70.key_bytes(len(b"cold:10"), 100)
    room = REDIS_70.baseline + 64 + 6 * per_key  # the dict's first array and six keys
    done = cli(str(trace), "--maxmemory", f"{room},100mb", "--policy", "allkeys-lru,noeviction", "--format", "json")
    assert done.returncode == 1, done.stderr  # EVI002: noeviction refuses writes, an error
    report = json.loads(done.stdout)
    assert [(f["rule"], f["subject"]) for f in report["findings"]] == [("EVI002", "policy noeviction")]
    simulation = report["simulation"]["eviction"]
    assert simulation["trace"] == {
        "path": str(trace), "format": "text", "accesses": 220, "keys": 22, "span_ms": 19900, "timed": True,
        "volatile_accesses": 0, "working_set": simulation["trace"]["working_set"],
    }  # fmt: skip
    results = {(r["policy"], r["maxmemory"]): r for r in simulation["results"]}
    assert list(results) == [
        ("allkeys-lru", room), ("noeviction", room), ("allkeys-lru", 100 << 20), ("noeviction", 100 << 20)
    ]  # fmt: skip
    roomy = results[("allkeys-lru", 100 << 20)]
    assert (roomy["hits"], roomy["misses"], roomy["evicted_keys"], roomy["oom_errors"]) == (198, 22, 0, 0)
    tight = results[("allkeys-lru", room)]
    assert tight["evicted_keys"] > 0 and tight["oom_errors"] == 0
    assert tight["hits"] == 198  # the hot keys stay: only cold ones are evicted
    assert [n["pattern"] for n in tight["namespaces"]] == ["cold:*"]
    refused = results[("noeviction", room)]
    # memory is checked before each command: the key that goes past the room is taken, the ones after refused
    assert (refused["evicted_keys"], refused["oom_errors"]) == (0, 22 - 7)
    assert refused["hit_ratio"] == tight["hit_ratio"]  # each cold key is read once: refusing it costs no hit
    assert not report["notes"]


@pytest.mark.parametrize(
    ("server", "allocator"), [("valkey-9.1", "libc"), ("redis-8.2", "jemalloc"), ("redis-7.0", "jemalloc16")]
)
def test_memory_is_counted_as_the_server_named_counts_it(trace: Path, server: str, allocator: str) -> None:
    done = cli(str(trace), "--server", server, "--allocator", allocator, "--policy", "allkeys-lru", "--format", "json")
    assert done.returncode == 0, done.stderr
    simulation = json.loads(done.stdout)["simulation"]["eviction"]
    model = model_for(server, allocator)
    names = [b"hot:0", b"hot:1", *(b"cold:%d" % index for index in range(20))]
    keys = sum(model.key_bytes(len(name), 100) for name in names)
    assert simulation["trace"]["working_set"] == model.baseline + model.table_bytes(model.table_buckets(22)) + keys
    assert simulation["settings"]["memory_model"] == f"{server.replace('-', ' ')}, {allocator}"
    assert simulation["settings"]["baseline"] == model.baseline


def _saved_trace(tmp_path: Path, header: dict[str, object]) -> Path:
    """A `traffic --save-trace` file of two accesses under `header`'s extra fields."""
    path = tmp_path / "saved.jsonl"
    lines = [
        {"format": "rediscipline-trace", "version": 1, **header},
        {"us": 1_700_000_000_000_000, "db": 0, "cmd": "set", "size": 105, "key": "azox"},
        {"us": 1_700_000_000_100_000, "db": 0, "cmd": "get", "size": 5, "key": "azox"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize(
    ("header", "args", "model"),
    [
        ({"server": "valkey-9.1.2", "allocator": "libc"}, (), "valkey 9.1.2, libc"),
        ({"server": "redis-8.2.3"}, (), "redis 8.2.3, jemalloc16"),
        ({"server": "valkey-9.1.2", "allocator": "libc"}, ("--server", "redis-7.0"), "redis 7.0, libc"),
        ({"server": "valkey-9.1.2"}, ("--allocator", "jemalloc"), "valkey 9.1.2, jemalloc"),
        ({}, (), "redis 7.0, jemalloc16"),
    ],
)
def test_a_saved_trace_names_the_server_counted_unless_told(
    tmp_path: Path, header: dict[str, object], args: tuple[str, ...], model: str
) -> None:
    done = cli(str(_saved_trace(tmp_path, header)), *args, "--policy", "allkeys-lru", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["simulation"]["eviction"]["settings"]["memory_model"] == model


def test_a_saved_trace_naming_an_unknown_server_is_one_line(tmp_path: Path) -> None:
    path = _saved_trace(tmp_path, {"server": "keydb-6.3.4"})
    done = cli(str(path))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"rediscipline: error: {path}: its header: unknown server 'keydb-6.3.4': a flavor and a version, such as "
        "redis-7.0 or valkey-9.1"
    )
    hostile = _saved_trace(tmp_path, {"server": "\x1b[31m" + "x" * 100_000})
    done = cli(str(hostile))
    assert done.returncode == 2 and len(done.stderr) < 400, done.stderr[:400]
    assert "\x1b" not in done.stderr and "\\x1b[31m" in done.stderr


def test_the_curve_of_a_tiny_trace_replays_only_sizes_that_hold_a_key(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text("k:1 100\nk:1 100\n")  # a tenth of its working set is below its one key
    done = cli(str(path), "--policy", "allkeys-lru", "--format", "json")
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)["simulation"]["eviction"]["results"]
    one_key = REDIS_70.baseline + REDIS_70.table_bytes(4) + REDIS_70.key_bytes(len(b"k:1"), 100)
    assert results and all(r["maxmemory"] >= one_key for r in results)
    assert [(r["hits"], r["misses"]) for r in results][-1] == (1, 1)


def test_text_shows_the_curve_by_default(trace: Path) -> None:
    done = cli(str(trace))
    assert done.returncode == 0, done.stderr
    assert "Hit ratio by maxmemory and policy" in done.stdout
    assert "allkeys-lru  allkeys-lfu  allkeys-random" in done.stdout
    assert "100%" in done.stdout and "10%" in done.stdout
    assert "rules need" not in done.stdout  # a simulation is not told of the rules other inputs check


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("--policy", "lru"), "'lru' is not a maxmemory-policy: one of noeviction, allkeys-lru, allkeys-lfu, "
         "allkeys-random, volatile-lru, volatile-lfu, volatile-random, volatile-ttl"),
        (("--maxmemory", "100"), "--maxmemory 100 bytes is below what one key of this trace takes on redis 7.0"),
        (("--maxmemory", "lots"), "'lots' is not a size above 0"),
        (("--server", "keydb-6.3"), "unknown server 'keydb-6.3': a flavor and a version, such as redis-7.0"),
        (("--allocator", "tcmalloc"), "'tcmalloc' is not one of 'jemalloc', 'jemalloc16', 'libc'"),
    ],
)  # fmt: skip
def test_bad_options_are_one_line_and_exit_2(trace: Path, args: tuple[str, ...], error: str) -> None:
    done = cli(str(trace), *args)
    assert done.returncode == 2
    assert error in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr


def test_a_malformed_trace_is_one_line_with_its_line_number(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("1 a 10\n2 b ten\n")
    done = cli(str(path))
    assert done.returncode == 2
    assert done.stderr.strip() == f"rediscipline: error: {path}: line 2: size ten is not a whole number"
