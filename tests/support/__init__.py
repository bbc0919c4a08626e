"""Test infrastructure for the live source: real servers, a seeded dataset with its ground truth, MONITOR.

Nothing here is a mock: `servers` starts real Redis / Valkey binaries on loopback ports, `dataset` writes
through redis-py, `monitor` records what a scan really sends.
"""
