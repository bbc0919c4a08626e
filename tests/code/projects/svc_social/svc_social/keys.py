"""Key builders of the social service (one function per key shape)."""

from __future__ import annotations

#: Push notifications waiting for the APNs/FCM workers.
PUSH_QUEUE = "queue:push_delivery"
#: Daily e-mail digests waiting for the mailer.
DIGEST_QUEUE = "queue:email_digest"


def followers(user_id: int) -> str:
    return f"follow:followers:{user_id}"


def following(user_id: int) -> str:
    return f"follow:following:{user_id}"


def home_feed(user_id: int) -> str:
    """Zset post id -> publish time, capped at a few hundred entries."""
    return f"feed:home:{user_id}"


def profile_timeline(user_id: int) -> str:
    """List of the author's own post ids, newest first."""
    return f"feed:timeline:{user_id}"


def feed_cursor(user_id: int) -> str:
    return f"feed:cursor:{user_id}"


def post_stats(post_id: int) -> str:
    """Hash of likes, shares and comments."""
    return f"post:stats:{post_id}"


def post_likers(post_id: int) -> str:
    return f"post:likers:{post_id}"


def post_like_count(post_id: int) -> str:
    return f"post:likes:{post_id}"


def tag_visitors(tag: str, day: str) -> str:
    """HyperLogLog of the users who viewed a tag on a day (YYYYMMDD)."""
    return f"trending:visitors:{tag}:date:{day}"


def trending_tags(day: str) -> str:
    return f"trending:tags:date:{day}"


def inbox(user_id: int) -> str:
    return f"notify:inbox:{user_id}"


def notify_channel(user_id: int) -> str:
    """Pub/sub channel the websocket gateway listens on."""
    return f"notify:user:{user_id}"


def post_rate(user_id: int) -> str:
    return f"rate_limit:post:{user_id}"
