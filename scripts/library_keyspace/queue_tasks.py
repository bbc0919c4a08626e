"""Plain task functions that the queue workloads enqueue and that their workers import by dotted path.

They stand for what a web application hands to a task queue: mail, thumbnails, reports, syncs. Some fail on
purpose (a negative quantity, an unknown template), so the libraries record failures the way they do in
production.
"""

from __future__ import annotations

import hashlib


class TemplateMissingError(LookupError):
    """The mail template does not exist."""


def send_email(user_id: int, template: str) -> str:
    if template == "legacy-newsletter":
        raise TemplateMissingError(template)
    return f"sent {template} to user {user_id}"


def resize_image(path: str, width: int) -> dict[str, object]:
    digest = hashlib.sha1(f"{path}:{width}".encode()).hexdigest()
    return {"path": path, "width": width, "thumb": f"thumbs/{digest[:12]}.webp"}


def generate_report(account_id: int, month: str) -> dict[str, object]:
    return {"account": account_id, "month": month, "rows": account_id % 97}


def sync_inventory(sku: str, quantity: int) -> int:
    if quantity < 0:
        raise ValueError(f"negative quantity for {sku}")
    return quantity


def add(left: int, right: int) -> int:
    return left + right


def total(values: list[int]) -> int:
    return sum(values)
