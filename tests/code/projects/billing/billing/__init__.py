"""Billing service: invoices, customer ledgers and payment bookkeeping on top of Redis."""

__version__ = "2.4.1"
