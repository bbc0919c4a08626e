"""EXP002 expire-storm."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.simulation import ExpiryPoint, ExpirySimulation, ExpiryStep
from rediscipline.model.text import Text
from rediscipline.model.units import human_duration
from rediscipline.rules.base import ExpiryRule, RuleContext, SubjectViolation, rule
from rediscipline.rules.options import RuleOptions, option

#: Storms reported at most per simulation (the longest first).
MAX_STORMS = 5


@dataclass(frozen=True)
class ExpireStormOptions(RuleOptions):
    max_seconds: float = option(
        1.0, "Report a storm whose slow cycles run at their time limit for more than this many seconds.", minimum=0
    )
    max_cpu_share: float = option(
        0.25, "Report a storm in which the expire cycle takes more than this share of a step's time.", minimum=0
    )


@dataclass(frozen=True, slots=True)
class _Storm:
    """Consecutive steps in which a slow cycle hit its time limit."""

    steps: tuple[ExpiryStep, ...]
    start: float  # seconds from the source's time: the first step's beginning
    hz: int

    @property
    def seconds_at_limit(self) -> float:
        """Each slow cycle at its limit is one tick of the server spent mostly deleting (1/hz s)."""
        return sum(step.time_limit_hits for step in self.steps) / self.hz

    @property
    def cpu_share(self) -> float:
        return max(step.cpu_share for step in self.steps)

    @property
    def longest_ms(self) -> float:
        return max(step.longest_cycle_us for step in self.steps) / 1000


@rule(
    "EXP002",
    "expire-storm",
    title=("Keys expiring together would stall the server", "集中过期会拖慢服务端"),
    severity=Severity.WARNING,
    where=("simulation",),
    sources=("003 §大批量Key过期引发的性能问题", "003 §大批量Key过期引发的性能问题 — 方案1: 设置随机过期时间"),
)
class ExpireStorm(ExpiryRule[ExpireStormOptions]):
    """Checks that no mass expiry makes the server's expire cycle run at its time limit for long.

    ## What it does
    Reads the prediction of `rediscipline simulate expiry`: per step, the share of the server's time the
    active expire cycle took and how many slow cycles stopped at their time limit (25 % of a tick at
    `active-expire-effort` 1). Consecutive steps with cycles at their limit are one storm; a storm is reported
    when its cycles ran at the limit for more than `max-seconds` in all, or took more than `max-cpu-share` of a
    step's time. The finding's subject is the storm's start, its value the seconds at the limit; the message
    gives the CPU share, the longest cycle (how long a client's command can wait behind it) and the keys
    deleted. The longest storms are reported, at most 5.

    ## Why is this bad?
    The expire cycle runs on the main thread. When many keys expire in the same moment it repeats its loops
    until its time limit on every tick, and fast cycles fill the time between ticks: every client's command
    waits behind the deletions, and latency grows by the cycle's length (25 ms at hz 10) for as long as the
    backlog lasts. Deleting big values in the cycle makes each one longer unless `lazyfree-lazy-expire` frees
    them in the background.

    ## Example
    ```
    storm 1 h after the start: the expire cycle runs at its time limit for 12.4 s, up to 31% of the time
    ```

    ## Use instead
    Spread the TTLs of keys written together with a random part, and check the effect with the simulator's
    `--jitter 'PATTERN=10%'`; free big values in the background with `lazyfree-lazy-expire yes`:
    ```python
    r.set(key, value, ex=3600 + random.randrange(600))
    ```

    ## Options
    - `max-seconds`: report a storm whose slow cycles run at their time limit for more than this many seconds
      (default 1.0).
    - `max-cpu-share`: report a storm in which the expire cycle takes more than this share of a step's time
      (default 0.25).

    ## Source
    - 003 §大批量Key过期引发的性能问题: when many keys expire at the same time, reads and writes of the other keys
      slow down and request latency grows
      (当Redis中有大量的Key同时过期时,会导致其他Key的读写效率明显降低,业务访问延时增大).
    - 003 §大批量Key过期引发的性能问题 — 方案1: 设置随机过期时间: scatter the expiry times so that keys do not
      expire together (将过期时间打散,避免集中过期).
    """

    Options = ExpireStormOptions

    def check(self, simulation: ExpirySimulation, ctx: RuleContext[ExpireStormOptions]) -> Iterator[SubjectViolation]:
        options = ctx.options
        settings = simulation.settings
        storms = [
            storm
            for storm in _storms(simulation.steps, settings.step, settings.hz)
            if storm.seconds_at_limit > options.max_seconds or storm.cpu_share > options.max_cpu_share
        ]
        storms.sort(key=lambda storm: (-storm.seconds_at_limit, storm.start))
        for storm in storms[:MAX_STORMS]:
            start, end = human_duration(round(storm.start)), human_duration(round(storm.steps[-1].t))
            deleted = _reclaimed_by(simulation.series, storm.steps[-1].t) - _reclaimed_by(
                simulation.series, storm.start
            )
            if settings.lazyfree:
                fix = Text("spread these TTLs", "请打散这些 Key 的过期时间")
            else:
                fix = Text(
                    "spread these TTLs, and free big values in the background (lazyfree-lazy-expire yes)",
                    "请打散这些 Key 的过期时间，并在后台释放大 value（lazyfree-lazy-expire yes）",
                )
            message = Text(
                f"between {start.en} and {end.en} after the start the expire cycle runs at its time limit for "
                f"{storm.seconds_at_limit:.1f} s and takes up to {storm.cpu_share:.0%} of the server's time; a "
                f"client's command can wait {storm.longest_ms:.1f} ms behind one cycle; {deleted:,} keys are "
                f"deleted in it; {fix.en} (--jitter 'PATTERN=10%' shows the effect)",
                f"开始后 {start.zh} 到 {end.zh} 之间，主动过期周期以时间上限运行共 {storm.seconds_at_limit:.1f} 秒，"
                f"最多占用服务端 {storm.cpu_share:.0%} 的时间；客户端命令可能要在一次周期后等待 "
                f"{storm.longest_ms:.1f} 毫秒；期间删除 {deleted:,} 个 Key；{fix.zh}"
                "（--jitter 'PATTERN=10%' 可模拟效果）",
            )
            violation = Violation("expire-storm", message, value=round(storm.seconds_at_limit, 1))
            yield SubjectViolation(violation, f"storm at +{start.en}", None)


def _storms(steps: Sequence[ExpiryStep], step: float, hz: int) -> Iterator[_Storm]:
    """The runs of consecutive steps with a slow cycle at its time limit."""
    run: list[ExpiryStep] = []
    for current in (*steps, None):
        if current is not None and current.time_limit_hits:
            run.append(current)
            continue
        if run:
            yield _Storm(tuple(run), max(run[0].t - step, 0.0), hz)
            run = []


def _reclaimed_by(series: Sequence[ExpiryPoint], t: float) -> int:
    """The keys the cycle deleted by `t`, over the databases (the series' last point at or before `t`)."""
    last: dict[int, int] = {}
    for point in series:
        if point.t <= t + 1e-9:
            last[point.db] = point.reclaimed
    return sum(last.values())
