"""HOT002 hot-big-key."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.display import QUOTE_LIMIT, display_bytes
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.traffic import HotKey, TrafficView
from rediscipline.rules.base import RuleContext, SubjectViolation, TrafficRule, rule
from rediscipline.rules.options import RuleOptions, option


@dataclass(frozen=True)
class HotBigKeyOptions(RuleOptions):
    min_ops_per_second: int = option(
        1000, "Judge the size of a key accessed at least this many times per second during the window.", minimum=1
    )
    max_string_bytes: int = option(10240, "A string longer than this many bytes is big.", minimum=1)
    max_elements: int = option(5000, "A collection with more elements than this is big.", minimum=1)
    max_memory: int = option(1 << 20, "A key taking more memory than this many bytes (MEMORY USAGE) is big.", minimum=1)


def _big(hot: HotKey, options: HotBigKeyOptions) -> Text | None:
    """Why the key is big ("a hash of 12,000 elements"), or None."""
    kind, length, memory = hot.type, hot.length, hot.memory
    if kind == "string" and length is not None and length > options.max_string_bytes:
        return Text(f"a string of {length:,} bytes", f"{length:,} 字节的 String")
    if kind not in (None, "string") and length is not None and length > options.max_elements:
        return Text(f"a {kind} of {length:,} elements", f"{length:,} 个元素的 {kind}")
    if memory is not None and memory > options.max_memory:
        return Text(f"{memory:,} bytes in memory", f"占用内存 {memory:,} 字节")
    return None


@rule(
    "HOT002",
    "hot-big-key",
    title=("Hot key that is also big", "既热又大的 Key"),
    severity=Severity.ERROR,
    where=("traffic",),
    sources=("000 §该如何设计数据结构以避开大Key和热Key", "000 §Value如何设计 — 大小以及素个数"),
)
class HotBigKey(TrafficRule[HotBigKeyOptions]):
    """Checks that the keys accessed most often are small.

    ## What it does
    Reports each key accessed at least `min-ops-per-second` times per second during the observed window
    (`rediscipline traffic`, hot keys from `OBJECT FREQ` or a `--monitor` sample) that is also big: a
    string longer than `max-string-bytes`, a collection (hash, list, set, sorted set, stream) with more
    than `max-elements` elements, or any key taking more than `max-memory` bytes. The sizes are read after
    the window for the ten hottest keys (TYPE, MEMORY USAGE and the length by type, each O(1)). The
    finding's subject is the key, its value the accesses per second, and the message gives the size and the
    bytes per second that reading the whole value at that rate moves.

    ## Why is this bad?
    A hot key already puts a share of one node's only command thread on one key; a big one multiplies that
    by its size. Every read of a 100 KB value at 1,000 reads per second moves 100 MB per second through one
    node's network and output buffers, and each read of a large collection takes that thread for as long as
    it walks the elements. The node saturates before any other, and no resharding helps: the key lives in
    one slot.

    ## Example
    ```
    HGETALL live:room:8801:goods      2,400 times per second, a hash of 12,000 elements
    ```

    ## Use instead
    Split the value so that each access reads a small part (fields in buckets of a few hundred, a page of
    a list, the members one query needs), and keep copies of the parts that stay hot:
    ```python
    bucket = crc32(field) % 64
    price = r.hget(f"live:room:8801:goods:{bucket}", field)
    ```

    ## Options
    - `min-ops-per-second`: judge keys accessed at least this many times per second (default 1000).
    - `max-string-bytes`: a string longer than this is big (default 10240, 000's 10 KB).
    - `max-elements`: a collection with more elements is big (default 5000).
    - `max-memory`: a key taking more memory is big (default 1048576, 000's 1 MB per key).

    ## Source
    - 000 §该如何设计数据结构以避开大Key和热Key: big keys and hot keys are to be split and scattered.
    - 000 §Value如何设计 — 大小以及素个数: strings preferably no more than 10 KB; a single key's value no
      more than 1 MB.
    """

    Options = HotBigKeyOptions

    def check(self, traffic: TrafficView, ctx: RuleContext[HotBigKeyOptions]) -> Iterator[SubjectViolation]:
        options = ctx.options
        for hot in traffic.hot_keys:
            rate = hot.ops_per_second
            if rate is None or rate < options.min_ops_per_second:
                continue
            big = _big(hot, options)
            if big is None:
                continue
            shown = display_bytes(hot.key, QUOTE_LIMIT)
            moved = Text("", "")
            if hot.memory is not None:
                megabytes = rate * hot.memory / 1e6
                moved = Text(f", up to {megabytes:,.1f} MB/s read whole", f"，整体读取时可达每秒 {megabytes:,.1f} MB")
            message = Text(
                f"key {shown} (db {hot.db}) is {big.en} and was accessed {rate:,.0f} times per second during the "
                f"window ({hot.source}{moved.en}): one node's thread and network carry all of it; split the value "
                "so that each access reads a small part, and keep copies of the hot parts",
                f"Key {shown}（db {hot.db}）是{big.zh}，在观察窗口内每秒被访问 {rate:,.0f} 次"
                f"（{hot.source}{moved.zh}）："
                "全部压在一个节点的线程与网络上；请拆分 Value 使每次访问只读一小部分，并为热的部分保存多份副本",
            )
            yield SubjectViolation(Violation("hot-big", message, value=rate), f"key db{hot.db} {shown}", hot.key)
