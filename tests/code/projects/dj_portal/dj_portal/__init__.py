"""A Django news portal: cached article pages, presence, sessions and rate limits on one Redis."""
