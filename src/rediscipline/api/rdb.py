"""Audit RDB dumps offline: every rule a dump can show, with the live scan's findings, grouping and report."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rediscipline.api.common import build_report, new_engine, settings_for
from rediscipline.model.location import SOURCE_RDB
from rediscipline.model.report import Report, ServerSummary
from rediscipline.model.text import Text
from rediscipline.rules import default_registry
from rediscipline.rules.registry import Registry
from rediscipline.settings.layering import Settings
from rediscipline.sources.rdb.memory import DEFAULT_ALLOCATOR
from rediscipline.sources.rdb.source import ByteProgress, DumpOptions, DumpSummary, dump_paths, read_dumps


@dataclass(frozen=True, slots=True)
class RdbScanOptions:
    paths: tuple[str, ...]  # files, or directories of *.rdb files: one report over all of them
    deep: bool = False  # walk every element (largest element of every collection)
    verify: bool = True  # check the CRC-64
    db: int | None = None
    match: str | None = None
    type: str | None = None
    jobs: int | None = None  # worker processes (default: one per CPU, none for small inputs)
    allocator: str = DEFAULT_ALLOCATOR  # for the memory model: jemalloc (official builds), jemalloc16, libc


def scan_rdb(
    options: RdbScanOptions,
    settings: Settings | None = None,
    *,
    registry: Registry | None = None,
    progress: ByteProgress | None = None,
) -> Report:
    """Audit one or more dumps (the shards of a cluster, or several nodes) as one keyspace."""
    registry = registry or default_registry()
    settings = settings or settings_for(registry=registry)
    paths = dump_paths(options.paths)
    checkable = [r for r in settings.rules if SOURCE_RDB in r.rule.meta.where]
    skipped = sorted(r.id for r in settings.rules if SOURCE_RDB not in r.rule.meta.where)
    narrowed = replace(settings, rules=tuple(checkable))
    engine = new_engine(narrowed)
    plan = engine.plan
    dump_options = DumpOptions(
        deep=options.deep,
        verify=options.verify,
        head="head" in plan.key_fields,
        db=options.db,
        match=options.match,
        type=options.type,
        allocator=options.allocator,
    )
    summaries: list[DumpSummary] = []
    feed = engine.feed
    for fact in read_dumps(paths, dump_options, summaries, jobs=options.jobs, progress=progress):
        feed(fact)
    result = engine.finish(SOURCE_RDB)
    if result.stats.keyspace is not None:
        model = ", ".join(sorted({s.memory_model for s in summaries}))
        keyspace = replace(result.stats.keyspace, memory_model=model)
        result.stats = replace(result.stats, keyspace=keyspace)
    notes = _notes(summaries, skipped, options)
    return build_report(
        result, narrowed, registry, "scan", tuple(paths), notes=tuple(notes), server=_summary(summaries)
    )


def _summary(summaries: Sequence[DumpSummary]) -> ServerSummary:
    first = summaries[0]
    if len(summaries) == 1:
        address = first.path
    else:
        address = f"{len(summaries)} dumps: " + ", ".join(os.path.basename(s.path) for s in summaries)
    versions = sorted({s.version for s in summaries})
    labels = sorted({s.label for s in summaries})
    checks = sorted({s.checksum for s in summaries})
    dbs: dict[int, int] = {}
    for summary in summaries:
        for db, keys in summary.keys_by_db.items():
            dbs[db] = dbs.get(db, 0) + keys
    used = [s.used_memory for s in summaries if s.used_memory is not None]
    return ServerSummary(
        address=address,
        flavor="/".join(sorted({s.flavor for s in summaries})),
        version=", ".join(versions),
        role=f"{', '.join(labels)} dump · CRC {' / '.join(checks)}",
        used_memory=sum(used) if used else None,
        dbs=tuple(sorted(dbs.items())),
    )


def _notes(summaries: Sequence[DumpSummary], skipped: Sequence[str], options: RdbScanOptions) -> list[Text]:
    notes: list[Text] = []
    models = sorted({s.memory_model for s in summaries})
    notes.append(
        Text(
            f"memory figures are estimates from the file's encodings and sizes ({'; '.join(models)}), not "
            "MEMORY USAGE; --allocator names the server's allocator (jemalloc: official builds and images, "
            "jemalloc16: Debian/Ubuntu packages, libc)",
            f"内存数值是根据文件中的编码与大小估算的（{'; '.join(models)}），并非 MEMORY USAGE 实测；"
            "--allocator 指定服务器的内存分配器（jemalloc：官方构建与镜像，jemalloc16：Debian/Ubuntu 软件包，libc）",
        )
    )
    if skipped:
        shown = ", ".join(skipped)
        notes.append(
            Text(
                f"{len(skipped)} rules need a live server, code or a config file and were not checked: {shown}",
                f"{len(skipped)} 条规则需要在线实例、代码或配置文件，未检查：{shown}",
            )
        )
    expired = sum(s.expired for s in summaries)
    if expired:
        notes.append(
            Text(
                f"{expired:,} keys had already expired when the dump was written and were left out (a server "
                "drops them on load)",
                f"{expired:,} 个 Key 在写入 dump 时已过期，未计入（服务器加载时会丢弃）",
            )
        )
    unchecked = [s.path for s in summaries if s.checksum == "absent"]
    if unchecked:
        notes.append(
            Text(
                f"no checksum to verify in {', '.join(unchecked)} (written with rdbchecksum no, or RDB < 5)",
                f"{', '.join(unchecked)} 没有可校验的 CRC（rdbchecksum no 或 RDB 版本低于 5）",
            )
        )
    if not options.verify:
        notes.append(Text("CRC-64 not verified (--no-verify)", "未校验 CRC-64（--no-verify）"))
    if not options.deep:
        notes.append(
            Text(
                "largest elements are known for collections stored element by element and blobs of 8 KB or more; "
                "--deep walks every element",
                "最大元素只对逐个存储元素的集合和 8 KB 以上的紧凑块可知；--deep 会遍历所有元素",
            )
        )
    if options.match or options.type or options.db is not None:
        notes.append(
            Text(
                "filtered scan (--match/--type/--db): totals cover matching keys only",
                "已按 --match/--type/--db 过滤：统计仅覆盖匹配的 Key",
            )
        )
    return notes
