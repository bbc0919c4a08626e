"""Key names cut by time: one key per month, week, day or hour instead of one key that grows forever.

000 §消息队列或任务记录: "Key的设计最好以时间段划分，比如：按月记录 uid:task:202209，而非将所有任务记录到一个Key：
uid:task:all", each with a reasonable expiry so that no key piles up long history. A month's key stays small,
expires on its own, and last month's data can be dropped without touching this month's.

The bucket is the last `:` level, digits only except the week's `w`, so the names keep to 001 §1.1's
characters (lower case, digits, `:`, `_`) and sort by time:

| granularity | bucket       | example                  |
|-------------|--------------|--------------------------|
| month       | `YYYYMM`     | `task:user:10086:202209`   |
| week        | `YYYYwWW`    | `task:user:10086:2022w35`  (ISO 8601 week and its year) |
| day         | `YYYYMMDD`   | `task:user:10086:20220901` |
| hour        | `YYYYMMDDHH` | `task:user:10086:2022090113` |

`when` is taken in the time zone `tz` (UTC by default): the current time when omitted, a number as Unix
seconds, an aware `datetime` converted to `tz`, a naive `datetime` or a `date` as it is (a `date` has no hour:
hour buckets need a datetime). Pass `tz=ZoneInfo("Asia/Shanghai")` for buckets that turn with the business's
day rather than UTC's.
"""

from __future__ import annotations

from datetime import date, datetime, timezone, tzinfo
from typing import Literal, TypeAlias, TypeVar

Granularity: TypeAlias = Literal["month", "week", "day", "hour"]
GRANULARITIES: tuple[Granularity, ...] = ("month", "week", "day", "hour")
_FORMATS = {"month": "%Y%m", "day": "%Y%m%d", "hour": "%Y%m%d%H"}

K = TypeVar("K", bytes, str)


def time_bucket(
    when: datetime | date | float | None = None, granularity: Granularity = "month", *, tz: tzinfo = timezone.utc
) -> str:
    """The bucket text of `when` (`202209`, `2022w35`, `20220901`, `2022090113`): see the module's doc."""
    if granularity not in GRANULARITIES:
        raise ValueError(f"granularity must be one of {', '.join(GRANULARITIES)}, not {granularity!r}")
    moment: datetime | date
    if when is None:
        moment = datetime.now(tz)
    elif isinstance(when, datetime):
        moment = when.astimezone(tz) if when.tzinfo is not None else when
    elif isinstance(when, date):
        if granularity == "hour":
            raise ValueError("hour buckets need a datetime, not a date")
        moment = when
    elif isinstance(when, int | float) and not isinstance(when, bool):
        moment = datetime.fromtimestamp(when, tz)
    else:
        raise TypeError(f"when must be a datetime, a date, Unix seconds or None, not {type(when).__name__}")
    if granularity == "week":
        year, week, _day = moment.isocalendar()
        return f"{year}w{week:02d}"
    return moment.strftime(_FORMATS[granularity])


def time_bucket_key(
    prefix: K,
    when: datetime | date | float | None = None,
    granularity: Granularity = "month",
    *,
    tz: tzinfo = timezone.utc,
) -> K:
    """`prefix:<bucket>`: the key of the time bucket `when` falls in (000 §消息队列或任务记录: `uid:task:202209`).

    `prefix` is bytes or str (the key comes back of the same type; a trailing `:` is not doubled);
    `granularity` is "month" (the default, as in 000), "week", "day" or "hour"; `when` and `tz` are
    described in the module's doc. Give each bucket key a TTL a little longer than the period it covers
    (`set_with_ttl`, or EXPIRE after the first write), as 000 asks.

    Serves 000 §消息队列或任务记录.

    >>> from datetime import datetime
    >>> time_bucket_key("task:user:10086", datetime(2022, 9, 1))
    'task:user:10086:202209'
    """
    bucket = time_bucket(when, granularity, tz=tz)
    if isinstance(prefix, bytes):
        return prefix + (b"" if prefix.endswith(b":") else b":") + bucket.encode("ascii")
    return prefix + ("" if prefix.endswith(":") else ":") + bucket
