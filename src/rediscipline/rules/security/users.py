"""Helpers shared by the security rules."""

from __future__ import annotations

from rediscipline.model.display import display_bytes

#: Longest user name shown in a message.
USER_LIMIT = 64


def shown_user(name: str) -> str:
    """An ACL user name for a message, in backticks, escaped: the name comes from the server."""
    return f"`{display_bytes(name.encode('utf-8', 'surrogateescape'), USER_LIMIT)}`"
