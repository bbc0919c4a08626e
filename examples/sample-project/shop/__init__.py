"""A shop backend that caches sessions, carts and products in Redis."""
