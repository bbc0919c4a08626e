"""Web sessions, login throttling and the API rate limiter."""

from __future__ import annotations

import json
import secrets
import time

from issue_clean import keys
from issue_clean.extensions import DAY, HOUR, MINUTE, store

SESSION_TTL = 2 * HOUR
REMEMBER_ME_TTL = 30 * DAY
MAX_LOGIN_ATTEMPTS = 5
REQUESTS_PER_MINUTE = 120


class SessionStore:
    """Sessions are JSON strings; reading one slides its expiry forward."""

    def __init__(self) -> None:
        self.redis = store

    def create(self, user_id: int, remember: bool = False) -> str:
        session_id = secrets.token_urlsafe(24)
        payload = json.dumps({"user_id": user_id, "created": int(time.time())})
        if remember:
            self.redis.set(keys.session(session_id), payload)  # error: TTL006
        else:
            self.redis.set(keys.session(session_id), payload, ex=SESSION_TTL)
        self.redis.sadd(f"user:sessions:{user_id}", session_id)
        self.redis.expire(f"user:sessions:{user_id}", REMEMBER_ME_TTL)
        return session_id

    def load(self, session_id: str) -> dict[str, int] | None:
        key = keys.session(session_id)
        with self.redis.pipeline(transaction=False) as pipe:
            pipe.get(key)
            pipe.expire(key, SESSION_TTL, xx=True)
            raw, _refreshed = pipe.execute()
        return json.loads(raw) if raw else None

    def update(self, session_id: str, data: dict[str, int]) -> None:
        self.redis.set(keys.session(session_id), json.dumps(data), keepttl=True)

    def destroy(self, session_id: str) -> None:
        self.redis.unlink(keys.session(session_id))

    def destroy_all(self, user_id: int) -> None:
        for key in self.redis.keys(f"session:web:{user_id}:*"):  # error: CMD001
            self.redis.unlink(key)

    def destroy_listed(self, user_id: int) -> None:
        listed = f"user:sessions:{user_id}"
        for session_id in self.redis.sscan_iter(listed, count=100):
            self.redis.unlink(keys.session(session_id.decode("ascii")))
        self.redis.unlink(listed)


def register_failed_login(username: str) -> bool:
    """Count a failed attempt; True when the account must wait before trying again."""
    key = keys.login_attempts(username)
    attempts = store.incr(key)
    if attempts == 1:
        store.expire(key, 15 * MINUTE)
    return attempts > MAX_LOGIN_ATTEMPTS


def clear_failed_logins(username: str) -> None:
    store.unlink(keys.login_attempts(username))


def allow_request(client_ip: str) -> bool:
    """A fixed one-minute window per client address."""
    window = int(time.time() // MINUTE)
    key = keys.rate_limit(client_ip, window)
    with store.pipeline(transaction=False) as pipe:
        pipe.incr(key)
        pipe.expire(key, 2 * MINUTE, nx=True)
        count, _ = pipe.execute()
    return count <= REQUESTS_PER_MINUTE


def issue_csrf_token(session_id: str) -> str:
    token = secrets.token_hex(16)
    store.set(f"session:csrf:{session_id}", token, ex=SESSION_TTL)
    return token


def check_csrf_token(session_id: str, token: str) -> bool:
    expected = store.get(f"session:csrf:{session_id}")
    return expected is not None and secrets.compare_digest(expected, token.encode())


def remember_device(user_id: int, device: str) -> None:
    store.hset(f"user:devices:{user_id}", device, int(time.time()))  # error: TTL006
