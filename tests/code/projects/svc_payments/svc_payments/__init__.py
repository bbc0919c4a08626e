"""Payments service: wallets, idempotent payment requests, fraud checks and merchant webhooks."""
