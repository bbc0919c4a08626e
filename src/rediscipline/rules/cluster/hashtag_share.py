"""CLU002 hashtag-share."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rediscipline.model.cluster import SHARD_FAILED, ClusterView, HashtagStat, ShardStat
from rediscipline.model.finding import Violation
from rediscipline.model.severity import Severity
from rediscipline.model.text import Text
from rediscipline.model.units import human_bytes
from rediscipline.rules.base import ClusterRule, RuleContext, SubjectViolation, rule
from rediscipline.rules.cluster.shards import (
    CLUSTER_CHECKS,
    estimated,
    partial_mark,
    sampled,
    shard_name,
    share,
    shown_tag,
)
from rediscipline.rules.options import RuleOptions, option

MB = 1024**2
#: Keys a hashtag must hold to pin anything: a tag on one key is that key's size, judged by the VAL rules.
MIN_TAG_KEYS = 2


@dataclass(frozen=True)
class HashtagShareOptions(RuleOptions):
    max_share: float = option(
        0.1, "Report a hashtag holding more than this share of its shard's keys or memory.", minimum=0
    )
    min_keys: int = option(1000, "Judge the keys of a hashtag shared by at least this many keys.", minimum=2)
    min_bytes: int = option(16 * MB, "Judge the memory of a hashtag holding at least this many bytes.", minimum=0)


@rule(
    "CLU002",
    "hashtag-share",
    title=("One hashtag holds a large share of a shard", "单个 hashtag 占据分片的大量数据"),
    severity=Severity.WARNING,
    where=CLUSTER_CHECKS,
    sources=("000 §Key 名字如何设计 — 命名",),
)
class HashtagShare(ClusterRule[HashtagShareOptions]):
    """Checks that no hashtag pins a large part of a shard's data to one slot.

    ## What it does
    For each hashtag the scan found (the bytes between a key's first `{` and the next `}`, which Redis
    Cluster hashes instead of the whole key), compares its keys and their memory with those of the shard
    serving its slot. A tag holding more than `max-share` of its shard's keys is reported as `keys`, more
    than `max-share` of its shard's memory as `memory` (strictly more: a share equal to the limit passes).
    The finding's subject is the tag (`hashtag {user}`), its example the tag's bytes as they are (any
    bytes, not only UTF-8), and its value the share (0.4 for 40%); the message names the slot and the
    shard (address and shard id).

    Only tags shared by at least `min-keys` keys are judged on keys, and only tags of at least `min-bytes`
    on memory; a tag on a single key is never judged (it pins nothing but that key, whose size is the
    big-key rules' business). With `--sample`, counts and memory are those of the sample: the shares hold,
    messages say so, and the minimums are compared with the estimated figures (the sample's over the
    sample rate). A tag whose slot no master serves is left to CLU006; a shard read only in part is
    marked in the message. The scan keeps the biggest tags of the run (a bounded table), so a small tag
    may be missing, never a dominant one.

    KEY013 (hashtag-slot-skew) reports, per key pattern, a constant tag shared by many keys, from the names
    alone; this rule measures what any tag, constant or not (one tenant's `{tenant:42}`), holds of the
    shard it landed on. Both may report the same tag: KEY013 at the patterns that write it, this rule at
    the shard. CLU003 (slot-concentration) leaves to this rule a slot whose keys or memory are mostly one
    tag's, while this rule is enabled.

    ## Why is this bad?
    Every key with the same tag hashes to the same slot, and a slot lives on one shard: however many
    shards the cluster has, that shard alone holds the tag's data and serves its traffic, and no
    rebalancing can split it (a slot moves whole). A tag with a tenth of a shard already makes it the first
    to fill as the tag grows; at 40% the shard holds two thirds more than each of its neighbours (CLU001).

    ## Example
    Every leaderboard entry under one tag, to use ZUNIONSTORE across them:
    ```
    rank:{global}:user:1
    rank:{global}:user:2
    ```

    ## Use instead
    A tag holding only the keys one multi-key command needs together, so that tags spread over the slots;
    no braces where no multi-key command needs the keys in one slot:
    ```
    rank:{season:12}:user:1
    rank:user:2
    ```

    ## Options
    - `max-share`: report a hashtag holding more than this share of its shard's keys or memory (default 0.1:
      one slot of the thousands a shard serves holding a tenth of it is several hundred times its share,
      and a tag at 0.1 is reported before it skews its shard past CLU001's 1.25, which takes about 0.3 in a
      three-shard cluster).
    - `min-keys`: judge the keys of a hashtag shared by at least this many keys (default 1000, as KEY013:
      fewer keys are too few to matter however small the shard).
    - `min-bytes`: judge the memory of a hashtag holding at least this many bytes (default 16 MB, as
      CLU001's floor for a whole cluster).

    ## Source
    - 000 §Key 名字如何设计 — 命名: hashtags route keys to one shard; take care that large amounts of data do
      not fall into the same shard, which unbalances the nodes (要注意使用 hashtag 避免大量数据落入同一个数据分片).
    """

    Options = HashtagShareOptions
    needs = frozenset({"memory"})

    def check(self, cluster: ClusterView, ctx: RuleContext[HashtagShareOptions]) -> Iterator[SubjectViolation]:
        opts = ctx.options
        for tag in cluster.hashtags:
            if tag.shard is None or not 0 <= tag.shard < len(cluster.shards) or tag.keys < MIN_TAG_KEYS:
                continue
            shard = cluster.shards[tag.shard]
            if shard.status == SHARD_FAILED:
                continue
            if estimated(cluster, tag.keys) >= opts.min_keys and shard.keys and tag.keys / shard.keys > opts.max_share:
                yield _finding(cluster, tag, shard, "keys", part=tag.keys, whole=shard.keys)
            if (
                tag.memory is not None
                and shard.memory
                and estimated(cluster, tag.memory) >= opts.min_bytes
                and tag.memory / shard.memory > opts.max_share
            ):
                yield _finding(cluster, tag, shard, "memory", part=tag.memory, whole=shard.memory)


def _finding(
    cluster: ClusterView, tag: HashtagStat, shard: ShardStat, code: str, *, part: int, whole: int
) -> SubjectViolation:
    shown = shown_tag(tag.tag)
    sample = sampled(cluster)
    if code == "keys":
        held = Text(f"{part:,} keys{sample.en}", f"{part:,} 个 Key{sample.zh}")
        of = Text(f"the {whole:,} keys", f"全部 {whole:,} 个 Key")
    else:
        held = Text(
            f"{human_bytes(part)} in {tag.keys:,} keys{sample.en}",
            f"{tag.keys:,} 个 Key 共 {human_bytes(part)}{sample.zh}",
        )
        of = Text(f"the {human_bytes(whole)} of keys", f"全部 {human_bytes(whole)} Key 内存")
    mark, name = partial_mark(shard), shard_name(shard)
    message = Text(
        f"the hashtag {shown} pins {held.en} to slot {tag.slot}, {share(part, whole)} of {of.en} of shard "
        f"{name.en}{mark.en}: that shard alone holds and serves them, and no rebalancing can split a slot; narrow "
        "the tag to the keys one multi-key command needs together, or drop the braces",
        f"hashtag {shown} 把 {held.zh} 固定在槽位 {tag.slot}，占分片 {name.zh}{mark.zh}{of.zh}的 "
        f"{share(part, whole)}：这些数据只能由该分片独自存储和服务，迁移槽位也无法拆分；"
        "让 tag 只包含同一个多 Key 命令需要放在一起的 Key，或者去掉括号",
    )
    violation = Violation(code, message, value=round(part / whole, 3))
    return SubjectViolation(violation, f"hashtag {shown}", tag.tag)
