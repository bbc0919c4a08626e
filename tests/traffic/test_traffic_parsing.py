"""The parsers of the traffic window on the replies servers give, hostile ones included."""

from __future__ import annotations

from rediscipline.model.location import SOURCE_TRAFFIC, Location
from rediscipline.model.traffic import SlotHeat, TrafficView
from rediscipline.sources.traffic.clients import CLIENTS_KEPT, VALUE_LIMIT, parse_clients
from rediscipline.sources.traffic.slots import slot_heat
from rediscipline.sources.traffic.slowlog import newest_id, slow_calls
from rediscipline.sources.traffic.snapshot import Snapshot, parse_sections
from rediscipline.sources.traffic.source import parse_output_limits
from rediscipline.sources.traffic.window import Observed, traffic_view

REDIS_74_LINE = (
    b"id=7 addr=10.0.0.5:51022 laddr=10.0.0.1:6379 fd=9 name=orders age=120 idle=3 flags=P db=0 sub=60 psub=1 "
    b"ssub=2 multi=-1 watch=0 qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=3 omem=9000000 "
    b"tot-mem=9020000 events=rw cmd=subscribe user=default redir=-1 resp=2 lib-name=redis-py lib-ver=5.0.1 "
    b"io-thread=0 newfield=x"
)


def test_client_list_fields_are_read_by_name_and_unknown_ones_kept() -> None:
    clients, total = parse_clients(REDIS_74_LINE + b"\n")
    [client] = clients
    assert total == 1
    assert (client.id, client.addr, client.name, client.flags, client.cmd) == (
        7,
        "10.0.0.5:51022",
        "orders",
        "P",
        "subscribe",
    )
    assert (client.sub, client.psub, client.ssub, client.channels, client.omem, client.multi, client.watch) == (
        60,
        1,
        2,
        63,
        9_000_000,
        -1,
        0,
    )
    assert (client.lib, client.output_class, client.label) == ("redis-py 5.0.1", "pubsub", "10.0.0.5:51022 (orders)")
    assert client.fields["newfield"] == "x" and client.fields["io-thread"] == "0"


def test_an_old_server_without_newer_fields_gives_their_defaults() -> None:
    line = b"id=3 addr=127.0.0.1:5000 fd=8 name= age=1 idle=0 flags=N db=0 sub=0 psub=0 multi=-1 omem=0 cmd=get"
    [client] = parse_clients(line)[0]
    assert (client.ssub, client.watch, client.tot_mem, client.lib, client.label) == (
        0,
        None,
        None,
        "",
        "127.0.0.1:5000",
    )


def test_our_own_connection_is_left_out_and_the_list_is_bounded() -> None:
    lines = b"\n".join(b"id=%d addr=10.0.0.1:%d flags=N cmd=get" % (n, n) for n in range(1, CLIENTS_KEPT + 3))
    clients, total = parse_clients(lines, exclude=2)
    assert (len(clients), total) == (CLIENTS_KEPT, CLIENTS_KEPT + 1)
    assert 2 not in {client.id for client in clients}


def test_hostile_values_are_kept_as_text_and_bounded() -> None:
    line = b"id=9 addr=10.0.0.9:1 name=" + b"\xff\xfe\x1b[31m" + b"n" * 10_000 + b" flags=N omem=x cmd=get"
    [client] = parse_clients(line)[0]
    assert client.name.startswith("\\xff\\xfe\x1b[31m") and len(client.name.encode()) <= VALUE_LIMIT * 4
    assert client.omem == 0  # not a number: unknown
    assert parse_clients(b"garbage without fields\nid=x addr=1\n\n") == ((), 0)


def test_output_buffer_limits_as_servers_write_them() -> None:
    assert parse_output_limits("normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60") == {
        "normal": (0, 0, 0),
        "replica": (268435456, 67108864, 60),
        "pubsub": (33554432, 8388608, 60),
    }
    assert parse_output_limits("pubsub 32mb 8mb 60 replica 1gb 64k 30") == {
        "pubsub": (32 << 20, 8 << 20, 60),
        "replica": (1 << 30, 64_000, 30),
    }
    assert parse_output_limits("pubsub lots 8mb 60") == {}


def test_slow_log_entries_of_every_server_shape() -> None:
    reply = [
        [12, 1700000100, 15000, [b"HGETALL", b"order:1:items"], b"10.0.0.5:51022", b"worker"],
        [11, 1700000090, 9000, [b"CONFIG", b"SET", b"x", b"1"], b"10.0.0.5:51022", b""],
        [10, 1700000080, 800, [b"KEYS", b"\xff*"]],  # before Redis 4.0: no client fields
        [9, b"bad", 1, [b"GET", b"k"]],
        [8, 1700000070, 1, []],
        "not an entry",
    ]
    calls = slow_calls(reply)
    assert [(c.id, c.command, c.args, c.client, c.client_name) for c in calls] == [
        (12, "hgetall", (b"order:1:items",), "10.0.0.5:51022", "worker"),
        (11, "config|set", (b"x", b"1"), "10.0.0.5:51022", ""),
        (10, "keys", (b"\xff*",), "", ""),
    ]
    assert newest_id(reply) == 12 and newest_id([]) == -1 and slow_calls(b"ERR") == ()


def snapshot(commandstats: str, stats: str = "", uptime: int = 100, run_id: str = "a") -> Snapshot:
    text = f"# Server\nrun_id:{run_id}\nuptime_in_seconds:{uptime}\n# Stats\n{stats}\n# Commandstats\n{commandstats}\n"
    return Snapshot(parse_sections(text.encode()), clock=1000.0)


ORIGIN = Location(SOURCE_TRAFFIC, "redis://h:6379")


def window(start: Snapshot, end: Snapshot, own: dict[str, int] | None = None) -> TrafficView:
    return traffic_view(ORIGIN, start, end, seconds=10.0, observed=Observed(), own=own or {}, own_errors={})


def test_the_window_is_the_difference_without_our_own_calls() -> None:
    start = snapshot("cmdstat_get:calls=100,usec=500,usec_per_call=5.00,rejected_calls=0,failed_calls=0\n"
                     "cmdstat_info:calls=3,usec=90,usec_per_call=30.00,rejected_calls=0,failed_calls=0",
                     "total_commands_processed:103")  # fmt: skip
    end = snapshot("cmdstat_get:calls=160,usec=800,usec_per_call=5.00,rejected_calls=1,failed_calls=2\n"
                   "cmdstat_info:calls=4,usec=120,usec_per_call=30.00,rejected_calls=0,failed_calls=0\n"
                   "cmdstat_keys:calls=2,usec=40,usec_per_call=20.00,rejected_calls=0,failed_calls=0",
                   "total_commands_processed:166")  # fmt: skip
    view = window(start, end, {"info": 1})
    assert [(c.name, c.calls, c.usec, c.failed, c.rejected) for c in view.commands] == [
        ("get", 60, 300, 2, 1),
        ("keys", 2, 40, 0, 0),
    ]
    assert view.stats == {"total_commands_processed": 63} and not view.reset


def test_counters_that_go_backwards_make_the_window_unknown() -> None:
    start = snapshot("cmdstat_get:calls=100,usec=500", uptime=100)
    for end in (
        snapshot("cmdstat_get:calls=10,usec=50", uptime=200),  # CONFIG RESETSTAT
        snapshot("cmdstat_get:calls=200,usec=900", uptime=5),  # a restart
        snapshot("cmdstat_get:calls=200,usec=900", run_id="b"),  # a failover to another server
        snapshot("cmdstat_set:calls=5,usec=9"),  # get's counters vanished
    ):
        view = window(start, end)
        assert view.reset and view.commands == () and view.stats == {}


def test_slot_heat_is_the_difference_of_two_readings() -> None:
    """Slots in both readings are diffed; a slot that moved in (only at the end) or whose counters went back
    (it moved away and back) is left out; idle slots count in the totals but are not hot; hottest CPU first,
    then bytes."""
    start = {1: (3, 100, 1_000), 2: (0, 50, 500), 3: (9, 400, 4_000), 4: (1, 10, 10), 5: (0, 0, 0)}
    end = {1: (4, 900, 1_500), 2: (0, 50, 900), 3: (9, 300, 5_000), 4: (1, 10, 10), 5: (0, 0, 0), 6: (2, 70, 70)}
    heat = slot_heat(start, end)
    assert heat.slots == 4  # 1, 2, 4 and 5: 3 went back, 6 moved in
    assert (heat.cpu_usec, heat.network_bytes) == (800, 900)
    assert heat.hot == (SlotHeat(1, 800, 500, 4), SlotHeat(2, 0, 400, 0))
    assert heat.cpu_share(heat.hot[0]) == 1.0
