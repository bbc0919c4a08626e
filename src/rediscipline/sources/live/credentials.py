"""Take the credentials out of a server URL's text before anything parses it.

A password may hold any character: `redis://:pa#ss@host`, `redis://:pa/ss@host` or `redis://:pa?ss@host` are
not URLs a parser reads as their author meant, and its error would quote them whole. So the user info is cut
out first, by position alone: it is everything between `://` and the last `@` that is not inside a
credential query parameter (a query value holding a raw `@` must be written `%40`). Then the `username=`,
`password=` and `ssl_password=` query parameters, which redis-py accepts as credentials, are cut out of the
query. What remains (`Credentials.bare`) holds no secret and is the only text any error message may quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote, unquote_plus

#: Query parameters that carry a secret, and the one that names the user.
SECRET_PARAMETERS = ("password", "ssl_password")
USER_PARAMETER = "username"
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):(//)?")
_CREDENTIAL_PARAMETER = re.compile(r"[?&](?:password|ssl_password|username)=")


@dataclass(frozen=True)
class Credentials:
    """A URL split into its credentials and the rest; `bare` is `scheme://host:port/path?query` without them."""

    scheme: str
    bare: str
    query: str  # the query of `bare`, credential parameters removed
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    ssl_password: str | None = field(default=None, repr=False)


def take_credentials(url: str) -> Credentials:
    match = _SCHEME.match(url)
    scheme = match.group(1) if match else ""
    rest = url[match.end() :] if match else url
    username = password = None
    at = _userinfo_end(rest)
    if at is not None:
        user, colon, secret = rest[:at].partition(":")
        username = unquote(user) or None
        password = unquote(secret) if colon and secret else None
        rest = rest[at + 1 :]
    location, question, query = rest.partition("?")
    kept: list[str] = []
    found: dict[str, str] = {}
    for item in query.split("&") if question else ():
        name, _sep, value = item.partition("=")
        name = unquote_plus(name)
        if name in SECRET_PARAMETERS or name == USER_PARAMETER:
            found.setdefault(name, unquote_plus(value))  # the first one, as redis-py's parse_qs reading does
        elif item:
            kept.append(item)
    bare_query = "&".join(kept)
    bare = f"{scheme}://{location}" if match else location
    if bare_query:
        bare += "?" + bare_query
    return Credentials(
        scheme=scheme,
        bare=bare,
        query=bare_query,
        username=username if username is not None else (found.get(USER_PARAMETER) or None),
        password=password if password is not None else (found.get("password") or None),
        ssl_password=found.get("ssl_password") or None,
    )


def _userinfo_end(rest: str) -> int | None:
    """The position of the `@` that ends the user info, or None when the URL has none."""
    at = rest.rfind("@")
    while at >= 0:
        if not _CREDENTIAL_PARAMETER.search(rest, 0, at):
            return at
        at = rest.rfind("@", 0, at)
    return None
