"""A polite, distributed web crawler: a Redis frontier shared by a fleet of fetchers."""
