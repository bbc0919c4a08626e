"""The storefront: a Flask application built by `create_app`."""

from __future__ import annotations

from flask import Flask, jsonify

from .extensions import redis_client
from .repository import RecentlyViewed, SessionRepository


def create_app() -> Flask:
    app = Flask(__name__)
    app.extensions["sessions"] = SessionRepository(redis_client)
    app.extensions["recently_viewed"] = RecentlyViewed(redis_client)

    @app.get("/health")
    def health():  # type: ignore[no-untyped-def]
        return jsonify(redis=bool(redis_client.ping()))

    return app
