"""KEY017 time-segment."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import pairwise

from rediscipline.model.finding import Violation
from rediscipline.model.keyname import SLOT_DATE, SLOT_DATE_DASHED, SLOT_INT, KeyTemplate, Placeholder, Segment
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.rules.base import NameRule, RuleContext, Span, rule
from rediscipline.rules.key.overlaps import NAME_OVERLAPS
from rediscipline.rules.key.template_parts import NAMING_CHECKS, has_unknown, level_extents, segment_label
from rediscipline.rules.options import RuleOptions, option

_TS_WIDTHS = {"seconds": (10,), "milliseconds": (13,), "either": (10, 13)}
_DATES = (SLOT_DATE, SLOT_DATE_DASHED)


@dataclass(frozen=True)
class TimeSegmentOptions(RuleOptions):
    date_label: str = option("date", "The level that announces a YYYYMMDD date (`order:summary:date:20241122`).")
    ts_label: str = option("ts", "The level that announces an epoch timestamp (`…:ts:1692806400`).")
    ts_units: str = option(
        "either",
        "Accepted timestamps: `seconds` (10 digits), `milliseconds` (13 digits) or `either`.",
        choices=tuple(_TS_WIDTHS),
    )
    require_label: bool = option(False, "Every date level must follow the date label (`date:20241122`).")


@rule(
    "KEY017",
    "time-segment",
    title=("Malformed date or timestamp level", "日期或时间戳层级格式错误"),
    severity=Severity.WARNING,
    where=NAMING_CHECKS,
    sources=(
        "004 §4 时间敏感型键名",
        "000 §该如何设计数据结构以避开大Key和热Key — 消息队列或任务记录",
    ),
    overlaps=NAME_OVERLAPS,
)
class TimeSegment(NameRule[TimeSegmentOptions]):
    """Checks the value after a `date` or `ts` label level.

    ## What it does
    004 writes times into keys as labelled pairs: `<description>:date:<YYYYMMDD>` and
    `<description>:ts:<timestamp>`. After a `date` level the rule expects one valid calendar date of eight
    digits, after a `ts` level an epoch timestamp of 10 (seconds) or 13 (milliseconds) digits, and reports:
    - `invalid-date`: eight digits that are not a date (`date:20241399`);
    - `date-format`: another format (`date:2024-11-22`, `date:202411`);
    - `ts-format`: a timestamp of the wrong width or kind (`ts:20241122`, `ts:abc`, `ts:1692806400123`
      with seconds);
    - `missing-value`: the label is followed by an empty level (`order:summary:date:`);
    - `unlabelled-date`: with `require-label = true`, a date that does not follow the date label
      (`seckill:stock:20231212:product:10001`).
    A label that is the last level, or a `date` followed by a plain word (`config:date:format`), is a field
    name, not a label, and is left alone; so is a value built by code that cannot be seen. `ts` is not an
    ordinary word, so a word after it is reported.

    At run time (the guard), every key the application sends is judged by its name, as a key read from a
    server is.

    ## Why is this bad?
    Time levels are parsed by cleanup jobs, dashboards and people: `date:2024-11-22` next to
    `date:20241122` splits one series into two and defeats `SCAN MATCH order:summary:date:2024*`, and a
    timestamp in milliseconds where seconds are expected silently moves a bucket fifty thousand years.

    ## Example
    ```
    order:summary:date:2024-11-22
    order:summary:date:20241399
    session:token:uid:abc123:ts:20230823
    ```

    ## Use instead
    ```
    order:summary:date:20241122
    session:token:uid:abc123:ts:1692806400
    ```

    ## Options
    - `date-label`: the level that announces a date (default `date`).
    - `ts-label`: the level that announces a timestamp (default `ts`).
    - `ts-units`: `seconds` (10 digits), `milliseconds` (13 digits) or `either` (default).
    - `require-label`: every date must follow the date label (default false: 000's `uid:task:202209` and 003's
      `seckill:stock:20231212:product:10001` use unlabelled time buckets).

    ## Source
    - 004 §4 时间敏感型键名: `<description>:date:<YYYYMMDD>` (order:summary:date:20241122) and
      `<description>:ts:<timestamp>` (session:token:uid:abc123:ts:1692806400).
    - 000 §该如何设计数据结构以避开大Key和热Key — 消息队列或任务记录: time-bucketed keys such as
      `uid:task:202209` without a label.
    """

    Options = TimeSegmentOptions

    def check(
        self, key: KeyTemplate, key_type: str | None, ctx: RuleContext[TimeSegmentOptions]
    ) -> Iterator[Violation]:
        opts = ctx.options
        date_label, ts_label = opts.date_label.lower(), opts.ts_label.lower()
        segments = key.segments()
        extents = level_extents(key)
        labelled: set[int] = set()  # indexes of levels that follow the date label
        for segment, value in pairwise(segments):
            label = segment_label(segment)
            if label == date_label:
                labelled.add(value.index)
                yield from _check_date(value, opts.date_label, _value_span(value, extents))
            elif label == ts_label:
                yield from _check_ts(value, opts.ts_label, _TS_WIDTHS[opts.ts_units], _value_span(value, extents))
        if opts.require_label:
            unlabelled = [
                s for s in segments if s.index not in labelled and any(p.slot in _DATES for p in _placeholders(s))
            ]
            if unlabelled:
                yield Violation(
                    "unlabelled-date",
                    Text(
                        f"a date level without the `{opts.date_label}` label: write `{opts.date_label}:<YYYYMMDD>`",
                        f"日期层级缺少 `{opts.date_label}` 标签：请写成 `{opts.date_label}:<YYYYMMDD>`",
                    ),
                    value=len(unlabelled),
                    spans=tuple(extents[s.index] for s in unlabelled),
                )


def _placeholders(segment: Segment) -> Iterator[Placeholder]:
    for part in segment.parts:
        if isinstance(part, Placeholder):
            yield part


def _value_kind(value: Segment) -> Placeholder | str | None:
    """What follows a label: the single placeholder; "empty"; "other" for a malformed value; None to skip.

    Skipped: a plain word (the label was a field name) and anything built by code that cannot be seen.
    """
    if value.is_empty:
        return "empty"
    if has_unknown(value):
        return None
    single = value.placeholder
    if single is not None:
        return single
    literal = value.literal
    if literal is not None and not any(48 <= byte <= 57 for byte in literal):
        return None
    return "other"


def _value_span(value: Segment, extents: tuple[Span, ...]) -> tuple[Span, ...]:
    """What a violation about the level after a label is about: the level, or for an empty one the
    separators around it (those KEY009 empty-segment reports)."""
    start, end = extents[value.index]
    if start < end:
        return ((start, end),)
    return ((start - 1, end + 1 if value.index + 1 < len(extents) else end),)


def _missing(label: str, spans: tuple[Span, ...]) -> Violation:
    return Violation(
        "missing-value",
        Text(f"the `{label}` label is followed by an empty level", f"`{label}` 标签后的层级为空"),
        spans=spans,
    )


def _check_date(value: Segment, label: str, spans: tuple[Span, ...]) -> Iterator[Violation]:
    kind = _value_kind(value)
    if kind is None or (isinstance(kind, Placeholder) and kind.slot == SLOT_DATE):
        return
    if kind == "empty":
        yield _missing(label, spans)
    elif isinstance(kind, Placeholder) and kind.slot == SLOT_INT and kind.width == 8:
        yield Violation(
            "invalid-date",
            Text(
                f"the value after `{label}` is eight digits but not a calendar date (YYYYMMDD)",
                f"`{label}` 后的八位数字不是有效日期（YYYYMMDD）",
            ),
            spans=spans,
        )
    else:
        yield Violation(
            "date-format",
            Text(
                f"the value after `{label}` is not a YYYYMMDD date (e.g. 20241122)",
                f"`{label}` 后的值不是 YYYYMMDD 格式的日期（例如 20241122）",
            ),
            spans=spans,
        )


def _check_ts(value: Segment, label: str, widths: tuple[int, ...], spans: tuple[Span, ...]) -> Iterator[Violation]:
    # Unlike `date`, `ts` is not an ordinary field name: a word after it is a malformed timestamp.
    kind: object = "word" if value.literal else _value_kind(value)
    if kind is None or (isinstance(kind, Placeholder) and kind.slot == SLOT_INT and kind.width in widths):
        return
    if kind == "empty":
        yield _missing(label, spans)
        return
    digits = " or ".join(str(w) for w in widths)
    digits_zh = " 或 ".join(str(w) for w in widths)
    yield Violation(
        "ts-format",
        Text(
            f"the value after `{label}` is not an epoch timestamp of {digits} digits",
            f"`{label}` 后的值不是 {digits_zh} 位的 Unix 时间戳",
        ),
        spans=spans,
    )
