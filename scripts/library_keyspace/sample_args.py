"""Seeded arguments for the queue tasks: user ids, image paths, SKUs, months, order numbers, as an app has them."""

from __future__ import annotations

import random

TEMPLATES = ("welcome", "password-reset", "invoice", "weekly-digest")
FOLDERS = ("avatars", "products", "uploads/2024", "banners")
SKU_LINES = ("TSH", "MUG", "HAT", "BAG", "SOK")


def user_id(rng: random.Random) -> int:
    return rng.randint(1, 250_000)


def template(rng: random.Random, failing: bool = False) -> str:
    return "legacy-newsletter" if failing else rng.choice(TEMPLATES)


def image_path(rng: random.Random) -> str:
    return f"{rng.choice(FOLDERS)}/{rng.getrandbits(40):010x}.jpg"


def width(rng: random.Random) -> int:
    return rng.choice((64, 128, 256, 512))


def sku(rng: random.Random) -> str:
    return f"{rng.choice(SKU_LINES)}-{rng.randint(100, 999)}-{rng.choice('SMLX')}"


def month(rng: random.Random) -> str:
    return f"{rng.choice((2024, 2025))}-{rng.randint(1, 12):02d}"


def order_number(rng: random.Random) -> int:
    return rng.randint(1_000_000, 9_999_999)
