"""`sample_monitor` against real servers: what a sample reports is what the clients sent while it ran.

The hot-key test drives a Zipf(1.0) workload over 10 000 keys, counting what it sends batch by batch with
this machine's clock (the server's, on the same machine); a batch that ran wholly between the sample's first
and last command is surely in it, one that overlapped that span may be. The shape tests end their sample on
a marker command (`MarkedSample`), so that every command sent before it is in the sample and the counts are
exact. No test asserts how long anything took, only that the sample ended and why.
"""

from __future__ import annotations

import errno
import io
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest
import redis

from rediscipline.model.keyname import render_parts
from rediscipline.model.keypattern import infer_parts
from rediscipline.model.monitor import (
    STOP_BACKLOG,
    STOP_CLOSED,
    STOP_DURATION,
    STOP_INTERRUPTED,
    STOP_MAX_BYTES,
    STOP_REFUSED,
    ArityShape,
    ClientCount,
    MonitorSample,
    TransactionShape,
    TtlShape,
)
from rediscipline.sources.errors import SourceError
from rediscipline.sources.live.url import parse_address
from rediscipline.sources.traffic.monitor import sample_monitor
from rediscipline.sources.traffic.trace import TraceWriter, read_trace
from tests.support.kinds import running
from tests.support.servers import ServerProcess
from tests.traffic.monitor_support import ALL_KINDS, MarkedSample, MarkerStream, wait_for_monitor

KEYS = 10_000
BATCH = 50


class ZipfLoad:
    """A thread sending pipelined GETs of Zipf(1.0)-drawn keys `hot:{rank}`, recording each batch's keys
    with the times (this machine's clock) before it was sent and after its replies came back."""

    def __init__(self, server: ServerProcess, seed: int = 11) -> None:
        self.client = server.client()
        self.client.ping()
        self.batches: list[tuple[float, float, list[bytes]]] = []
        names = [b"hot:%d" % rank for rank in range(1, KEYS + 1)]
        weights = [1.0 / rank for rank in range(1, KEYS + 1)]
        chooser = random.Random(seed)
        self.draw = lambda: chooser.choices(names, weights, k=BATCH)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            keys = self.draw()
            pipe = self.client.pipeline(transaction=False)
            for key in keys:
                pipe.get(key)
            before = time.time()
            pipe.execute()
            self.batches.append((before, time.time(), keys))

    def __enter__(self) -> ZipfLoad:
        self._thread.start()
        while len(self.batches) < 20:  # running before the sample starts
            threading.Event().wait(0.01)
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.client.close()

    def sent_between(self, first: float, last: float) -> tuple[Counter[bytes], Counter[bytes]]:
        """Keys sent surely inside [first, last] (whole batches), and possibly (batches overlapping it)."""
        surely: Counter[bytes] = Counter()
        possibly: Counter[bytes] = Counter()
        for before, after, keys in self.batches:
            if after < first or before > last:
                continue
            possibly.update(keys)
            if before >= first and after <= last:
                surely.update(keys)
        return surely, possibly


@pytest.fixture(params=ALL_KINDS)
def server(request: pytest.FixtureRequest) -> Iterator[ServerProcess]:
    with running(request.param) as started:
        yield started


def test_the_hot_keys_of_a_zipf_workload_are_found_with_their_counts(server: ServerProcess) -> None:
    """The true top 10 of what was sent during the sample: recall at least 0.9, counts within 20%. The sketches
    have 1000 counters for 10 000 keys, so that they evict (with the default capacity every key would have a
    counter of its own)."""
    with ZipfLoad(server) as load:
        sample = sample_monitor(parse_address(server.url), 1.5, capacity=1000)
        threading.Event().wait(0.25)
    assert (sample.stopped, sample.error, sample.malformed, sample.sketch_capacity) == (STOP_DURATION, None, 0, 1000)
    assert sample.first_time is not None and sample.last_time is not None
    surely, possibly = load.sent_between(sample.first_time, sample.last_time)
    top = [key for key, _count in possibly.most_common(10)]
    found = {hot.key: hot for hot in sample.hot_by_ops[:10]}
    assert len(set(top) & set(found)) >= 9, (top, list(found))
    for key in set(top) & set(found):
        hot = found[key]
        assert hot.db == 0 and hot.error <= sample.ops_floor
        assert 0.8 * surely[key] <= hot.count <= 1.2 * possibly[key], (key, hot, surely[key], possibly[key])
    assert sample.commands["get"] == sample.key_ops >= sum(surely.values())
    assert sample.key_ops <= sum(possibly.values())
    with server.client() as client:
        wait_for_monitor(client, present=False)  # the sample's connection is closed


def test_a_tiny_byte_budget_stops_the_sample_early(server: ServerProcess) -> None:
    with ZipfLoad(server):
        sample = sample_monitor(parse_address(server.url), 30.0, max_bytes=4096)
    assert (sample.stopped, sample.error, sample.bytes_read, sample.max_bytes) == (STOP_MAX_BYTES, None, 4096, 4096)
    assert sample.lines > 10 and sample.malformed <= 1  # the line the budget cut, if it cut one
    assert sample.key_ops == sample.lines


def test_a_parser_behind_the_server_ends_the_sample_there(server: ServerProcess) -> None:
    """A backlog of one byte: the first chunk read and not yet parsed ends the sample, whose lines are then
    all parsed (a chunk may end inside a line: that one is cut)."""
    with ZipfLoad(server):
        sample = sample_monitor(parse_address(server.url), 30.0, max_backlog=1)
    assert (sample.stopped, sample.error) == (STOP_BACKLOG, None)
    assert sample.lines >= 1 and sample.malformed <= 1 and sample.bytes_read < sample.max_bytes
    assert sample.key_ops == sample.lines


def test_binary_keys_and_command_shapes_are_reported_exactly(server: ServerProcess) -> None:
    keys = [b"bin:\x00\xff", b'bin:"quoted"\\', b"bin:\r\n\t", "bin:键".encode(), b"bin:\x80 end"]
    with server.client() as client:
        address = client.client_info()["addr"]
        marked = MarkedSample(server, client)
        for key in keys:
            client.set(key, key * 3)
        client.mget(keys)
        client.mget(keys[:2])
        client.delete(*keys[3:])
        pipe = client.pipeline(transaction=True)
        pipe.set(b"user:7:name", b"ann")
        pipe.expire(b"session:7", 900)
        pipe.expire(b"session:8", 900)
        pipe.execute()
        client.set(b"session:9", b"x", ex=900)
        client.set(b"session:10", b"x", px=5000)
        sample = marked.finish()
    assert (sample.stopped, sample.error, sample.malformed, sample.lines) == (STOP_DURATION, None, 0, 16)
    assert sample.clients == (ClientCount(address, 16, 0),)
    ops = {hot.key: (hot.db, hot.count, hot.error) for hot in sample.hot_by_ops}
    assert {key: ops[key] for key in keys} == {keys[0]: (0, 3, 0), keys[1]: (0, 3, 0), keys[2]: (0, 2, 0),
                                               keys[3]: (0, 3, 0), keys[4]: (0, 3, 0)}  # fmt: skip
    assert len(ops) == len(keys) + 6  # user:7:name, four session keys, the marker
    by_bytes = {hot.key: hot.count for hot in sample.hot_by_bytes}
    lengths = [len(key) for key in keys]
    assert by_bytes[keys[0]] == pytest.approx(4 * lengths[0] + sum(lengths) / 5 + (lengths[0] + lengths[1]) / 2)
    assert sample.arity == (
        ArityShape("mget", 2, 5, {2: 1, 8: 1}, address, keys[0]),
        ArityShape("del", 1, 2, {2: 1}, address, keys[3]),
    )
    assert sample.transactions == (TransactionShape(address, 1, 3, 3),)
    patterns = Counter(render_parts(infer_parts(key)) for key in keys)
    without = {shape.pattern: (shape.count, shape.error, shape.example_command) for shape in sample.writes_without_ttl}
    assert without == {pattern: (count, 0, "set") for pattern, count in patterns.items()} | {
        b"user:*:name": (1, 0, "set")
    }
    # the three 900 s writes are a burst when each follows the last within 5 ms (a slow machine may break it)
    unburst = [replace(shape, burst=0, burst_ttl_ms=0, burst_command="") for shape in sample.ttls]
    assert unburst == [TtlShape(b"session:*", 4, 0, 900_000, False, 3, 0, b"session:7")]
    assert sample.ttls[0].burst in (0, 2, 3) and sample.ttls[0].burst_ttl_ms in (0, 900_000)
    trace = list(read_trace(marked.trace.splitlines()))
    assert [(access.db, access.command, access.size, access.key) for access in trace[: len(keys)]] == [
        (0, "set", 4 * len(key), key) for key in keys
    ]
    assert sample.first_time is not None and trace[0].us == round(sample.first_time * 1_000_000)
    assert len(trace) == sum(count for _db, count, _error in ops.values())


def test_a_user_without_monitor_gets_a_refusal_not_an_exception(server: ServerProcess) -> None:
    with server.client() as admin:
        admin.execute_command("ACL", "SETUSER", "watcher", "on", ">secret", "~*", "+@all", "-monitor")
        sample = sample_monitor(parse_address(server.url_for("watcher", "secret")), 5.0)
        assert sample.stopped == STOP_REFUSED and sample.error is not None
        assert sample.error.startswith("NOPERM") and "monitor" in sample.error.lower(), sample.error
        assert (sample.lines, sample.bytes_read, sample.hot_by_ops) == (0, 0, ())
        for _ in range(500):  # its connection is closed (the server notices it at once or nearly)
            if not [c for c in admin.client_list() if c.get("user") == "watcher"]:
                break
            threading.Event().wait(0.01)
        assert not [c for c in admin.client_list() if c.get("user") == "watcher"]


def test_a_connection_the_server_closes_ends_the_sample(server: ServerProcess) -> None:
    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(sample_monitor(parse_address(server.url), 30.0)))
    with server.client() as admin:
        admin.ping()
        thread.start()
        wait_for_monitor(admin)
        [monitor] = [c for c in admin.client_list() if "O" in c["flags"]]
        admin.client_kill_filter(_id=monitor["id"])
    thread.join(60)
    [sample] = done
    assert getattr(sample, "stopped", None) == STOP_CLOSED
    assert getattr(sample, "error", None) == "the server closed the connection"


def test_a_ctrl_c_ends_the_sample_with_what_was_read(server: ServerProcess) -> None:
    with server.client() as client:
        client.ping()
        marked = MarkedSample(server, client, interrupt=True)
        client.get(b"before:1")
        sample = marked.finish()
    assert sample.stopped == STOP_INTERRUPTED and sample.error is None
    assert [hot.key for hot in sample.hot_by_ops] == [b"before:1", marked.marker]


def test_a_sample_in_a_worker_thread_ends_when_its_stop_is_set(server: ServerProcess) -> None:
    """A thread gets no KeyboardInterrupt: the thread that got it sets the sample's stop, and the sample ends
    as interrupted, with what it read, long before its 30 s."""
    stop = threading.Event()
    stream = MarkerStream(b"seen:1")
    done: list[MonitorSample] = []

    def run() -> None:
        done.append(sample_monitor(parse_address(server.url), 30.0, trace=TraceWriter(stream), stop=stop))

    thread = threading.Thread(target=run, daemon=True)
    with server.client() as admin:
        admin.ping()
        thread.start()
        wait_for_monitor(admin)
        admin.get(b"seen:1")
        assert stream.seen.wait(30)
        stop.set()
        thread.join(30)
        assert not thread.is_alive()
        [sample] = done
        assert sample.stopped == STOP_INTERRUPTED and sample.error is None
        assert b"seen:1" in {hot.key for hot in sample.hot_by_ops}


class FullDisk(io.StringIO):
    """A trace stream that takes the header, then fails as a full disk does."""

    def write(self, text: str) -> int:
        if self.tell():
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(text)


def test_a_trace_that_cannot_be_written_is_a_one_line_error(server: ServerProcess) -> None:
    with ZipfLoad(server), pytest.raises(SourceError, match=r"^cannot write the trace: no space left on device$"):
        sample_monitor(parse_address(server.url), 30.0, trace=TraceWriter(FullDisk()))
    with server.client() as client:
        wait_for_monitor(client, present=False)


def test_bad_limits_and_unreachable_servers_are_one_line_errors() -> None:
    address = parse_address("redis://127.0.0.1:1")
    with pytest.raises(SourceError, match="more than 0 seconds"):
        sample_monitor(address, 0)
    with pytest.raises(SourceError, match="byte budget above 0"):
        sample_monitor(address, 1.0, max_bytes=0)
    with pytest.raises(SourceError, match="byte budget above 0"):
        sample_monitor(address, 1.0, max_backlog=-1)
    with pytest.raises(SourceError, match=r"cannot connect to redis://127\.0\.0\.1:1"):
        sample_monitor(address, 1.0)
    with pytest.raises(TypeError, match="MONITOR needs"):
        sample_monitor("redis://127.0.0.1:1", 1.0)


def test_the_sample_runs_on_a_connection_it_is_given(server: ServerProcess) -> None:
    """A redis-py connection made for the sample is used as is (its socket), and closed at the end."""
    connection = redis.Connection(host=server.host, port=server.port)
    connection.connect()
    with server.client() as client:
        client.ping()
        sample = sample_monitor(connection, 0.5)
    assert sample.stopped == STOP_DURATION and connection._sock is None
