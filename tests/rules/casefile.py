"""Load per-rule case files (`tests/rules/cases/KEY005.toml`) and run one case through the real engine.

A case lists keys (UTF-8 `keys`, or `keys-escaped` with Python `\\xNN` escapes for arbitrary bytes),
optional `options` for the rule, `namespaces`, a `key-type`, and the expected findings of that rule:
`{code, pattern?, subject?, count?, severity?, line?, message?}` (`message`: the whole English message).
`expect = []` is a passing case. `also` lists rules enabled beside it, with their default options (the
rules it overlaps with, rules/key/overlaps.py); only the findings of the case's rule are compared.

Rules on probed values, commands, servers and code use four more tables (all optional):

* `[[case.facts]]`: key facts with probed fields — `name` (or `name-escaped`), `type`, `ttl-ms`, `memory`,
  `length`, `encoding`, `idle`, `freq`, `expire-at-ms`, `element`, `head` (or `head-escaped`), `db`;
* `[case.server]`: a ServerFact — `info`, `config` (a table, or `false` when CONFIG GET was refused),
  `keyspace`/`expires` (`{ "0" = 100 }`), `commandstats`, `acl-users` (or `false`), `user`, `callable`,
  `unavailable`. The server is set before any fact is fed, so key rules see it as `ctx.server`;
* `[[case.commands]]`: command facts — `name`, `args` (or `args-escaped`; omit for commandstats), `calls`,
  `evidence` (default `slowlog`), `duration-us`; with `line` (and `path`, default `app.py`) the command is
  at a place in a file, as the code source reports it;
* `[[case.calls]]`: call sites in code (`CodeCall`) — `method`, `command` (default: the method; `""` for
  client-side methods such as `execute`), `keys` (templates written as globs: `user:*:profile`, each `*` an
  unknown part), `batch`, `given` (parameter names; those in `literals` count as given), `literals` (a
  table), `expiry`, `expire-line`, `constant-ttl`, `loop-depth`, `loop-iterations`, `pipelined`,
  `transaction`, `queued`, `unbounded`, `scope`, `unpacked`, `possible` (a table of parameter → list of
  values it can take), `path` (default `app.py`) and `line` (default: the call's
  position in the case), `source` (`code`, the default, or `runtime`: a call the runtime guard built from a
  command as it was sent, at that call site).

For a name rule, each key of a call is also judged as a key template from code at the call's place, as the
code source reports it (`f"tmp:{uid}"` is the key `tmp:*` at that line).

Cluster rules (CLU) judge one `[case.cluster]` table, a `ClusterView` fed to the engine after everything else
(as it is: the case gives the slots and hashtags a scan of the shards would have counted):

* `shards`: a list of shard tables — `shard-id` (default `shard<N>`), `address` (default `10.0.0.<N+1>:7000`),
  `role` (`master`, the default, or `replica`: the node scanned), `slots` (inclusive ranges, `[[0, 5460]]`;
  when no shard gives `slots`, the 16384 slots are split as `redis-cli --cluster create` splits them),
  `replicas` (online replicas, default 1), `keys` (default 0), `memory`, `server-keys`, `used-memory`,
  `maxmemory`, `config` (a table of setting → value), `status` (`complete`, `partial` or `failed`);
* `slots`: a list of slot tables — `slot`, `shard` (index in `shards`; default: the shard serving the slot),
  `keys`, `memory`, `cpu-usec`, `network-bytes`;
* `hashtags`: a list of tag tables — `tag` (or `tag-escaped` with `\\xNN` escapes for arbitrary bytes), `slot`
  (default: the tag's hash slot), `shard` (default: the shard serving the slot), `keys`, `memory`;
* `slots-from` (`scan`, the default, or `server`: the slot key counts are CLUSTER SLOT-STATS'),
  `sample-rate`, and `uncovered` (default: the slots no shard's ranges cover).

Simulation rules judge one `[case.simulation]` table, an `EvictionSimulation` (a trace of `accesses`
accesses, default 10,000, `volatile-accesses` of them with a TTL) with `configured-policy` (omit for none) and
`results`, a list of replay tables — `policy`, `maxmemory` (default 64 MiB), `hit-ratio` (hits are that share
of the accesses, the rest misses), `evicted` (keys), `oom` (writes refused).

Expiry rules judge one `[case.expiry]` table, an `ExpirySimulation` with `maxmemory` (omit for unknown),
`hz` (default 10), `effort` (default 1), `lazyfree` (default false), `step` (seconds, default 60), `volatile`
(a list of `{ db, keys, bytes }`), `series` (a list of `{ db, t, keys, bytes, reclaimed }`: expired keys still in
memory and their bytes, keys reclaimed so far) and `steps` (a list of `{ t, cpu, hits, longest-us }`).

Traffic rules judge one `[case.traffic]` table, a `TrafficView` (what `rediscipline traffic` observed at a
server, `redis://case:6379`) fed to the engine after everything else:

* `clients`: a list of connection tables, as `CLIENT LIST` describes them at the end of the window — `id`
  (default `<N+1>`), `addr` (default `10.0.0.7:<51000+N>`), `name` (any text: TOML escapes give control
  characters), `flags` (default `N`; `P` pub/sub, `S` replica, `O` MONITOR, `M` the master link), `cmd`
  (default `ping`), `sub`, `psub`, `ssub`, `omem`, `tot-mem`, `age`, `idle`, `db`, `multi`, `watch`, `lib`;
* `output-limits`: `client-output-buffer-limit` by class, `{ pubsub = [hard, soft, seconds] }` (`normal`,
  `replica`, `pubsub`); a class not given keeps the server's default (`DEFAULT_OUTPUT_LIMITS`);
* `hot-keys`: a list of hot key tables — `key` (or `key-escaped`), `db` (default 0), `ops` (accesses per
  second), `source` (default `OBJECT FREQ`), `saturated` (default false), `error` (the rate's error bound,
  default 0), `type`, `length` and `memory` (the key's size as read after the window; omit for unknown);
* `queues`: a list of queue tables — `key` (or `key-escaped`), `db` (default 0), `type` (default `list`),
  `reason` (default `--queue`), `start` and `end` (the lengths at each end of the window; omit for unknown),
  `groups` (a stream's consumer groups: `name`, `consumers`, `pending`, `lag`; omit `lag` for unknown);
* `seconds` (the window, default 10) and `clients-total` (default: the clients listed).

Expectations may also give `value` (the finding's measured value, `Finding.worst`) and `example` (or
`example-escaped`): the bytes of the finding's first example.

`line` in an expectation is the line of a finding at a place in a file (code).
"""

from __future__ import annotations

import codecs
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from rediscipline.engine.runner import Engine
from rediscipline.model.cluster import (
    CLUSTER_SLOTS,
    SLOTS_FROM_SCAN,
    SLOTS_FROM_SERVER,
    ClusterView,
    HashtagStat,
    ShardStat,
    SlotRange,
    SlotStat,
)
from rediscipline.model.code import CodeCall
from rediscipline.model.facts import CommandFact, KeyFact
from rediscipline.model.finding import Finding
from rediscipline.model.keyname import SLOT_ANY, KeyTemplate, Part, Placeholder
from rediscipline.model.location import Location
from rediscipline.model.server import ServerFact
from rediscipline.model.simulation import (
    EvictionResult,
    EvictionSettingsView,
    EvictionSimulation,
    ExpiryPoint,
    ExpirySettingsView,
    ExpirySimulation,
    ExpiryStep,
    TraceSummary,
)
from rediscipline.model.traffic import (
    DEFAULT_OUTPUT_LIMITS,
    ClientInfo,
    HotKey,
    QueueStat,
    StreamGroup,
    TrafficView,
)
from rediscipline.redis_meta.keyslot import hash_slot
from rediscipline.rules import default_registry
from rediscipline.rules.base import ConfiguredRule, NameRule
from rediscipline.rules.options import build
from rediscipline.settings.namespaces import parse_namespace

CASES_DIR = Path(__file__).parent / "cases"


@dataclass
class Case:
    rule_id: str
    name: str
    keys: list[bytes]
    expect: list[dict[str, Any]]
    options: dict[str, Any] = field(default_factory=dict)
    namespaces: dict[str, dict[str, Any]] = field(default_factory=dict)
    key_type: str | None = None
    facts: list[KeyFact] = field(default_factory=list)
    server: ServerFact | None = None
    commands: list[CommandFact] = field(default_factory=list)
    calls: list[CodeCall] = field(default_factory=list)
    also: list[str] = field(default_factory=list)
    cluster: ClusterView | None = None
    traffic: TrafficView | None = None
    simulation: EvictionSimulation | None = None
    expiry: ExpirySimulation | None = None

    @property
    def passing(self) -> bool:
        return not self.expect


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(CASES_DIR.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        rule_id = data["rule"]
        assert path.stem == rule_id, f"{path.name} must be named after its rule"
        for index, raw in enumerate(data.get("case", [])):
            keys = [k.encode("utf-8") for k in raw.get("keys", [])]
            keys += [codecs.escape_decode(k.encode("utf-8"))[0] for k in raw.get("keys-escaped", [])]
            cases.append(
                Case(
                    rule_id=rule_id,
                    name=raw.get("name", f"case {index}"),
                    keys=keys,
                    expect=list(raw["expect"]),
                    options=dict(raw.get("options", {})),
                    namespaces=dict(raw.get("namespaces", {})),
                    key_type=raw.get("key-type"),
                    facts=[_key_fact(f) for f in raw.get("facts", [])],
                    server=_server(raw["server"]) if "server" in raw else None,
                    commands=[_command(c) for c in raw.get("commands", [])],
                    calls=[_call(c, line) for line, c in enumerate(raw.get("calls", []), 1)],
                    also=list(raw.get("also", [])),
                    cluster=_cluster(raw["cluster"]) if "cluster" in raw else None,
                    traffic=_traffic(raw["traffic"]) if "traffic" in raw else None,
                    simulation=_simulation(raw["simulation"]) if "simulation" in raw else None,
                    expiry=_expiry(raw["expiry"]) if "expiry" in raw else None,
                )
            )
    return cases


def _escaped(raw: dict[str, Any], name: str) -> bytes | None:
    if f"{name}-escaped" in raw:
        return bytes(codecs.escape_decode(raw[f"{name}-escaped"].encode("utf-8"))[0])
    if name in raw:
        return str(raw[name]).encode("utf-8")
    return None


_FACT_FIELDS = {
    "type": "type",
    "ttl-ms": "ttl_ms",
    "memory": "memory",
    "length": "length",
    "encoding": "encoding",
    "idle": "idle_seconds",
    "freq": "freq",
    "expire-at-ms": "expire_at_ms",
    "element": "largest_element",
    "db": "db",
}


def _key_fact(raw: dict[str, Any]) -> KeyFact:
    unknown = set(raw) - set(_FACT_FIELDS) - {"name", "name-escaped", "head", "head-escaped"}
    assert not unknown, f"unknown fact fields {sorted(unknown)}"
    name = _escaped(raw, "name")
    assert name is not None, "a fact needs a name"
    values = {attr: raw[key] for key, attr in _FACT_FIELDS.items() if key in raw}
    return KeyFact(name, Location("live", "case", db=raw.get("db", 0)), head=_escaped(raw, "head"), **values)


def _server(raw: dict[str, Any]) -> ServerFact:
    config = raw.get("config", {})
    acl = raw.get("acl-users", [])
    return ServerFact(
        origin=Location("live", "redis://case:6379"),
        info={k: str(v) for k, v in raw.get("info", {}).items()},
        config=None if config is False else {k: str(v) for k, v in config.items()},
        keyspace={int(k): int(v) for k, v in raw.get("keyspace", {}).items()},
        expires={int(k): int(v) for k, v in raw.get("expires", {}).items()},
        commandstats={k: int(v) for k, v in raw.get("commandstats", {}).items()},
        acl_users=None if acl is False else tuple(acl),
        user=raw.get("user"),
        callable=dict(raw.get("callable", {})),
        unavailable=dict(raw.get("unavailable", {})),
    )


def _command(raw: dict[str, Any]) -> CommandFact:
    args: tuple[bytes, ...] | None = None
    if "args-escaped" in raw:
        args = tuple(bytes(codecs.escape_decode(a.encode("utf-8"))[0]) for a in raw["args-escaped"])
    elif "args" in raw:
        args = tuple(str(a).encode("utf-8") for a in raw["args"])
    origin = Location("live", "redis://case:6379")
    if "line" in raw:
        origin = Location("code", raw.get("path", "app.py"), raw["line"], 1)
    return CommandFact(
        name=raw["name"],
        origin=origin,
        evidence=raw.get("evidence", "slowlog" if args is not None else "commandstats"),
        args=args,
        calls=raw.get("calls", 1),
        duration_us=raw.get("duration-us"),
    )


_SHARD_FIELDS = {
    "memory": "memory",
    "server-keys": "server_keys",
    "used-memory": "used_memory",
    "maxmemory": "maxmemory",
    "status": "status",
    "cpu-usec": "cpu_usec",
    "network-bytes": "network_bytes",
}
_SLOT_FIELDS = {"memory": "memory", "cpu-usec": "cpu_usec", "network-bytes": "network_bytes"}


def even_slots(count: int) -> list[tuple[SlotRange, ...]]:
    """The slots of `count` masters as `redis-cli --cluster create` assigns them (5461, 5462, 5461 for three)."""
    ranges: list[tuple[SlotRange, ...]] = []
    first, cursor, per_node = 0, 0.0, CLUSTER_SLOTS / count
    for index in range(count):
        last = round(cursor + per_node - 1)
        if last > CLUSTER_SLOTS or index == count - 1:
            last = CLUSTER_SLOTS - 1
        last = max(last, first)
        ranges.append(((first, last),))
        first, cursor = last + 1, cursor + per_node
    return ranges


def _cluster(raw: dict[str, Any]) -> ClusterView:
    unknown = set(raw) - {"shards", "slots", "hashtags", "slots-from", "sample-rate", "uncovered"}
    assert not unknown, f"unknown cluster fields {sorted(unknown)}"
    shards_raw = list(raw.get("shards", []))
    split = even_slots(len(shards_raw)) if shards_raw and all("slots" not in s for s in shards_raw) else None
    shards = tuple(_shard(index, s, split[index] if split else None) for index, s in enumerate(shards_raw))

    def serving(slot: int) -> int | None:
        for index, shard in enumerate(shards):
            if any(first <= slot <= last for first, last in shard.slots):
                return index
        return None

    slots = tuple(_slot(s, serving) for s in raw.get("slots", []))
    hashtags = tuple(_hashtag(h, serving) for h in raw.get("hashtags", []))
    covered = sum(shard.slot_count for shard in shards)
    slots_from = {"scan": SLOTS_FROM_SCAN, "server": SLOTS_FROM_SERVER}[raw.get("slots-from", "scan")]
    return ClusterView(
        shards,
        slots,
        hashtags,
        slots_from=slots_from,
        sample_rate=raw.get("sample-rate"),
        uncovered_slots=raw.get("uncovered", CLUSTER_SLOTS - covered),
    )


def _shard(index: int, raw: dict[str, Any], split: tuple[SlotRange, ...] | None) -> ShardStat:
    named = {"shard-id", "address", "role", "slots", "replicas", "keys", "config"}
    unknown = set(raw) - set(_SHARD_FIELDS) - named
    assert not unknown, f"unknown shard fields {sorted(unknown)}"
    values = {attr: raw[key] for key, attr in _SHARD_FIELDS.items() if key in raw}
    slots = split if split is not None else tuple((first, last) for first, last in raw.get("slots", []))
    return ShardStat(
        shard_id=raw.get("shard-id", f"shard{index}"),
        address=raw.get("address", f"10.0.0.{index + 1}:7000"),
        scanned_role=raw.get("role", "master"),
        slots=slots,
        replicas=raw.get("replicas", 1),
        keys=raw.get("keys", 0),
        config=tuple((name, str(value)) for name, value in raw.get("config", {}).items()),
        **values,
    )


def _slot(raw: dict[str, Any], serving: Any) -> SlotStat:
    unknown = set(raw) - set(_SLOT_FIELDS) - {"slot", "shard", "keys"}
    assert not unknown, f"unknown slot fields {sorted(unknown)}"
    values = {attr: raw[key] for key, attr in _SLOT_FIELDS.items() if key in raw}
    slot = raw["slot"]
    return SlotStat(slot, raw.get("shard", serving(slot)), raw.get("keys", 0), **values)


def _hashtag(raw: dict[str, Any], serving: Any) -> HashtagStat:
    unknown = set(raw) - {"tag", "tag-escaped", "slot", "shard", "keys", "memory"}
    assert not unknown, f"unknown hashtag fields {sorted(unknown)}"
    tag = _escaped(raw, "tag")
    assert tag is not None, "a hashtag needs a tag"
    slot = raw.get("slot", hash_slot(tag))
    return HashtagStat(tag, slot, raw.get("shard", serving(slot)), raw.get("keys", 0), raw.get("memory"))


#: `[[case.traffic.clients]]` keys → ClientInfo fields, for the fields that are copied as they are.
_CLIENT_FIELDS = {
    "name": "name",
    "flags": "flags",
    "cmd": "cmd",
    "age": "age",
    "idle": "idle",
    "db": "db",
    "sub": "sub",
    "psub": "psub",
    "ssub": "ssub",
    "multi": "multi",
    "watch": "watch",
    "omem": "omem",
    "tot-mem": "tot_mem",
    "lib": "lib",
}


def _simulation(raw: dict[str, Any]) -> EvictionSimulation:
    unknown = set(raw) - {"configured-policy", "accesses", "volatile-accesses", "results"}
    assert not unknown, f"unknown simulation fields {sorted(unknown)}"
    accesses = raw.get("accesses", 10_000)
    trace = TraceSummary("text", accesses, 1_000, 60_000, raw.get("volatile-accesses", 0), 50_000_000, True)
    settings = EvictionSettingsView("redis 7.0", 990_000, 5, 10, 1, 10, 0, 100, raw.get("configured-policy"))
    results = []
    for result in raw.get("results", []):
        hits = round(result["hit-ratio"] * accesses)
        results.append(
            EvictionResult(
                policy=result["policy"],
                maxmemory=result.get("maxmemory", 64 << 20),
                hits=hits,
                misses=accesses - hits,
                evicted_keys=result.get("evicted", 0),
                evicted_bytes=result.get("evicted", 0) * 200,
                oom_errors=result.get("oom", 0),
                peak_memory=result.get("maxmemory", 64 << 20),
                keys_at_end=500,
            )
        )
    return EvictionSimulation(Location("simulation", "trace.txt"), trace, settings, tuple(results))


def _expiry(raw: dict[str, Any]) -> ExpirySimulation:
    unknown = set(raw) - {"maxmemory", "hz", "effort", "lazyfree", "step", "volatile", "series", "steps"}
    assert not unknown, f"unknown expiry fields {sorted(unknown)}"
    hz, effort, step = raw.get("hz", 10), raw.get("effort", 1), raw.get("step", 60.0)
    settings = ExpirySettingsView(
        hz,
        effort,
        raw.get("lazyfree", False),
        0.05,
        1.0,
        0.05,
        3600.0,
        step,
        (),
        0,
        sweep_per_second=(20 + 5 * (effort - 1)) * hz,
    )
    return ExpirySimulation(
        Location("simulation", "dump.rdb"),
        1_700_000_000_000,
        settings,
        tuple((v["db"], v["keys"], v["bytes"]) for v in raw.get("volatile", [])),
        tuple(
            ExpiryPoint(p["db"], p["t"], p["keys"], p["bytes"], p.get("reclaimed", 0)) for p in raw.get("series", [])
        ),
        tuple(
            ExpiryStep(s["t"], s.get("cpu", 0.0), s.get("hits", 0), s.get("longest-us", 0.0))
            for s in raw.get("steps", [])
        ),
        raw.get("maxmemory"),
    )


def _traffic(raw: dict[str, Any]) -> TrafficView:
    unknown = set(raw) - {"clients", "output-limits", "seconds", "clients-total", "hot-keys", "queues"}
    assert not unknown, f"unknown traffic fields {sorted(unknown)}"
    limits = dict(DEFAULT_OUTPUT_LIMITS)
    for output_class, (hard, soft, seconds) in raw.get("output-limits", {}).items():
        assert output_class in DEFAULT_OUTPUT_LIMITS, f"unknown output buffer class {output_class!r}"
        limits[output_class] = (hard, soft, seconds)
    clients = tuple(_client(index, c) for index, c in enumerate(raw.get("clients", [])))
    return TrafficView(
        origin=Location("traffic", "redis://case:6379"),
        started=0.0,
        seconds=raw.get("seconds", 10.0),
        clients=clients,
        clients_total=raw.get("clients-total", len(clients)),
        output_limits=limits,
        hot_keys=tuple(_hot_key(h) for h in raw.get("hot-keys", [])),
        queues=tuple(_queue(q) for q in raw.get("queues", [])),
    )


def _hot_key(raw: dict[str, Any]) -> HotKey:
    unknown = set(raw) - {"key", "key-escaped", "db", "ops", "source", "saturated", "error", "type", "length", "memory"}
    assert not unknown, f"unknown hot key fields {sorted(unknown)}"
    key = _escaped(raw, "key")
    assert key is not None, "a hot key needs `key` or `key-escaped`"
    return HotKey(
        raw.get("db", 0),
        key,
        raw["ops"],
        raw.get("source", "OBJECT FREQ"),
        saturated=raw.get("saturated", False),
        ops_error=raw.get("error", 0.0),
        type=raw.get("type"),
        length=raw.get("length"),
        memory=raw.get("memory"),
    )


def _queue(raw: dict[str, Any]) -> QueueStat:
    unknown = set(raw) - {"key", "key-escaped", "db", "type", "reason", "start", "end", "groups"}
    assert not unknown, f"unknown queue fields {sorted(unknown)}"
    key = _escaped(raw, "key")
    assert key is not None, "a queue needs `key` or `key-escaped`"
    groups = tuple(
        StreamGroup(g["name"], g.get("consumers", 1), g.get("pending", 0), g.get("lag")) for g in raw.get("groups", [])
    )
    return QueueStat(
        raw.get("db", 0),
        key,
        raw.get("type", "list"),
        raw.get("reason", "--queue"),
        raw.get("start"),
        raw.get("end"),
        groups,
    )


def _client(index: int, raw: dict[str, Any]) -> ClientInfo:
    unknown = set(raw) - set(_CLIENT_FIELDS) - {"id", "addr"}
    assert not unknown, f"unknown client fields {sorted(unknown)}"
    values = {attr: raw[key] for key, attr in _CLIENT_FIELDS.items() if key in raw}
    values.setdefault("name", "")
    values.setdefault("flags", "N")
    values.setdefault("cmd", "ping")
    return ClientInfo(id=raw.get("id", index + 1), addr=raw.get("addr", f"10.0.0.7:{51000 + index}"), **values)


def glob_template(glob: str) -> KeyTemplate:
    """A key template from a glob as code would give it: `user:*:profile` → `user:` + unknown + `:profile`."""
    parts: list[Part] = []
    for index, literal in enumerate(glob.encode("utf-8").split(b"*")):
        if index:
            parts.append(Placeholder(SLOT_ANY))
        if literal:
            parts.append(literal)
    return KeyTemplate(tuple(parts))


#: `[[case.calls]]` keys → CodeCall fields, for the fields that are copied as they are.
_CALL_FIELDS = {
    "batch": "batch",
    "expiry": "expiry",
    "expire-line": "expire_line",
    "constant-ttl": "constant_ttl",
    "loop-depth": "loop_depth",
    "loop-iterations": "loop_iterations",
    "pipelined": "pipelined",
    "transaction": "transaction",
    "queued": "queued",
    "unbounded": "unbounded",
    "scope": "scope",
    "unpacked": "unpacked",
}


def _call(raw: dict[str, Any], position: int) -> CodeCall:
    named = {"method", "command", "keys", "given", "literals", "possible", "path", "line", "source"}
    unknown = set(raw) - set(_CALL_FIELDS) - named
    assert not unknown, f"unknown call fields {sorted(unknown)}"
    values = {attr: raw[key] for key, attr in _CALL_FIELDS.items() if key in raw}
    literals = dict(raw.get("literals", {}))
    return CodeCall(
        method=raw["method"],
        command=raw.get("command", raw["method"]),
        origin=Location(raw.get("source", "code"), raw.get("path", "app.py"), raw.get("line", position), 1),
        keys=tuple(glob_template(k) for k in raw.get("keys", [])),
        given=frozenset(raw.get("given", [])) | frozenset(literals),
        literals=tuple(literals.items()),
        possible=tuple((name, value) for name, values in raw.get("possible", {}).items() for value in values),
        **values,
    )


def run_case(case: Case) -> list[Finding]:
    cls = default_registry().get(case.rule_id)
    configured = ConfiguredRule(cls(), build(cls.Options, case.options), cls.meta.severity)
    beside = [default_registry().get(rule_id) for rule_id in case.also]
    others = [ConfiguredRule(other(), build(other.Options, {}), other.meta.severity) for other in beside]
    namespaces = [parse_namespace(p, t, f"case {case.name}") for p, t in case.namespaces.items()]
    engine = Engine([configured, *others], namespaces)
    if case.server is not None:
        engine.set_server(case.server)
    engine.begin_input(Location("keys", "case"))
    for line, key in enumerate(case.keys, 1):
        engine.feed_name(key, line, case.key_type)
    for fact in case.facts:
        engine.feed(fact)
    for command in case.commands:
        engine.feed_command(command)
    templates_at_calls = issubclass(cls, NameRule)
    for call in case.calls:
        engine.feed_call(call)
        if templates_at_calls:
            for template in call.keys:
                engine.feed(KeyFact(template, call.origin))
    if case.cluster is not None:
        engine.consume([case.cluster])
    if case.traffic is not None:
        engine.consume([case.traffic])
    if case.simulation is not None:
        engine.consume([case.simulation])
    if case.expiry is not None:
        engine.consume([case.expiry])
    simulated = case.simulation or case.expiry
    live = case.facts or case.server or case.commands or case.cluster
    source = "code" if case.calls else "traffic" if case.traffic else "simulation" if simulated else "live"
    source = source if case.calls or case.traffic or simulated or live else "keys"
    return [f for f in engine.finish(source).findings if f.rule_id == case.rule_id]


def at_code(case: Case) -> bool:
    """Whether the case's facts are at places in code: call sites, or commands with a line."""
    return bool(case.calls) or any(command.origin.line is not None for command in case.commands)


def matches(finding: Finding, expected: dict[str, Any]) -> bool:
    if finding.code != expected["code"]:
        return False
    if "pattern" in expected and finding.pattern != expected["pattern"].encode("utf-8"):
        return False
    if "subject" in expected and finding.subject != expected["subject"]:
        return False
    if "count" in expected and finding.count != expected["count"]:
        return False
    if "line" in expected and finding.location.line != expected["line"]:
        return False
    if "message" in expected and finding.message.en != expected["message"]:
        return False
    if "value" in expected and (finding.worst is None or abs(finding.worst - expected["value"]) > 1e-9):
        return False
    example = _escaped(expected, "example")
    if example is not None and (not finding.examples or finding.examples[0].name != example):
        return False
    return "severity" not in expected or finding.severity.label == expected["severity"]
