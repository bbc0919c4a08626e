"""JSON output, schema `rediscipline.report` version 1 (documented in docs/json-report.md).

Keys and patterns are bytes, written by `render.names`: exact text when short and UTF-8, else bounded
display text with `*_b64` (not UTF-8) or `*_length` and `*_ref` into `long_names` (cut), so the exact bytes
of a long key are in the report once. A `traffic` run's windows are the `traffic` list (`json_traffic`),
absent from other reports. Messages are given in the chosen language and in both, escaped and
bounded by `model.display.inert`; other outside strings are bounded by `cut_text`, and the document passes
`json_safe`, so no control or bidi character is written raw.
"""

from __future__ import annotations

import json
import re
from typing import Any, TextIO

from rediscipline.model.cluster import ClusterView
from rediscipline.model.display import NAME_LIMIT, QUOTE_LIMIT, cut_text, inert, is_utf8, json_safe
from rediscipline.model.finding import Finding
from rediscipline.model.keyspace import Bucket, ExpiryTimeline, TopKey
from rediscipline.model.location import Location
from rediscipline.model.report import REPORT_SCHEMA, Report
from rediscipline.redis_meta.keyslot import key_slot
from rediscipline.render.citations import citation_fields
from rediscipline.render.libraries import library_fields
from rediscipline.render.names import LongNames, name_fields
from rediscipline.render.notes import note_text
from rediscipline.render.sites import path_bytes, shown_path

SCHEMA = REPORT_SCHEMA


def _path(path: str | None) -> str | None:
    """A path as given, or its display form when the OS gave bytes that are not UTF-8 (JSON cannot hold them)."""
    if path is None or is_utf8(path_bytes(path)):
        return path
    return shown_path(path)


def _location(location: Location) -> dict[str, Any]:
    out: dict[str, Any] = {"source": location.source, "path": _path(location.path)}
    if location.line is not None:
        out["line"] = location.line
    if location.column is not None:
        out["column"] = location.column
    if location.db is not None:
        out["db"] = location.db
    return out


def _finding(finding: Finding, report: Report, lang: str, long_names: LongNames) -> dict[str, Any]:
    meta = report.rules.get(finding.rule_id)
    out: dict[str, Any] = {
        "rule": finding.rule_id,
        "slug": meta.slug if meta else None,
        "family": meta.family if meta else None,
        "severity": finding.severity.label,
        "code": finding.code,
        "message": inert(finding.message.in_(lang)),
        "messages": {"en": inert(finding.message.en), "zh": inert(finding.message.zh)},
    }
    if finding.pattern is not None:
        out.update(name_fields("pattern", finding.pattern))
    if finding.subject is not None:
        out["subject"] = cut_text(finding.subject, NAME_LIMIT)
    out["count"] = finding.count
    if finding.estimate is not None:
        value, low, high = finding.estimate
        out["estimate"] = {"count": round(value), "ci95": [round(low), round(high)]}
    if finding.worst is not None:
        out["worst"] = finding.worst
    out["namespace"] = None if finding.namespace is None else cut_text(finding.namespace, NAME_LIMIT)
    out["location"] = _location(finding.location)
    if finding.related:
        out["related"] = [_location(location) for location in finding.related]
    if finding.context is not None:
        out["context"] = finding.context
    if finding.library is not None:
        out["library"] = library_fields(finding.library, lang)
    out["examples"] = [{**name_fields("key", e.name, long_names), **_location(e.location)} for e in finding.examples]
    out["fingerprint"] = finding.fingerprint
    return out


def _patterns(report: Report, lang: str) -> dict[str, Any]:
    """Every pattern of the run, most keys first: at most the pattern cap, the keys beyond it counted under
    `<other patterns>` (`capped` says so)."""
    stats = report.stats
    items = []
    for row in stats.pattern_stats:
        items.append(
            {
                **name_fields("pattern", row.pattern),
                "keys": row.count,
                "memory": row.memory,
                "types": dict(row.types),
                "with_ttl": row.with_ttl,
                "ttl_coverage": None if row.ttl_coverage is None else round(row.ttl_coverage, 4),
                "library": library_fields(row.library, lang),
            }
        )
    return {
        "count": stats.patterns,
        "cap": stats.pattern_cap,
        "capped": stats.overflow_keys > 0,
        "overflow_keys": stats.overflow_keys,
        "items": items,
    }


def _server(report: Report) -> dict[str, Any] | None:
    server = report.stats.server
    if server is None:
        return None
    return {
        "address": cut_text(server.address),
        "flavor": cut_text(server.flavor, QUOTE_LIMIT),
        "version": cut_text(server.version, QUOTE_LIMIT),
        "role": None if server.role is None else cut_text(server.role),
        "used_memory": server.used_memory,
        "maxmemory": server.maxmemory,
        "maxmemory_policy": None if server.maxmemory_policy is None else cut_text(server.maxmemory_policy, QUOTE_LIMIT),
        "databases": {str(db): keys for db, keys in server.dbs},
        "unavailable": {cut_text(check, QUOTE_LIMIT): cut_text(reason) for check, reason in server.unavailable},
        "resume_cursor": server.resume_cursor,
        "resumed_from": server.resumed_from,
        "partial": list(server.partial),
        "stopped": server.stopped,
        "unreadable": None
        if server.unreadable is None
        else {
            "keys": server.unreadable.keys,
            "patterns": [{**name_fields("pattern", p.pattern), "count": p.count} for p in server.unreadable.patterns],
            "rules_not_judged": list(server.unreadable.rules),
        },
        "cluster": None if server.cluster_masters is None else {"masters": server.cluster_masters or None},
        "databases_at_end": None if server.dbs_at_end is None else {str(db): keys for db, keys in server.dbs_at_end},
        "databases_not_scanned": list(server.dbs_not_scanned),
        "started_ms": server.started_ms,
        "volatile": {str(db): keys for db, keys in server.volatile},
        "expire_config": {name: cut_text(value, QUOTE_LIMIT) for name, value in server.expire_config},
        "connected_clients": server.clients,
    }


def _buckets(buckets: tuple[Bucket, ...], name: str) -> list[dict[str, Any]]:
    return [{name: cut_text(b.label, NAME_LIMIT), "keys": b.keys, "memory": b.memory} for b in buckets]


def _word(text: str | None) -> str | None:
    """A type or encoding name as the server gave it (a module may name its type anything)."""
    return None if text is None else cut_text(text, QUOTE_LIMIT)


def _top_key(key: TopKey, long_names: LongNames, cluster: ClusterView | None) -> dict[str, Any]:
    """A key of the keyspace's top lists; in a cluster scan, with its slot and the shard that holds it."""
    out = {
        **name_fields("key", key.name, long_names),
        "db": key.db,
        "type": _word(key.type),
        "memory": key.memory,
        "length": key.length,
        "ttl_ms": key.ttl_ms,
        "encoding": _word(key.encoding),
    }
    if cluster is not None:
        slot = key_slot(key.name)
        shard = cluster.shard_serving(slot)
        out.update(slot=slot, shard=None if shard is None else cut_text(shard.address))
    return out


def _expiry(expiry: ExpiryTimeline | None) -> dict[str, Any] | None:
    if expiry is None:
        return None
    return {
        "per_minute": list(expiry.per_minute),
        "peak_second": list(expiry.peak_second),
        "per_hour": list(expiry.per_hour),
        "later": expiry.later,
        "keys": expiry.keys,
    }


def _keyspace(report: Report, long_names: LongNames) -> dict[str, Any] | None:
    keyspace = report.stats.keyspace
    if keyspace is None:
        return None
    sampling = keyspace.sampling
    out: dict[str, Any] = {
        "keys": keyspace.keys,
        "memory": keyspace.memory,
        "memory_model": keyspace.memory_model,
        "with_ttl": keyspace.with_ttl,
        "memory_with_ttl": keyspace.memory_with_ttl,
        "ttl_coverage": keyspace.ttl_coverage,
        "memory_ttl_coverage": keyspace.memory_ttl_coverage,
        "skipped": keyspace.skipped,
        "by_type": [
            {"type": _word(t.type), "keys": t.keys, "memory": t.memory, "elements": t.elements, "with_ttl": t.with_ttl}
            for t in keyspace.by_type
        ],
        "by_db": _buckets(keyspace.by_db, "db"),
        "ttl_histogram": _buckets(keyspace.ttl_histogram, "bucket"),
        "namespaces": _buckets(keyspace.namespaces, "namespace"),
        "encodings": _buckets(keyspace.encodings, "encoding"),
        "size_buckets": [
            {"low": b.low, "high": b.high, "keys": b.keys, "memory": b.memory} for b in keyspace.size_buckets
        ],
        "expiry": _expiry(keyspace.expiry),
        "top_by_memory": [_top_key(k, long_names, report.stats.cluster) for k in keyspace.top_by_memory],
        "top_by_length": [_top_key(k, long_names, report.stats.cluster) for k in keyspace.top_by_length],
        "sampling": None
        if sampling is None
        else {
            "rate": sampling.rate,
            "population": sampling.population,
            "sampled": sampling.sampled,
            "estimates": [{"name": e.name, "value": e.value, "ci95": [e.low, e.high]} for e in sampling.estimates],
        },
    }
    if keyspace.not_measured:  # a narrowed scan: what was not probed is null, not 0
        out["not_measured"] = list(keyspace.not_measured)
        if "memory" not in keyspace.measured:
            out["memory"] = out["memory_with_ttl"] = None
        if "ttl" not in keyspace.measured:
            out["with_ttl"] = out["memory_with_ttl"] = None
    return out


def _shards(cluster: ClusterView | None) -> list[dict[str, Any]] | None:
    if cluster is None:
        return None
    return [
        {
            "shard_id": cut_text(shard.shard_id, QUOTE_LIMIT),
            "address": cut_text(shard.address),
            "role": shard.scanned_role,
            "slots": [list(slot_range) for slot_range in shard.slots],
            "slot_count": shard.slot_count,
            "replicas": shard.replicas,
            "keys": shard.keys,
            "memory": shard.memory,
            "server_keys": shard.server_keys,
            "used_memory": shard.used_memory,
            "maxmemory": shard.maxmemory,
            "status": shard.status,
            "missed": None if shard.missed is None else cut_text(shard.missed),
        }
        for shard in cluster.shards
    ]


def _cluster(cluster: ClusterView | None) -> dict[str, Any] | None:
    if cluster is None:
        return None
    return {
        "slots_from": cluster.slots_from,
        "sample_rate": cluster.sample_rate,
        "uncovered_slots": cluster.uncovered_slots,
        "busiest_slots": [
            {"slot": s.slot, "shard": s.shard, "keys": s.keys, "memory": s.memory, "cpu_usec": s.cpu_usec,
             "network_bytes": s.network_bytes}
            for s in cluster.slots
        ],
        "hashtags": [
            {**name_fields("tag", h.tag), "slot": h.slot, "shard": h.shard, "keys": h.keys, "memory": h.memory}
            for h in cluster.hashtags
        ],
    }  # fmt: skip


def report_to_dict(report: Report, lang: str = "en") -> dict[str, Any]:
    by_severity = {s.label: n for s, n in sorted(report.count_by_severity().items(), reverse=True)}
    by_family: dict[str, int] = {}
    for finding in report.findings:
        family = report.rules[finding.rule_id].family if finding.rule_id in report.rules else "?"
        by_family[family] = by_family.get(family, 0) + 1
    stats = report.stats
    worst = report.max_severity()
    long_names = LongNames()
    keyspace = _keyspace(report, long_names)
    findings = [_finding(f, report, lang, long_names) for f in report.findings]
    traffic = None
    if stats.traffic:
        from rediscipline.render.json_traffic import traffic_list  # a traffic window's report only

        traffic = traffic_list(stats.traffic, long_names)
    simulation = None
    if stats.eviction or stats.expiry:
        from rediscipline.render.json_simulation import simulation_object  # a simulation's report only

        simulation = simulation_object(stats.eviction, stats.expiry, long_names)
    document: dict[str, Any] = {
        "schema": SCHEMA,
        "schema_version": report.schema_version,
        "tool": {"name": "rediscipline", "version": report.run.tool_version},
        "run": {
            "command": report.run.command,
            "inputs": [_path(path) for path in report.run.inputs],
            "preset": report.run.preset,
            "overlays": list(report.run.overlays),
            "config_file": _path(report.run.config_file),
            "rules_enabled": report.run.rules_enabled,
            "lang": lang,
        },
        "summary": {
            "keys": stats.keys,
            "patterns": stats.patterns,
            "findings": len(report.findings),
            "by_severity": by_severity,
            "by_family": dict(sorted(by_family.items())),
            "max_severity": worst.label if worst is not None else None,
            "elapsed_seconds": stats.elapsed_seconds,
            "pattern_cap": stats.pattern_cap,
            "overflow_keys": stats.overflow_keys,
            "keys_flagged": stats.keys_flagged,
            "score": stats.score,
        },
        "server": _server(report),
        "shards": _shards(report.stats.cluster),
        "cluster": _cluster(report.stats.cluster),
        "keyspace": keyspace,
        "top_patterns": [{**name_fields("pattern", p.pattern), "count": p.count} for p in stats.pattern_stats[:10]],
        "patterns": _patterns(report, lang),
        "findings": findings,
        "rules": {
            rule_id: {
                "slug": meta.slug,
                "family": meta.family,
                "title": meta.title.in_(lang),
                "titles": {"en": meta.title.en, "zh": meta.title.zh},
                "default_severity": meta.severity.label,
                "where": list(meta.where),
                "sources": list(meta.sources),
                "citations": citation_fields(meta.citations),
            }
            for rule_id, meta in sorted(report.rules.items())
        },
        "notes": [inert(note_text(note, lang)) for note in report.notes],
        "long_names": long_names.table(),
    }
    added = [(name, part) for name, part in (("traffic", traffic), ("simulation", simulation)) if part is not None]
    if not added:  # a report of no traffic window and no simulation has neither key
        return document
    at = list(document).index("keyspace") + 1
    items = list(document.items())
    return dict([*items[:at], *added, *items[at:]])


#: The expiry timeline's arrays as `json.dumps(indent=2)` writes them, one count a line.
_TIMELINE_ARRAY = re.compile(r'("(?:per_minute|per_hour|peak_second)": )\[([\d,\s]*)\]')


def _one_line(match: re.Match[str]) -> str:
    return match.group(1) + "[" + ", ".join(match.group(2).replace(",", " ").split()) + "]"


def dump_document(document: dict[str, Any]) -> str:
    """A report document (or a fleet of them) as indented JSON, the expiry timeline's 3,600 counts written
    on three lines rather than one a line (about 40 KB of indentation per report, else)."""
    return json_safe(_TIMELINE_ARRAY.sub(_one_line, json.dumps(document, ensure_ascii=False, indent=2)))


def render_json(report: Report, stream: TextIO, lang: str = "en", color: bool = False) -> None:
    stream.write(dump_document(report_to_dict(report, lang)))
    stream.write("\n")


__all__ = ["SCHEMA", "dump_document", "render_json", "report_to_dict"]
