"""Write examples/demo-keys.txt, the key list behind `make demo`.

A deterministic (seeded) mix of clean keys in the conventions' style and the violations a real keyspace
collects over the years: stray whitespace and quotes, a terminal escape, non-ASCII and invalid UTF-8, glob
characters, the wrong case or separator, abbreviations, bad dates, over-long keys, hashtag mistakes, and a
constant hashtag that pins 1,100 keys to one cluster slot. The file is raw bytes, one key per line, written
in binary mode; keys never contain a newline.

    python scripts/make_demo_keys.py [OUT]        # default: examples/demo-keys.txt
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
from pathlib import Path

SEED = 20241122
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "examples" / "demo-keys.txt"
HOT_HASHTAG_KEYS = 1100  # above the slot-skew rule's default minimum of 1,000 keys
MAX_LINES = 2000


def _epoch(rng: random.Random) -> int:
    return rng.randrange(1_700_000_000, 1_735_000_000)


def _date(rng: random.Random, start: dt.date = dt.date(2024, 1, 1), days: int = 366) -> dt.date:
    return start + dt.timedelta(days=rng.randrange(days))


def clean_keys(rng: random.Random) -> list[bytes]:
    """Keys that follow the conventions: `:`-separated, lowercase, full words, typed ids."""
    keys: list[str] = []
    keys += [f"user:profile:id:{rng.randrange(1, 2_000_000)}" for _ in range(80)]
    keys += [f"order:status:order_id:{rng.randrange(10_000_000, 99_999_999)}" for _ in range(60)]
    keys += [f"chat:messages:list:room_id:{rng.randrange(1, 50_000)}" for _ in range(40)]
    keys += [f"leaderboard:score:zset:game_id:{rng.randrange(1, 500)}" for _ in range(25)]
    keys += [f"order:summary:date:{_date(rng):%Y%m%d}" for _ in range(30)]
    keys += [f"session:token:uid:{rng.getrandbits(48):012x}:ts:{_epoch(rng)}" for _ in range(35)]
    keys += [f"video_info#olympic#2020-08-{rng.randrange(1, 32):02d}#{rng.randrange(1, 10_000)}" for _ in range(25)]
    keys += [f"uid#{rng.randrange(1, 1_000_000)}#{rng.randrange(1, 100)}" for _ in range(25)]
    return [k.encode() for k in keys]


def violating_keys(rng: random.Random) -> list[bytes]:
    """Realistic mistakes, a few of each so that pattern inference sees them as groups."""

    def n(lo: int = 1, hi: int = 100_000) -> int:
        return rng.randrange(lo, hi)

    keys: list[bytes] = []
    text = [
        # whitespace and quotes
        f"user profile:{n()}",
        f"user profile:{n()}",
        f"order:status:order_id: {n()}",
        f"order:status:order_id:{n()} ",
        f'"user:profile:id:{n()}"',
        f"user:'nickname':{n()}",
        f"user:profile\t:id:{n()}",
        f"chat:messages:list:room_id:\t{n()}",
        # a terminal escape: must be shown escaped, never interpreted
        f"\x1b[31malert\x1b[0m:user:{n()}",
        # non-ASCII
        f"用户:资料:id:{n()}",
        f"用户:资料:id:{n()}",
        f"user:昵称:{n()}",
        f"leaderboard:score:zset:game_id:{n()}:队伍",
        # glob characters in a name
        "user:*:profile",
        f"cache:page:*:{n()}",
        f"search:result:q:what?:{n()}",
        # case and separator mistakes
        "AID:15:player:ranking",
        "AID:16:player:ranking",
        f"User:Profile:Id:{n()}",
        "orderStatusOrderId98765",
        f"orderStatusOrderId{n()}",
        "user-profile:123",
        f"user-profile:{n()}",
        "reply.to:5",
        f"reply.to:{n()}",
        "user#profile#name",
        f"user#profile#email#{n()}",
        # empty levels and trailing separators
        "a::b",
        f"user::profile:id:{n()}",
        "user:profile:id:",
        f"order:status:{n()}:",
        # hashtag mistakes
        f"cart:{{}}:items:{n()}",
        "cart:{}:total",
        "a{aa{xxx}bb}b",
        f"order:{{user:{n()}}}:{{item}}:{n()}",
        # abbreviations
        *(f"usr:prf:id:{n()}" for _ in range(6)),
        *(f"u:p:{n()}" for _ in range(6)),
        # type suffix that contradicts the rest of the namespace
        *(f"chat:messages:hashmap:room_id:{n(1, 50_000)}" for _ in range(5)),
        # dates in the wrong format, or not dates at all
        "order:summary:date:2024-11-22",
        f"order:summary:date:{_date(rng):%Y-%m-%d}",
        "order:summary:date:20241399",
        "order:summary:date:20240230",
        "session:ts:abc",
        f"session:token:uid:{rng.getrandbits(48):012x}:ts:yesterday",
    ]
    keys += [k.encode() for k in text]

    # very long keys (> 128 bytes): serialized queries and paths used as names
    keys.append(b"cache:query:" + b"select_id_name_email_from_users_where_status_active_and_created_after_" * 3)
    keys.append(b"report:export:" + "/".join(f"dept_{n(1, 99)}" for _ in range(20)).encode())
    keys.append(f"session:token:uid:{rng.getrandbits(512):0128x}:ts:{_epoch(rng)}".encode())

    # invalid UTF-8 bytes (a binary id written straight into the name, a truncated multi-byte character)
    keys.append(b"user:profile:\xff\xfe:" + str(n()).encode())
    keys.append(b"cache:\xc3\x28:" + str(n()).encode())
    keys.append(b"img:thumb:\x80abc:" + str(n()).encode())
    keys.append("用户:资料:id:".encode()[:-5] + b":" + str(n()).encode())
    return keys


def hot_hashtag_keys(rng: random.Random) -> list[bytes]:
    """One constant hashtag: every key hashes to the same cluster slot."""
    ids = rng.sample(range(1, 10_000_000), HOT_HASHTAG_KEYS)
    return [f"rank:{{global}}:user:{i}".encode() for i in ids]


def build(seed: int = SEED) -> list[bytes]:
    rng = random.Random(seed)
    keys = clean_keys(rng) + violating_keys(rng) + hot_hashtag_keys(rng)
    rng.shuffle(keys)  # SCAN order is arbitrary
    assert all(b"\n" not in k and b"\r" not in k for k in keys), "a key would span lines"
    assert len(keys) <= MAX_LINES, len(keys)
    return keys


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    keys = build()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "wb") as fh:
        fh.write(b"".join(k + b"\n" for k in keys))
    print(f"wrote {len(keys)} keys to {args.out}")


if __name__ == "__main__":
    main()
