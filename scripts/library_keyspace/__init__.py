"""Generators of labelled library keyspace corpora: real libraries run against a real redis-server."""
