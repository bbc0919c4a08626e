"""Key builders (004 §6): every key of the service is made here, so names stay in the declared namespaces."""

from __future__ import annotations


def session(session_id: str) -> str:
    return f"session:web:{session_id}"


def login_attempts(username: str) -> str:
    return f"session:login_attempts:{username}"


def rate_limit(client_ip: str, window: int) -> str:
    return f"rate_limit:api:{client_ip}:{window}"


def event_page(event_id: int) -> str:
    return f"event:page:{event_id}"


def seats(event_id: int) -> str:
    return f"event:seats:{event_id}"


def hold(event_id: int, seat: str) -> str:
    return f"hold:seat:{event_id}:{seat}"


def daily_ranking(day: str) -> str:
    return f"ranking:daily:{day}"


def recent(user_id: int) -> str:
    return f"user:recent:{user_id}"


def watchlist(user_id: int) -> str:
    return f"user:watchlist:{user_id}"
