"""Feeds: timelines, likes and counters for the social app (a Django app with Celery workers)."""

default_app_config = "feeds.apps.FeedsConfig"
