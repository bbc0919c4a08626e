"""Realistic, seeded identifiers for workloads: the ids, names and addresses applications put into keys."""

from __future__ import annotations

import base64
import datetime as dt
import random
import string
import uuid

FIRST_NAMES = ("anna", "ben", "chloé", "dmitri", "emma", "farid", "greta", "hiro", "ines", "jonas", "kai", "lea")
LAST_NAMES = ("meyer", "nguyen", "olsen", "patel", "quinn", "rossi", "silva", "tanaka", "usman", "varga", "wu")
MAIL_DOMAINS = ("gmail.com", "example.org", "company.io", "mail.ru", "web.de", "outlook.com", "uni-bonn.de")
SLUG_WORDS = (
    "spring", "sale", "how", "to", "choose", "running", "shoes", "winter", "guide", "best", "coffee", "beans",
    "review", "2024", "new", "release", "tips", "garden", "kitchen", "budget", "travel", "checklist", "python",
)  # fmt: skip
SEARCH_TERMS = (
    "red shoes", "café crème", "usb-c cable", "Größe 42", "iphone 15 case", "naïve bayes", "海报", "desk lamp",
    "wireless mouse", "tea", "rain jacket", "São Paulo", "kids bike 16\"", "50% off",
)  # fmt: skip


def user_id(rng: random.Random) -> int:
    return rng.randrange(1, 2_500_000)


def uuid4(rng: random.Random) -> uuid.UUID:
    return uuid.UUID(int=rng.getrandbits(128), version=4)


def hex_token(rng: random.Random, nbytes: int) -> str:
    return rng.getrandbits(8 * nbytes).to_bytes(nbytes, "big").hex()


def urlsafe_token(rng: random.Random, nbytes: int) -> str:
    """What `secrets.token_urlsafe(nbytes)` returns, from the seeded generator."""
    return base64.urlsafe_b64encode(rng.getrandbits(8 * nbytes).to_bytes(nbytes, "big")).rstrip(b"=").decode()


def email(rng: random.Random) -> str:
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    local = rng.choice((f"{first}.{last}", f"{first}{rng.randrange(1, 99)}", f"{first[0]}{last}", f"{first}+shop"))
    return f"{local}@{rng.choice(MAIL_DOMAINS)}"


def ipv4(rng: random.Random) -> str:
    first = rng.choice((10, 31, 46, 77, 82, 91, 172, 185, 192, 203))
    return ".".join(str(part) for part in (first, rng.randrange(256), rng.randrange(256), rng.randrange(1, 255)))


def ipv6(rng: random.Random) -> str:
    groups = [f"{rng.getrandbits(16):x}" for _ in range(4)]
    return rng.choice(("2001:db8:", "2a02:8108:", "2600:1700:")) + ":".join(groups) + rng.choice(("::1", "::a2"))


def phone(rng: random.Random) -> str:
    return rng.choice(("+49", "+1", "+33", "+86")) + "".join(rng.choice(string.digits) for _ in range(10))


def slug(rng: random.Random) -> str:
    return "-".join(rng.sample(SLUG_WORDS, rng.randrange(2, 5)))


def day(rng: random.Random, start: dt.date = dt.date(2024, 9, 1), days: int = 120) -> dt.date:
    return start + dt.timedelta(days=rng.randrange(days))


def search_term(rng: random.Random) -> str:
    return rng.choice(SEARCH_TERMS)
