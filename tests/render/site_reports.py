"""Reports built by hand for the file-oriented renderers (SARIF, GitHub annotations, the text site layout).

Findings, locations and rule metadata are real types; the metadata comes from the real rule registry, so
SARIF `help` is the rules' own documentation. Three reports:

* `code_report`: findings at call sites in Python files, in the order the driver ranks them: relative
  paths, an absolute path under the working directory, one outside it, a file name with a space and a
  non-UTF-8 byte, line/column/end regions, a key-template finding built at three places of its file (one
  finding with two related places), one in test code, and messages holding characters every format must
  escape.
* `live_report`: key-pattern findings from a server (a non-UTF-8 pattern), a dump, a key file and
  standard input, plus a command finding: none has a place in source.
* `config_report`: redis.conf and ACL-file findings, with and without a line.
"""

from __future__ import annotations

from dataclasses import replace

from rediscipline.model.finding import CONTEXT_LIBRARY, CONTEXT_TEST, Example, Finding
from rediscipline.model.location import (
    SOURCE_CODE,
    SOURCE_CONFIG,
    SOURCE_KEYS,
    SOURCE_LIVE,
    SOURCE_RDB,
    Location,
)
from rediscipline.model.report import LAYOUT_PATTERNS, LAYOUT_SITES, Report, RunInfo, ServerSummary, Stats
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules import default_registry

CWD = "/project"
ADDRESS = "redis://10.0.0.5:6379"
RULES_ENABLED = 50  # fixed, so snapshots do not change each time a rule is added


def _report(findings: list[Finding], command: str, inputs: tuple[str, ...], stats: Stats | None = None) -> Report:
    registry = default_registry()
    rules = {rule_id: registry.get(rule_id).meta for rule_id in sorted({f.rule_id for f in findings})}
    layout = LAYOUT_SITES if command == "check" else LAYOUT_PATTERNS  # code and config files: per place
    run = RunInfo("0.1.0", command, inputs, "default", rules_enabled=RULES_ENABLED, layout=layout)
    return Report(tuple(findings), rules, run, stats or Stats())


def _code(path: str, line: int, column: int, end_line: int, end_column: int) -> Location:
    return Location(SOURCE_CODE, path, line, column, None, end_line, end_column, f"ctx {path}:{line}")


KEYS_MESSAGE = Text(
    "KEYS scans the whole keyspace and blocks the server: use SCAN with MATCH and COUNT "
    "(scan_iter(match=…, count=…)) or keep the keys in a set",
    "KEYS 会遍历整个键空间并阻塞服务：请使用带 MATCH 和 COUNT 的 SCAN"
    "（scan_iter(match=…, count=…)），或把这些 Key 放进集合",
)


def code_findings() -> list[Finding]:
    library = [
        Finding(
            "CMD001", "keys", Severity.ERROR, KEYS_MESSAGE, _code("/opt/vendor/redis_helpers.py", 40, 5, 40, 19), "aa05"
        ),
        Finding("CMD001", "keys", Severity.ERROR, KEYS_MESSAGE, _code("src/app/cache.py", 12, 9, 12, 33), "aa01"),
        Finding(
            "KEY006",
            "uppercase",
            Severity.WARNING,
            Text(
                "upper-case letters in the key name: `Profile` (→ `profile`); use lower case",
                "键名包含大写字母：`Profile`（→ `profile`）；请使用小写",
            ),
            _code("src/app/cache.py", 30, 17, 30, 38),
            "aa02",
            pattern=b"user:*:Profile",
            count=3,
            related=(_code("src/app/cache.py", 41, 9, 41, 30), _code("src/app/cache.py", 57, 13, 57, 34)),
        ),
        Finding(
            "CMD005",
            "hgetall",
            Severity.WARNING,
            Text(
                "HGETALL reads the whole collection: O(N) on the server's only thread; read only what you need, "
                "or iterate with HSCAN",
                "HGETALL 读取整个集合：在唯一的主线程上耗时 O(N)；请只读取需要的部分，或用 HSCAN 分批遍历",
            ),
            _code("/project/src/app/cart.py", 7, 12, 8, 5),  # absolute, under the working directory
            "aa03",
        ),
        Finding(
            "KEY015",
            "abbreviation",
            Severity.NOTE,
            # `%`, `:`, `,`, a newline and a terminal escape: each format escapes them its own way
            Text(
                "cryptic abbreviations `usr`, `prf`: 100% clearer\nas user:profile \x1b[31m",
                "缩写 `usr`、`prf` 含义不明",
            ),
            _code("src/legacy dir/\udcffold.py", 3, 1, 3, 20),  # a space and a byte that is not UTF-8
            "aa04",
            pattern=b"usr:prf:*",
        ),
    ]
    test = Finding("CMD001", "keys", Severity.ERROR, KEYS_MESSAGE, _code("tests/test_cache.py", 9, 5, 9, 19), "aa06")
    ranked = [replace(f, context=CONTEXT_LIBRARY) for f in library]
    return [*ranked[:2], replace(test, context=CONTEXT_TEST), *ranked[2:]]


def code_report() -> Report:
    return _report(code_findings(), "check", ("src", "/opt/vendor/redis_helpers.py"))


def live_findings() -> list[Finding]:
    live = Location(SOURCE_LIVE, ADDRESS, db=0)
    dump = Location(SOURCE_RDB, "backups/dump.rdb", db=2)
    return [
        Finding(
            "KEY002",
            "invalid-utf8",
            Severity.WARNING,
            Text(
                "bytes that are not valid UTF-8 in the key name: `\\xff\\xfe` at offset 4",
                "键名包含非法 UTF-8 字节：偏移 4 处的 `\\xff\\xfe`",
            ),
            live,
            "bb01",
            pattern=b"bin:\xff\xfe:*",
            count=1234,
            examples=(Example(b"bin:\xff\xfe:1", live), Example(b"bin:\xff\xfe:2", live)),
        ),
        Finding(
            "CMD001",
            "keys",
            Severity.ERROR,
            Text(
                "KEYS was called 2 times (INFO commandstats): use SCAN with MATCH and COUNT",
                "KEYS 被调用了 2 次（INFO commandstats）：请使用带 MATCH 和 COUNT 的 SCAN",
            ),
            live,
            "bb02",
            count=2,
            subject="keys",
        ),
        Finding(
            "KEY006",
            "uppercase",
            Severity.WARNING,
            Text("upper-case letters in the key name: `AID` (→ `aid`); use lower case", "键名包含大写字母：`AID`"),
            dump,
            "bb03",
            pattern=b"AID:*:player",
            count=12,
            examples=(Example(b"AID:15:player", dump),),
        ),
        Finding(
            "KEY015",
            "abbreviation",
            Severity.NOTE,
            Text("cryptic abbreviations `usr`: spell the words out", "缩写 `usr` 含义不明：请写出完整单词"),
            Location(SOURCE_KEYS, "keys.txt", 3),
            "bb04",
            pattern=b"usr:*",
            count=1,
            examples=(Example(b"usr:1", Location(SOURCE_KEYS, "keys.txt", 3)),),
        ),
        Finding(
            "KEY015",
            "abbreviation",
            Severity.NOTE,
            Text("cryptic abbreviations `prf`: spell the words out", "缩写 `prf` 含义不明：请写出完整单词"),
            Location(SOURCE_KEYS, "-", 1),
            "bb05",
            pattern=b"prf:*",
            count=1,
        ),
    ]


def live_report() -> Report:
    server = ServerSummary(ADDRESS, "redis", "7.0.15", "master")
    return _report(live_findings(), "scan", (ADDRESS,), Stats(keys=1249, patterns=4, server=server))


def config_findings() -> list[Finding]:
    return [
        Finding(
            "CFG001",
            "unset",
            Severity.ERROR,
            Text(
                "maxmemory is 0 (no limit): the data set can grow until the host swaps or the OOM killer stops "
                "the server; set maxmemory to about 70% of the host's RAM and choose an eviction policy",
                "maxmemory 为 0（不限制）：数据会一直增长，直到主机开始使用 swap 或进程被 OOM killer 杀掉；"
                "请把 maxmemory 设为主机内存的 70% 左右并选择淘汰策略",
            ),
            Location(SOURCE_CONFIG, "deploy/redis.conf", 4),
            "cc01",
            subject="maxmemory",
        ),
        Finding(
            "CFG003",
            "lazyfree-lazy-eviction",
            Severity.WARNING,
            Text(
                "lazyfree-lazy-eviction is no (the default, not set in the file): evicting a big key blocks",
                "lazyfree-lazy-eviction 为 no（默认值，文件中未设置）：淘汰大 Key 时会阻塞",
            ),
            Location(SOURCE_CONFIG, "deploy/redis.conf"),
            "cc02",
            subject="lazyfree-lazy-eviction",
        ),
        Finding(
            "SEC002",
            "nopass",
            Severity.ERROR,
            Text(
                "user default has no password: anyone who reaches the port can use it; set a password or "
                "disable the user",
                "用户 default 没有设置密码：任何能连到端口的人都能使用它；请设置密码或禁用该用户",
            ),
            Location(SOURCE_CONFIG, "deploy/users.acl", 1, 1),
            "cc03",
            subject="user default",
        ),
    ]


def config_report() -> Report:
    return _report(config_findings(), "check", ("deploy/redis.conf", "deploy/users.acl"))


def clean_check_report() -> Report:
    return _report([], "check", ("src",))
