"""VAL007 compressible-value."""

from __future__ import annotations

import zlib
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

#: Heads shorter than this say little about a value's redundancy (zlib's own header is 6 bytes).
MIN_SAMPLE = 256


@dataclass(frozen=True)
class CompressibleValueOptions(RuleOptions):
    min_bytes: int = option(4096, "Look only at text strings of at least this many bytes (0 = off).", minimum=0)
    min_ratio: float = option(3.0, "Report when the sampled head compresses at least this many times.", minimum=1)


@rule(
    "VAL007",
    "compressible-value",
    title=("Large text value stored uncompressed", "大文本值未压缩存储"),
    severity=Severity.NOTE,
    where=VALUE_CHECKS,
    sources=(
        "002 §规范三：使用高效序列化方法和压缩方法",
        "000 §该如何设计数据结构以避开大Key和热Key — 大文本",
        "003 §Value设计原则 — 3. 数据压缩",
    ),
)
class CompressibleValue(FactRule[CompressibleValueOptions]):
    """Checks for large text values that compress well but are stored as is.

    ## What it does
    For string values of at least `min-bytes` bytes whose first bytes (at most 1 KB are read) are text
    (UTF-8 without control characters: JSON, XML, HTML, CSV, prose), compresses that head with zlib at its
    fastest level and reports the value when it shrinks at least `min-ratio` times. A whole value usually
    compresses better than its first kilobyte, so the estimate is conservative. At run time (the guard),
    the value each SET, SETEX, PSETEX, SETNX, GETSET, MSET, MSETNX or APPEND writes is sampled as it is
    sent.

    Binary values are left alone: compressed data (gzip, zstd, snappy, lz4) does not shrink again, and
    bitmaps, HyperLogLogs and counters are read and changed in place (SETBIT, PFADD, GETRANGE), which
    compression would break. Formats are `serialized-value`'s (VAL006) business; a large JSON value can be
    reported by both: one asks for another format, this one for compression.

    ## Why is this bad?
    Text that compresses three times or more is mostly repetition (field names, markup, whitespace). Stored
    as is, it takes that much more memory, network and replication bandwidth on every read and write.
    002, 000 and 003 all recommend compressing large values (snappy, gzip) before writing them.

    ## Example
    ```
    SET page:html:home "<html>...<div class=\\"item\\">...</div><div class=\\"item\\">...</div>..."   # 60 KB
    ```

    ## Use instead
    ```
    SET page:html:home "<the same page, gzip- or snappy-compressed>"   # 9 KB
    ```

    ## Options
    - `min-bytes`: look only at text strings of at least this many bytes (default 4096: below that, the
      bytes saved rarely pay for compressing on every write and decompressing on every read).
    - `min-ratio`: report when the sampled head compresses at least this many times (default 3.0).

    ## Source
    - 002 §规范三：使用高效序列化方法和压缩方法: XML and JSON take much memory; compress them with snappy or gzip before writing.
    - 000 §该如何设计数据结构以避开大Key和热Key — 大文本: store large text (articles, novels) compressed with Snappy or GZIP.
    - 003 §Value设计原则 — 3. 数据压缩: a product's JSON (10 KB+) is stored gzip-compressed.
    """  # noqa: E501 - the Source bullets are one line each in the generated docs

    Options = CompressibleValueOptions
    needs = frozenset({"type", "head", "length"})
    types = frozenset({"string"})

    def gate(self, ctx: RuleContext[CompressibleValueOptions]) -> Gate:
        minimum = ctx.options.min_bytes
        return when("length", ">=", minimum) if minimum else NEVER

    def check(self, fact: KeyFact, key: KeyTemplate, ctx: RuleContext[CompressibleValueOptions]) -> Violation | None:
        head, size, opts = fact.head, fact.length, ctx.options
        if fact.type != "string" or head is None or size is None or not opts.min_bytes or size < opts.min_bytes:
            return None
        if len(head) < MIN_SAMPLE or not is_text(head):
            return None
        ratio = len(head) / len(zlib.compress(head, 1))
        if ratio < opts.min_ratio:
            return None
        shown = human_bytes(size)
        return Violation(
            "compressible",
            Text(
                f"text value of {shown} compresses {ratio:.1f}× in a sample (reported from {opts.min_ratio:.1f}×): "
                "compress it (snappy, gzip, zstd) before writing",
                f"文本值 {shown}，抽样可压缩 {ratio:.1f} 倍（{opts.min_ratio:.1f} 倍起报告）：请在写入前压缩"
                "（snappy、gzip、zstd）",
            ),
            value=ratio,
        )
