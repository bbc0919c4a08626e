"""Search service: autocomplete, cached search results and the cache warmers that feed them."""
