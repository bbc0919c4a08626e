"""VAL006 serialized-value."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rediscipline.model.facts import KeyFact
from rediscipline.model.finding import Violation
from rediscipline.model.keyname import KeyTemplate
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import FactRule, RuleContext, rule
from rediscipline.rules.gate import NEVER, Gate, when
from rediscipline.rules.options import RuleOptions, option
from rediscipline.rules.value.sizes import VALUE_CHECKS, is_text

#: java.io.ObjectOutputStream: STREAM_MAGIC 0xACED, STREAM_VERSION 5.
JAVA_MAGIC = b"\xac\xed\x00\x05"
#: Python pickle: PROTO opcode 0x80 with protocol 2–5, then an opcode a pickler writes first (FRAME for 4+,
#: an empty container, MARK, GLOBAL, a small int, a string, None, True/False...). Random bytes rarely match.
_PICKLE_START = b"\x80"  # what every value _PICKLE matches starts with
_PICKLE = re.compile(rb"\x80[\x02-\x05][\x95}\])(cBCGJKMNTUX\x88-\x8f]")
_JSON = re.compile(rb'(?:\xef\xbb\xbf)?\s*(?:\{\s*(?:"|\})|\[\s*(?:[\[\]{"\-0-9]|true|false|null))')
_XML = re.compile(rb"(?:\xef\xbb\xbf)?\s*<(?:\?xml|!doctype|html|[A-Za-z][\w:.-]*[\s>/])", re.I)


@dataclass(frozen=True)
class SerializedValueOptions(RuleOptions):
    min_bytes: int = option(4096, "Report JSON or XML strings of at least this many bytes (0 = off).", minimum=0)


@rule(
    "VAL006",
    "serialized-value",
    title=("Value in an inefficient serialization", "值使用了低效的序列化格式"),
    severity=Severity.WARNING,
    where=VALUE_CHECKS,
    sources=(
        "002 §规范三：使用高效序列化方法和压缩方法",
        "000 §该如何设计数据结构以避开大Key和热Key — 大文本",
        "001 §2.2 选择适合的数据类型",
    ),
)
class SerializedValue(FactRule[SerializedValueOptions]):
    """Checks string values for serialization formats that waste memory.

    ## What it does
    Looks at the first bytes of each string value (at most 1 KB are read) and reports:

    - `java-serialized` (warning): Java's built-in serialization (`ObjectOutputStream`, the default of
      Spring's `JdkSerializationRedisSerializer`), recognised by its `AC ED 00 05` header, whatever its size;
    - `pickle` (note): Python's pickle format (protocol 2–5), whatever its size;
    - `json` / `xml` (note): a JSON object or array, or XML/HTML text, of at least `min-bytes` bytes.
      Short JSON is normal and never reported.

    At run time (the guard), the value each SET, SETEX, PSETEX, SETNX, GETSET, MSET, MSETNX or APPEND
    writes is read as it is sent: its first bytes when it starts as a pickle or Java-serialized value does,
    whatever its size, or when it is at least as large as the smallest byte limit of the value rules (4 KB
    by default) for JSON and XML.

    ## Why is this bad?
    002 asks for an efficient serialization: Java's built-in one writes class names, field names and type
    descriptors into every value, often several times the size of the data (a `Long` takes over 80 bytes),
    and it is slower than protostuff or kryo. Pickle is Python's counterpart: bound to one language and to
    the class layout, and loading a pickle runs code, so anyone who can write the key can run code in every
    reader. Large JSON and XML repeat every field name in every value: 002 and 000 suggest compressing them
    or switching to a compact format, and 001 suggests a hash for a long JSON string whose fields are
    read or changed one at a time.

    ## Example
    ```
    SET user:1 "\\xac\\xed\\x00\\x05sr\\x00\\x1ccom.example.User..."
    SET product:detail:10001 '{"title": "...", "specs": [...], ...}'    # 24 KB
    ```

    ## Use instead
    ```
    SET user:1 "<protobuf / kryo / msgpack bytes>"
    HSET product:10001 title "…" price 9999
    SET product:detail:10001 "<gzip-compressed JSON>"
    ```

    ## Options
    - `min-bytes`: report JSON or XML strings of at least this many bytes (default 4096: 000's 4 KB, above
      which it advises against a JSON value in a hash field).

    ## Source
    - 002 §规范三：使用高效序列化方法和压缩方法: prefer protostuff or kryo over Java's built-in serialization; XML and JSON take much memory, compress them (snappy, gzip).
    - 000 §该如何设计数据结构以避开大Key和热Key — 大文本: replace JSON and XML by the lighter Protobuf, compress with Snappy or GZIP; a JSON over 4 KB should not sit in a hash field.
    - 001 §2.2 选择适合的数据类型: a long JSON string is better stored as a hash.
    """  # noqa: E501 - the Source bullets are one line each in the generated docs

    Options = SerializedValueOptions
    needs = frozenset({"type", "head", "length"})
    types = frozenset({"string"})

    def gate(self, ctx: RuleContext[SerializedValueOptions]) -> Gate:
        magic = when("head", "prefix", (JAVA_MAGIC, _PICKLE_START))
        minimum = ctx.options.min_bytes
        return magic | (when("length", ">=", minimum) if minimum else NEVER)

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[SerializedValueOptions]) -> Violation | None:
        head, size = fact.head, fact.length
        if fact.type != "string" or not head or size is None:
            return None
        if head.startswith(JAVA_MAGIC):
            shown = human_bytes(size)
            return Violation(
                "java-serialized",
                Text(
                    f"value of {shown} in Java's built-in serialization, which stores class and field descriptors "
                    "in every value: use protobuf, kryo, protostuff or msgpack",
                    f"值 {shown}，使用 Java 内置序列化，每个值都带有类与字段描述：请改用 protobuf、kryo、protostuff "
                    "或 msgpack",
                ),
                Severity.WARNING,
                size,
            )
        if _PICKLE.match(head) and (size > len(head) or head.endswith(b".")):
            shown = human_bytes(size)
            return Violation(
                "pickle",
                Text(
                    f"value of {shown} in Python pickle, bound to Python classes and unsafe to load (it runs code): "
                    "use JSON, msgpack or protobuf",
                    f"值 {shown}，使用 Python pickle 序列化，依赖 Python 类且加载时会执行代码：请改用 JSON、msgpack "
                    "或 protobuf",
                ),
                Severity.NOTE,
                size,
            )
        minimum = ctx.options.min_bytes
        if not minimum or size < minimum or not is_text(head):
            return None
        kind = "json" if _JSON.match(head) else "xml" if _XML.match(head) else None
        if kind is None:
            return None
        shown, limit = human_bytes(size), human_bytes(minimum)
        if kind == "json":
            message = Text(
                f"JSON value of {shown} (≥ {limit}) repeats its field names in every value: keep fields read "
                "separately in a hash, or use a compact format (protobuf, msgpack) or compression",
                f"JSON 值 {shown}（≥ {limit}），每个值都重复字段名：单独读写的字段请存为 Hash，或改用紧凑格式"
                "（protobuf、msgpack）或压缩",
            )
        else:
            message = Text(
                f"XML/HTML value of {shown} (≥ {limit}) is verbose markup: compress it, or use a compact format "
                "(protobuf, msgpack)",
                f"XML/HTML 值 {shown}（≥ {limit}），标记冗长：请压缩，或改用紧凑格式（protobuf、msgpack）",
            )
        return Violation(kind, message, Severity.NOTE, size)
